package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backend's cost-model build on the profile database, over {@link ScriptedRuntime} (no OpenVINO involved). */
class ProfileDatabaseBackendTest {
  private final OpGraph graph = SelfTestModel.graph();

  @TempDir
  Path tmp;

  private static ProfilingRecord ran(String node, long micros) {
    return new ProfilingRecord(-1, node, "", "", ProfilingRecord.Status.EXECUTED, micros, micros);
  }

  private ScriptedRuntime runtime(long conv1Micros) {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    rt.profileByDevice.put("HETERO:CPU,GPU.1",
        List.of(ran("conv1", conv1Micros), ran("conv1/add", 20), ran("conv1/relu", 10), ran("fc", 50)));
    rt.profileByDevice.put("HETERO:GPU.1,CPU", List.of(ran("conv1", 90), ran("fc", 40)));
    return rt;
  }

  /** One build on a new backend (a new process, as far as the database can tell); its kernels, reuse and calls. */
  @SuppressWarnings("ArrayRecordComponent") // a test's own result, never shared
  private record Built(double[][] micros, ProfileReuse reuse, List<String> calls, List<String> notices) {
    boolean profiled() {
      return calls.contains("infer 1+" + KernelProfiles.PROFILING_RUNS);
    }
  }

  private Built build(ProfileDatabase db, boolean fresh, long conv1Micros, OpenVinoOptions options) {
    ScriptedRuntime rt = runtime(conv1Micros);
    List<String> notices = new ArrayList<>();
    try (OpenVinoBackend b = new OpenVinoBackend(rt, options).bind(graph, Path.of("selftest.xml"))) {
      ProfileDatabaseUser user = b.capability(ProfileDatabaseUser.class).orElseThrow();
      user.useProfileDatabase(db, fresh, notices::add);
      b.costModel(graph);
      double[][] micros = ProfiledKernels.fromJson(b.costModelMeasurements(graph).orElseThrow()).micros();
      return new Built(micros, user.profileReuse(graph).orElseThrow(), List.copyOf(rt.calls), notices);
    }
  }

  @Test
  void aSecondBuildProfilesNothingTheDatabaseHolds() throws Exception {
    ProfileDatabase db = ProfileDatabase.at(tmp.resolve("profiles.db"));
    int records = 2 * graph.nodeCount();
    Built first = build(db, false, 300, OpenVinoOptions.DEFAULT);
    assertTrue(first.profiled(), first.calls().toString());
    assertEquals(List.of(0, records), List.of(first.reuse().reused(), first.reuse().profiled()));
    assertEquals(300, first.micros()[0][graph.indexOf("conv1")], 1e-9);
    assertTrue(db.count(null) > 0, "the profiled records are saved");

    Built second = build(db, false, 999, OpenVinoOptions.DEFAULT);
    assertFalse(second.profiled(), "no profiling compile: " + second.calls());
    assertEquals(List.of(records, 0), List.of(second.reuse().reused(), second.reuse().profiled()));
    int n = graph.nodeCount();
    assertEquals("profile database: " + records + " of " + records + " op records reused, 0 profiled; profiled 0 of "
        + n + " ops on CPU (" + n + " reused from the profile database); profiled 0 of " + n + " ops on GPU.1 (" + n
        + " reused from the profile database)", second.reuse().line());
    for (int d = 0; d < 2; d++) {
      assertArrayEquals(first.micros()[d], second.micros()[d], 1e-9, "the saved times, not the runtime's 999");
    }
    assertTrue(second.calls().stream().anyMatch(c -> c.startsWith("compile HETERO")),
        "the designed splits are the model's own and are measured again: " + second.calls());
    assertEquals(List.of(), second.notices());
  }

  @Test
  void aModelTheDatabaseDoesNotServeIsSaidSoInsteadOfCountingNothing() {
    KernelRecords r = new KernelRecords(ProfileDatabase.at(tmp.resolve("p.db")), false, List.of(), s -> {});
    r.bypassed("int8");
    assertEquals("profile database: not used for this model (int8)", r.reuse().line());
  }

  @Test
  void aChangedKeyIsProfiledAgainNeverTrustedStale() {
    ProfileDatabase db = ProfileDatabase.at(tmp.resolve("profiles.db"));
    build(db, false, 300, OpenVinoOptions.DEFAULT);
    // Other input sizes are another context: every record of the old one is stale for it.
    Built other = build(db, false, 444, OpenVinoOptions.DEFAULT.withInputShapes(Map.of("data", new long[] {2, 3})));
    assertTrue(other.profiled(), other.calls().toString());
    assertEquals(0, other.reuse().reused());
    assertEquals(444, other.micros()[0][graph.indexOf("conv1")], 1e-9);
  }

  @Test
  void aFreshProfileReadsNothingAndRefreshesTheDatabase() {
    ProfileDatabase db = ProfileDatabase.at(tmp.resolve("profiles.db"));
    build(db, false, 300, OpenVinoOptions.DEFAULT);
    Built fresh = build(db, true, 500, OpenVinoOptions.DEFAULT);
    assertTrue(fresh.profiled(), fresh.calls().toString());
    assertEquals(0, fresh.reuse().reused());
    assertTrue(fresh.reuse().line().contains("--fresh-profile"), fresh.reuse().line());
    Built after = build(db, false, 700, OpenVinoOptions.DEFAULT);
    assertFalse(after.profiled(), after.calls().toString());
    assertEquals(500, after.micros()[0][graph.indexOf("conv1")], 1e-9, "the fresh profile replaced the old record");
  }

  @Test
  void anUnusableDatabaseIsSaidAndTheBuildProfilesWithoutIt() throws Exception {
    Path notADatabase = tmp.resolve("profiles.db");
    java.nio.file.Files.writeString(notADatabase, "not sqlite at all, but a text file a user left here");
    Built b = build(ProfileDatabase.at(notADatabase), false, 300, OpenVinoOptions.DEFAULT);
    assertTrue(b.profiled());
    assertEquals(300, b.micros()[0][graph.indexOf("conv1")], 1e-9);
    assertEquals(1, b.notices().size(), b.notices().toString());
    assertTrue(b.notices().get(0).startsWith("profile database " + notADatabase), b.notices().toString());
    assertEquals("not sqlite at all, but a text file a user left here\n".trim(),
        java.nio.file.Files.readString(notADatabase).trim(), "a file that is not a database is left as it was");
  }
}
