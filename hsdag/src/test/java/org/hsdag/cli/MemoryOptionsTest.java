package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryOptionsTest {
  @TempDir
  Path tmp;

  private static final String MODEL = ModelCatalog
      .xmlPath(ModelCatalog.locate(java.nio.file.Path.of("").toAbsolutePath()), "tiny_decoder").toString();

  private static void assertUsageError(CliRun r, String expected) {
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains(expected), r.err());
  }

  @Test
  void aDeviceOutsideTheSetIsAOneLineUsageError() {
    assertUsageError(CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.9=1GiB"),
        "--memory names GPU.9, which is not among the devices (CPU,GPU.1)");
  }

  @Test
  void badSizesAndEntriesAreOneLineUsageErrors() {
    assertUsageError(CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=lots"),
        "--memory: bad size 'lots'");
    assertUsageError(CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1"),
        "--memory: bad memory entry 'GPU.1'");
    assertUsageError(CliRun.of("tune", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=0"),
        "--memory: size '0' is out of range");
  }

  @Test
  void planKeepsWithinTheCapAndReportsMemoryPerDevice() {
    CliRun r = CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=1MiB");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("memory GPU.1 "), r.out());
    assertTrue(r.out().contains("of 1.00 MiB"), r.out());
  }

  /**
   * Both devices capped, each at what the plan under one cap uses on it: that plan fits both caps, so
   * planning under both finds a split that fits them, and never says nothing fits.
   */
  @Test
  void capsOnBothDevicesAtWhatTheOneCapPlanUsesArePlanned() throws IOException {
    JsonNode alone = planJson();
    JsonNode cpuAlone = alone.get("best").get("memory_per_device").get("CPU");
    long cpuCap = cpuAlone.get("total_bytes").asLong() - cpuAlone.get("weights_bytes").asLong() / 2;
    JsonNode oneCap = planJson("--memory", "CPU=" + cpuCap);
    assertTrue(oneCap.get("best").get("sub_models").asInt() > 1, "half the weights off CPU is a split: " + oneCap);
    long gpuCap = oneCap.get("best").get("memory_per_device").get("GPU.1").get("total_bytes").asLong();
    String both = "CPU=" + cpuCap + ",GPU.1=" + gpuCap;
    JsonNode twoCaps = planJson("--memory", both);
    JsonNode use = twoCaps.get("best").get("memory_per_device");
    for (String d : new String[] {"CPU", "GPU.1"}) {
      assertTrue(use.get(d).get("total_bytes").asLong() <= use.get(d).get("capacity_bytes").asLong(), d + ": " + use);
    }
    assertEquals(gpuCap, use.get("GPU.1").get("capacity_bytes").asLong(), use.toString());
    CliRun text = CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", both);
    assertEquals(ExitCodes.OK, text.exitCode(), text.err());
    assertTrue(text.out().contains("--memory for CPU,GPU.1") && !text.err().contains("fits"), text.out() + text.err());
  }

  private static JsonNode planJson(String... more) throws IOException {
    java.util.List<String> args = new java.util.ArrayList<>(
        java.util.List.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--json"));
    args.addAll(java.util.List.of(more));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    return new ObjectMapper().readTree(r.out());
  }

  @Test
  void aResumedTuneKeepsTheCapacitiesItStartedWith() throws IOException {
    Path out = tmp.resolve("run");
    CliRun first = CliRun.of("tune", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=1MiB",
        "--budget", "3", "--out", out.toString());
    assertEquals(ExitCodes.OK, first.exitCode(), first.err());
    assertTrue(gpuOnlyReason(out).contains("rejected by the memory model"), gpuOnlyReason(out));

    CliRun more = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "6", "--memory", "GPU.1=1GiB");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertTrue(more.err().lines().anyMatch(l -> l.contains("ignored:") && l.contains("--memory")), more.err());
    // The final re-measurement ran again on resume, still under the run's own 1 MiB cap.
    assertTrue(gpuOnlyReason(out).contains("rejected by the memory model"), gpuOnlyReason(out));
  }

  @Test
  void theCapacitiesLiveInTheManifestAndARunThatKeptThemBesideItStillResumesUnderThem() throws IOException {
    Path out = tmp.resolve("old");
    CliRun first = CliRun.of("tune", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=1MiB",
        "--budget", "3", "--out", out.toString(), "--quiet");
    assertEquals(ExitCodes.OK, first.exitCode(), first.err());
    ObjectMapper json = new ObjectMapper();
    Path manifestFile = out.resolve("manifest.json");
    ObjectNode manifest = (ObjectNode) json.readTree(Files.readAllBytes(manifestFile));
    assertEquals("GPU.1=1MiB", manifest.path("config").path("memory").asText(), manifest.toString());
    assertFalse(Files.exists(out.resolve(MemoryOptions.FILE)), "one place: the manifest");

    // As a run from before kept them: memory.json beside a manifest without them.
    ((ObjectNode) manifest.get("config")).remove("memory");
    Files.write(manifestFile, json.writeValueAsBytes(manifest));
    Files.writeString(out.resolve(MemoryOptions.FILE), "{\"memory\":\"GPU.1=1MiB\"}\n");
    CliRun more = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "6", "--quiet");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertTrue(gpuOnlyReason(out).contains("rejected by the memory model"), gpuOnlyReason(out));
  }

  @Test
  void applyRefusesAPlacementOverTheGivenCapacitySayingByHowMuchOnWhichDevice() throws IOException {
    Path placement = allOnGpu();
    CliRun r = CliRun.of("apply", MODEL, placement.toString(), "--backend", "sim", "--memory", "GPU.1=1MiB",
        "--rounds", "1");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("does not fit: out of memory on GPU.1: needs "), r.err());
    assertTrue(r.err().contains("but has 1.00 MiB, ") && r.err().contains(" over (capacities: sim profile paper, "
        + "--memory for GPU.1"), r.err());
    assertUsageError(CliRun.of("apply", MODEL, placement.toString(), "--backend", "sim", "--memory", "NPU.7=1GiB"),
        "--memory names NPU.7");
  }

  @Test
  void applyWithinTheCapacityRunsAndPrintsTheMemoryPerDevice() throws IOException {
    // GPU.0 is not among the devices apply times: a cap on it does not matter, and is no error.
    CliRun r = CliRun.of("apply", MODEL, allOnGpu().toString(), "--backend", "sim", "--memory", "GPU.1=4GiB,GPU.0=1GiB",
        "--rounds", "1");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("memory GPU.1 ") && r.out().contains("of 4.00 GiB"), r.out());
    CliRun json = CliRun.of("apply", MODEL, allOnGpu().toString(), "--backend", "sim", "--memory", "GPU.1=4GiB",
        "--rounds", "1", "--json");
    assertEquals(ExitCodes.OK, json.exitCode(), json.err());
    JsonNode gpu = new ObjectMapper().readTree(json.out()).path("memory_per_device").path("GPU.1");
    assertEquals(4L << 30, gpu.path("capacity_bytes").asLong(), json.out());
    assertTrue(gpu.path("weights_bytes").asLong() > 0, json.out());
  }

  @Test
  void aTunedRunsResultAndReportGiveTheBestPlacementsMemoryPerDevice() throws IOException {
    Path out = tmp.resolve("capped");
    CliRun r = CliRun.of("tune", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=1MiB",
        "--budget", "3", "--out", out.toString(), "--quiet");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    JsonNode best = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json"))).path("best");
    JsonNode gpu = best.path("memory_per_device").path("GPU.1");
    assertEquals(1L << 20, gpu.path("capacity_bytes").asLong(), best.toString());
    assertTrue(gpu.path("total_bytes").asLong() <= 1L << 20, best.toString());
    assertTrue(best.path("memory_capacities").asText().contains("--memory for GPU.1"), best.toString());
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("## Memory per device (best placement)"), report);
    assertTrue(report.contains("| GPU.1 |") && report.contains("| 1.00 MiB |"), report);
  }

  /** Every op of the model on GPU.1, as a placement file. */
  private Path allOnGpu() throws IOException {
    OpGraph g = new IrReader().read(Path.of(MODEL));
    Path file = tmp.resolve("gpu.json");
    PlacementFiles.write(file, g, Placement.allOn(DeviceSet.of("GPU.1"), g.nodeCount(), "GPU.1"));
    return file;
  }

  private static String gpuOnlyReason(Path run) throws IOException {
    JsonNode result = new ObjectMapper().readTree(Files.readAllBytes(run.resolve("result.json")));
    for (JsonNode c : result.path("candidates")) {
      if (c.path("label").asText().equals("GPU.1-only")) {
        return c.path("reason").asText("");
      }
    }
    return "no GPU.1-only candidate in " + result;
  }
}
