package org.hsdag.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.cli.CliRun;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.cli.CommittedCatalogHome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench} and {@code bench throughput} on the real runtime given a bundled model by name: the
 * repository (a temporary {@code hsdag.home}) holds {@code models/tiny_chain/tiny_chain.xml} as
 * committed, without weights, which the commands write before compiling. {@code bench throughput}
 * runs every row it has there (tuned per objective, the single devices, AUTO's emulation, and the
 * planners' plans) with 2 requests in flight, and names the real backend and profile.
 */
@Tag("openvino")
class RealBenchByNameTest {
  @TempDir
  Path home;
  private CommittedCatalogHome committed;
  private Path bin;

  @BeforeEach
  void committedXmlWithoutWeights() throws IOException {
    RealOpenVino.require();
    committed = CommittedCatalogHome.at(home, "tiny_chain");
    bin = committed.bin();
  }

  @AfterEach
  void restoreHome() {
    committed.close();
  }

  @Test
  void benchGivenACatalogNameRunsOnTheRealBackend() throws IOException {
    Path out = home.resolve("bench");
    CliRun r = CliRun.of("bench", "tiny_chain", "--backend", "openvino", "--test-device", "CPU2:precision=f32",
        "--devices", "CPU,CPU2", "--methods", "random", "--budget", "2", "--seeds", "1", "--reference-factor", "0",
        "--final-rounds", "1", "--out", out.toString());
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(Files.isRegularFile(bin), "the stand-in weights were written beside the bundled XML");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertEquals("openvino", json.get("backend").asText());
    assertFalse(json.get("simulated").asBoolean());
  }

  @Test
  void throughputExperimentRunsEveryRowOnTheRealRuntime() {
    CliRun r = CliRun.of("bench", "throughput", "tiny_chain", "--backend", "openvino", "--test-device",
        "CPU2:precision=f32", "--devices", "CPU,CPU2", "--seeds", "1", "--budget", "2", "--final-rounds", "1",
        "--requests", "2", "--protocol", "1+3:median");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    String header = r.out().lines().findFirst().orElse("");
    assertTrue(header.contains("backend openvino, profile OpenVINO ") && header.contains("CPU2=")
        && header.contains("measured on hardware, not simulated"), r.out());
    String row = r.out().lines().filter(l -> l.startsWith("| openvino | tiny_chain | CPU,CPU2 |")).findFirst()
        .orElseThrow(() -> new AssertionError(r.out()));
    String[] cells = row.split("\\|", -1);
    // latency-tuned, throughput-tuned: "ms / inf/s" each; best single, AUTO, sum of singles: inf/s.
    for (int c = 4; c <= 5; c++) {
      assertTrue(cells[c].trim().matches("[0-9.]+ / [0-9.]+"), "cell " + c + ": " + row);
    }
    for (int c = 6; c <= 8; c++) {
      assertTrue(Double.parseDouble(cells[c].trim()) > 0, "cell " + c + ": " + row);
    }
    assertFalse(r.out().contains("failed measurement"), r.out());
    assertTrue(r.out().contains("all figures: backend openvino"), r.out());

    CliRun plans = CliRun.of("bench", "throughput", "tiny_chain", "--backend", "openvino", "--test-device",
        "CPU2:precision=f32", "--devices", "CPU,CPU2", "--plan-only", "--requests", "2", "--protocol", "1+3:median");
    assertEquals(0, plans.exitCode(), plans.out() + plans.err());
    String planRow = plans.out().lines().filter(l -> l.startsWith("| openvino | tiny_chain | CPU,CPU2 |"))
        .findFirst().orElseThrow(() -> new AssertionError(plans.out()));
    assertTrue(planRow.split("\\|", -1)[4].trim().matches("[0-9.]+ / [0-9.]+"), planRow);
  }
}
