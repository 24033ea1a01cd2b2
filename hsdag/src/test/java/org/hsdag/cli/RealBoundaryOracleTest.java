package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.backend.TestDevice;
import org.hsdag.cost.BoundaryOracle;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroRules;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's shape inference as the judge of HETERO's boundaries agrees with compile + infer
 * request, on the hand-made PriorBox IR of {@link RealRefusalTest} (written by the wheel): every
 * split of docs/hetero-rules.md §3's table, refused and running alike.
 */
@Tag("openvino")
class RealBoundaryOracleTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "CPU2");
  private static final List<List<String>> SPLITS = List.of(List.of("pb"), List.of("ss", "pb"),
      List.of("ssi", "pb"), List.of("si", "ssi", "pb"), List.of("s", "ss", "pb"), List.of("a", "s", "ss", "pb"),
      List.of("ss"), List.of("t"), List.of("pb", "t", "out", "b", "bb", "bbr"), List.of("b", "bb", "bbr"));

  @TempDir
  Path tmp;

  @Test
  void theRuntimesVerdictWithoutCompilingEqualsCompileAndInferRequest() throws Exception {
    RealOpenVino.require();
    Path model = RealRefusalTest.writePriorsModel(tmp);
    OpGraph g = new IrReader().read(model);
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withTestDevices(List.of(TestDevice.parse("CPU2:precision=f32")));
    MeasurementProtocol once = new MeasurementProtocol(0, 1, Statistic.MEDIAN, 1, 0);
    int refusedSeen = 0;
    try (OpenVinoBackend b = OpenVinoBackend.open(options).bind(g, model)) {
      BoundaryOracle oracle = b.boundaryOracle(g);
      for (List<String> onCpu2 : SPLITS) {
        Placement p = placement(g, onCpu2);
        Optional<String> verdict = HeteroRefusal.check(g, p.deviceOf(), oracle);
        Measurement real = b.measure(g, p, once);
        assertTrue(real.ok() || real.reason().contains("infer request on HETERO"), real.reason());
        assertEquals(!real.ok(), verdict.isPresent(), onCpu2 + ": runtime " + real.reason() + ", oracle " + verdict);
        verdict.ifPresent(v -> assertTrue(v.endsWith("judged by the runtime's shape inference"), v));
        refusedSeen += real.ok() ? 0 : 1;
      }
    }
    assertTrue(refusedSeen > 0 && refusedSeen < SPLITS.size(), "the cases must hold both verdicts");
  }

  private static Placement placement(OpGraph g, List<String> onCpu2) {
    int[] d = new int[g.nodeCount()];
    for (String n : onCpu2) {
      d[g.indexOf(n)] = 1;
    }
    return new Placement(DEVICES, new HeteroRules(g).resolve(d));
  }
}
