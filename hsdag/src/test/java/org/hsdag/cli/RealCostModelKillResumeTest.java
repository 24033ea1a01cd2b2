package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.hsdag.openvino.DesignSamples;
import org.hsdag.openvino.ProfiledKernels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real tune killed ({@code kill -9}) while it builds its cost model, once its folder holds the profiled kernels
 * and some designed-split measurements: the resume reuses them (the kernel times kept to the last digit, the
 * designed splits measured only where none was saved), says so, and finishes; the killed tune's runtime folder is
 * removed by the resume's start.
 */
@Tag("openvino")
class RealCostModelKillResumeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Generous bound on how long the child may take to get there (a failure guard, not a timing check). */
  private static final long PATIENCE_MS = 600_000;

  @TempDir
  Path tmp;

  /** Whether {@code file} holds kernels and at least one designed-split measurement, before the fit. */
  private static boolean partlyFitted(Path file) {
    try {
      JsonNode n = JSON.readTree(Files.readString(file));
      return n.path("kernelScale").isNull() && n.path("design").path("placements").size() > 0;
    } catch (IOException | RuntimeException e) {
      return false; // not there yet
    }
  }

  /** The runtime folders whose owners file names {@code pid}. */
  private static List<Path> runtimeFoldersOf(long pid) throws IOException {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      for (Path d : all.filter(d -> d.getFileName().toString().startsWith("hsdag-runtime-")).toList()) {
        try {
          if (Files.readAllLines(d.resolve("owners")).stream().anyMatch(l -> l.startsWith(pid + " "))) {
            found.add(d);
          }
        } catch (IOException e) {
          // another user's, or none recorded
        }
      }
    }
    return found;
  }

  @Test
  void killedWhileProfilingTheResumeKeepsWhatWasProfiledAndFinishes() throws Exception {
    Path model = RealTinyModel.write(tmp);
    Path out = tmp.resolve("run");
    Path saved = out.resolve(CostModelMeasurements.FILE);
    List<String> tune = List.of("tune", model.toString(), "--backend", "openvino", "--devices", "CPU,CPU2",
        "--test-device", "CPU2:precision=f32", "--budget", "3", "--top-k", "1", "--final-rounds", "1", "--seed", "1",
        "--out", out.toString());
    Process child = new ProcessBuilder(CliChild.command(List.of(), tune)).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    List<Path> left;
    try {
      long deadline = System.currentTimeMillis() + PATIENCE_MS;
      while (child.isAlive() && !partlyFitted(saved)) {
        assertTrue(System.currentTimeMillis() < deadline, "no designed split was ever saved");
        Thread.sleep(20);
      }
      assertTrue(child.isAlive(), "the tune ended before it was killed");
      left = runtimeFoldersOf(child.pid());
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    } finally {
      child.destroyForcibly();
    }
    ProfiledKernels before = ProfiledKernels.fromJson(Files.readString(saved));
    assertFalse(before.fitted(), "killed during the build: " + before.describe());
    assertTrue(Files.exists(out.resolve("manifest.json")));
    assertFalse(Files.exists(out.resolve("best.json")));
    assertEquals(1, left.size(), "the killed tune's runtime folder: " + left);
    awaitEnded(left.get(0)); // its runtime child ends once its tune's socket closes

    CliRun resumed = CliRun.of("tune", "--resume", "--out", out.toString());
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.out() + resumed.err());
    assertTrue(resumed.err().contains("hsdag: cost model: reused the profiling saved in the run folder (kernel times "
        + "on CPU, CPU2 and " + before.design().measurements() + " of " + before.design().planned()
        + " designed-split measurements); measuring the rest"), resumed.err());
    ProfiledKernels after = ProfiledKernels.fromJson(Files.readString(saved));
    assertTrue(after.fitted(), after.describe());
    for (int d = 0; d < 2; d++) {
      assertTrue(java.util.Arrays.equals(before.micros()[d], after.micros()[d]), "the kernels were not profiled again");
    }
    for (DesignSamples.Sampled s : before.design().placements()) {
      DesignSamples.Sampled now = after.design().placements().stream()
          .filter(x -> x.label().equals(s.label())).findFirst().orElseThrow();
      assertEquals(s.micros(), now.micros().subList(0, s.micros().size()), "a saved designed split is kept: " + s);
    }
    assertTrue(Files.exists(out.resolve("best.json")));
    assertFalse(Files.exists(left.get(0)), "the resume's start removed the killed tune's runtime folder");
  }

  /** Waits until no process the runtime folder names is alive (its runtime child ends on its own). */
  private static void awaitEnded(Path folder) throws Exception {
    long deadline = System.currentTimeMillis() + PATIENCE_MS;
    while (Files.readAllLines(folder.resolve("owners")).stream().map(l -> Long.parseLong(l.split(" ", -1)[0]))
        .anyMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))) {
      assertTrue(System.currentTimeMillis() < deadline, "the runtime child of the killed tune never ended");
      Thread.sleep(50);
    }
  }
}
