package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the real runtime, a model sharing its backbone with one profiled before profiles only the ops whose records the
 * profile database lacks (in a part of the model the runtime extracts), and afterwards the database holds a record
 * for every op. Asserts what was profiled, never how fast.
 */
@Tag("openvino")
class RealPartialProfileTest {
  /** Twelve conv → relu blocks; argv[2] is the last convolution's output channels (the "head"). */
  private static final String MODEL = """
      import sys, numpy as np, openvino as ov
      import openvino.opset13 as op
      rng = np.random.default_rng(1)
      x = op.parameter([1, 16, 24, 24], np.float32, name='x')
      h = x
      for k in range(12):
          out = int(sys.argv[2]) if k == 11 else 16
          w = op.constant(rng.standard_normal((out, 16, 3, 3)).astype(np.float32))
          h = op.relu(op.convolution(h, w, [1, 1], [1, 1], [1, 1], [1, 1]))
      ov.save_model(ov.Model([op.result(h)], [x], 'blocks'), sys.argv[1], compress_to_fp16=False)
      """;

  @TempDir
  Path dir;

  @Test
  void aNewHeadProfilesOnlyItsNewOps() throws Exception {
    RealOpenVino.require();
    Path backbone = write("backbone.xml", 16);
    Path headed = write("headed.xml", 32);
    OpGraph first = new IrReader().read(backbone);
    OpGraph second = new IrReader().read(headed);
    ProfileDatabase db = ProfileDatabase.at(dir.resolve("profiles.db"));
    build(first, backbone, db);
    ProfileReuse reuse = build(second, headed, db);

    // What the second model lacks: its ops whose signature the first has not, but its last op (another device
    // runs it in each device's profiling compile, so it is profiled on neither).
    Set<String> seen = new HashSet<>(Arrays.asList(OpSignature.of(first)));
    String[] signatures = OpSignature.of(second);
    int lacking = 0;
    int last = -1;
    for (int v = 0; v < second.nodeCount(); v++) {
      last = second.node(v).isResult() ? second.predecessors(v)[0] : last;
    }
    for (int v = 0; v < second.nodeCount(); v++) {
      if (SubModelSelection.isOp(second.node(v)) && v != last && !seen.contains(signatures[v])) {
        lacking++;
      }
    }
    assertTrue(lacking > 0 && lacking < 6, "the head changes a few signatures: " + lacking);
    int n = second.nodeCount();
    for (String device : List.of("CPU", "CPU2")) {
      String line = "profiled " + lacking + " of " + n + " ops on " + device + " (" + (n - lacking)
          + " reused from the profile database)";
      assertTrue(reuse.devices().contains(line), line + " in " + reuse.devices());
    }
    assertEquals(2 * (n - lacking), reuse.reused(), reuse.line());

    // Every node of the second model but its last op and its Result (another device runs them) now has a record on
    // both devices.
    Set<String> needed = new HashSet<>();
    for (int v = 0; v < n; v++) {
      if (v != last && !second.node(v).isResult()) {
        needed.add(signatures[v]);
      }
    }
    List<String> contexts = db.contexts();
    assertEquals(2, contexts.size(), contexts.toString());
    for (String c : contexts) {
      String key = c.substring(0, c.indexOf(' '));
      assertEquals(needed, db.records(key, needed).keySet(), "records of " + c);
    }
  }

  private static ProfileReuse build(OpGraph graph, Path xml, ProfileDatabase db) {
    OpenVinoOptions options = new OpenVinoOptions(null, null, 0L, Map.of(),
        List.of(new TestDevice("CPU2", 1, "f32")));
    List<String> notices = new ArrayList<>();
    try (OpenVinoBackend b = OpenVinoBackend.open(options).bind(graph, xml)) {
      ProfileDatabaseUser user = b.capability(ProfileDatabaseUser.class).orElseThrow();
      user.useProfileDatabase(db, false, notices::add);
      b.costModel(graph);
      assertEquals(List.of(), notices);
      return user.profileReuse(graph).orElseThrow();
    }
  }

  private Path write(String name, int headChannels) throws Exception {
    Path py = Files.writeString(dir.resolve("model.py"), MODEL);
    Path xml = dir.resolve(name);
    Process p = new ProcessBuilder(RealOpenVino.python().toString(), py.toString(), xml.toString(),
        Integer.toString(headChannels)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the wheel's Python wrote the model");
    assertEquals(0, p.exitValue(), out);
    return xml;
  }
}
