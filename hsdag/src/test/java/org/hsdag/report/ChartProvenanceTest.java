package org.hsdag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.cli.CliRun;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress chart keeps its unit on the axis and a short provenance in its title. */
class ChartProvenanceTest {
  @TempDir
  Path tmp;

  @Test
  void aRealRunsLongProfileIsShortenedToRuntimeAndDeviceNames() throws IOException {
    Path run = tmp.resolve("run");
    CliRun r = CliRun.of("tune", TestModels.twoBranch(tmp).toString(), "--backend", "sim", "--devices", "CPU,GPU.1",
        "--strategy", "random", "--budget", "2", "--top-k", "1", "--final-rounds", "1", "--quiet", "--no-report",
        "--out", run.toString());
    assertEquals(0, r.exitCode(), r.err());
    RunManifest sim = RunManifest.read(run);
    assertEquals("simulated, sim/paper", ReportWriter.chartProvenance(sim));

    ObjectNode m = (ObjectNode) new ObjectMapper().readTree(run.resolve(RunManifest.FILE).toFile());
    m.put("simulated", false);
    m.put("backend", "openvino");
    m.put("profile", "OpenVINO 2026.4.1 on CPU=AMD EPYC 7B13 64-Core Processor, GPU.1=AMD EPYC 7B13 64-Core "
        + "Processor (test device: the CPU plugin registered again, 1 thread, f32)");
    Files.writeString(run.resolve(RunManifest.FILE), m.toString());
    String real = ReportWriter.chartProvenance(RunManifest.read(run));
    assertEquals("openvino: OpenVINO 2026.4.1 on CPU, GPU.1", real);
    assertTrue(real.length() < 60, real);
  }
}
