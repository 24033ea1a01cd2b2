package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.CompileStats;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real backend compiles a placement once and measures it again on the kept compiled model (CPU + CPU2). */
@Tag("openvino")
class RealCompileCacheTest {
  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = RealTinyModel.write(tmp);
  }

  @Test
  void measuringTheSameSplitThreeTimesCompilesOnce() throws IOException {
    OpGraph graph = new IrReader().read(model);
    int[] d = new int[graph.nodeCount()];
    for (int v = graph.nodeCount() / 2; v < d.length; v++) {
      d[v] = 1;
    }
    Placement split = new Placement(DeviceSet.of("CPU", "CPU2"), d);
    MeasurementProtocol protocol = new MeasurementProtocol(1, 5, Statistic.MEDIAN, 1, 0);
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withTestDevices(List.of(TestDevice.parse("CPU2")));
    try (OpenVinoBackend b = OpenVinoBackend.open(options).bind(graph, model)) {
      List<Measurement> ms = List.of(b.measure(graph, split, protocol), b.measure(graph, split, protocol),
          b.measure(graph, split, protocol));
      ms.forEach(m -> assertTrue(m.ok(), m.reason()));
      CompileStats s = b.compileStats();
      assertEquals(1, s.compiles(), s.describe());
      assertEquals(2, s.hits(), "the second and third measurements ran on the kept compiled model: " + s.describe());
      assertEquals(1, s.distinctPlacements());
      assertEquals(1, s.peakEntries());
      assertTrue(ms.get(0).subModels() >= 2, "a real split: " + ms.get(0).subModels());
      ms.forEach(m -> assertEquals(ms.get(0).subModels(), m.subModels(), "the same compiled split"));
      ms.forEach(m -> assertEquals(5, m.samplesMillis().length));

      Placement cpu = Placement.allOn(split.devices(), graph.nodeCount(), "CPU");
      assertTrue(b.measure(graph, cpu, protocol).ok());
      assertEquals(2, b.compileStats().compiles(), "another placement compiles");
      b.compileCacheBudget(0, "--compile-cache-mb 0");
      assertTrue(b.measure(graph, cpu, protocol).ok());
      assertEquals(3, b.compileStats().compiles(), "nothing kept under a zero budget");
      assertEquals(2, b.compileStats().evictions());
    }
  }

  @Test
  void aRealTuneCompilesEachDistinctPlacementOnceAndSaysSo() throws IOException {
    Path out = tmp.resolve("run");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "openvino", "--test-device", "CPU2", "--devices",
        "CPU,CPU2", "--budget", "4", "--seed", "3", "--out", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    JsonNode c = new ObjectMapper().readTree(out.resolve("result.json").toFile()).path("compile_cache");
    assertTrue(c.path("real").asBoolean(), c.toString());
    assertEquals("openvino", c.path("backend").asText());
    assertEquals(0, c.path("evictions").asInt(), c.toString());
    assertEquals(c.path("distinct_placements").asInt(), c.path("compiles").asInt(), "one compile each: " + c);
    assertTrue(c.path("cache_hits").asInt() > 0, "the final rounds re-measure kept models: " + c);
    assertTrue(r.out().contains("compiles: real (openvino): "), r.out());
  }
}
