package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.TestDevice;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroRules;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the real runtime, a hand-made PriorBox IR (the graph of ShapeBoundariesTest, written by the
 * wheel): a split predicted refused really fails creating the infer request, one predicted fine runs,
 * and a default tune spends no search measurement on a refused split.
 */
@Tag("openvino")
class RealRefusalTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "CPU2");

  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws Exception {
    RealOpenVino.require();
    model = writePriorsModel(tmp);
  }

  /** The hand-made PriorBox detector of docs/hetero-rules.md, written by the wheel's Python into {@code dir}. */
  static Path writePriorsModel(Path dir) throws Exception {
    Path script = dir.resolve("priors_model.py");
    try (InputStream in = RealRefusalTest.class.getResourceAsStream("priors_model.py")) {
      Files.write(script, in.readAllBytes());
    }
    Path xml = dir.resolve("priors.xml");
    Process p = new ProcessBuilder(RealOpenVino.python().toString(), script.toString(), xml.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, out);
    return xml;
  }

  /** The placement with {@code onCpu2} on CPU2 and the rest on CPU, HETERO's follower rules applied. */
  private static Placement placement(OpGraph g, String... onCpu2) {
    int[] d = new int[g.nodeCount()];
    for (String n : onCpu2) {
      d[g.indexOf(n)] = 1;
    }
    return new Placement(DEVICES, new HeteroRules(g).resolve(d));
  }

  @Test
  void aSplitPredictedRefusedFailsAtTheInferRequestAndOnePredictedFineRuns() throws IOException {
    OpGraph g = new IrReader().read(model);
    Placement refused = placement(g, "pb");
    Placement fine = placement(g, "b", "bb", "bbr");
    assertTrue(HeteroRefusal.check(g, refused.deviceOf()).isPresent());
    assertTrue(HeteroRefusal.check(g, fine.deviceOf()).isEmpty());
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withTestDevices(List.of(TestDevice.parse("CPU2:precision=f32")));
    try (OpenVinoBackend b = OpenVinoBackend.open(options).bind(g, model)) {
      Measurement no = b.measure(g, refused, MeasurementProtocol.PAPER);
      assertFalse(no.ok());
      assertTrue(no.reason().contains("infer request on HETERO"), no.reason());
      Measurement yes = b.measure(g, fine, MeasurementProtocol.PAPER);
      assertTrue(yes.ok(), yes.reason());
    }
  }

  @Test
  void aDefaultTuneSpendsNoSearchMeasurementOnARefusedSplit() throws IOException {
    Path out = tmp.resolve("run");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "openvino", "--devices", "CPU,CPU2", "--test-device",
        "CPU2:precision=f32", "--budget", "6", "--final-rounds", "1", "--top-k", "1", "--out", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    List<LogRecord> search = RunLog.read(out.resolve("log.jsonl")).records().stream()
        .filter(x -> x.hasMeasurement() && LogRecord.PHASE_SEARCH.equals(x.phase())).toList();
    assertFalse(search.isEmpty());
    for (LogRecord x : search) {
      String reason = x.reason() == null ? "" : x.reason();
      assertFalse(reason.contains("infer request on HETERO") || reason.contains("compiling on HETERO"),
          "a search measurement was spent on a split HETERO refuses: " + reason);
    }
  }
}
