package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectCommandTest {
  @Test
  void printsCountsHistogramAndInputs() {
    CliRun r = CliRun.of("inspect", Samples.irSample("resnet-50.xml").toString());
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().contains("nodes / edges  396 / 411"), r.out());
    assertTrue(r.out().contains("Convolution                 53"), r.out());
    assertTrue(r.out().contains("input                          f32    [1,3,224,224]"), r.out());
    assertTrue(r.out().contains("dynamic shapes no"), r.out());
  }

  @Test
  void jsonIsMachineReadable() throws IOException {
    CliRun r = CliRun.of("inspect", "--json", Samples.irSample("distilbert-base-uncased-sst2.xml").toString());
    assertEquals(0, r.exitCode(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(540, j.get("nodes").asInt());
    assertEquals(617, j.get("edges").asInt());
    assertEquals(13, j.get("op_types").get("MVN").asInt());
    assertTrue(j.get("dynamic_shapes").asBoolean());
    assertEquals(2, j.get("parameters").size());
  }

  /** A name of a million characters is the model's business; the terminal gets its start and its length. */
  @Test
  void aHugeNameIsClippedInTheTextAndKeptInTheJson(@TempDir Path dir) throws IOException {
    Path model = org.hsdag.tune.TestModels.chain(dir);
    String huge = "n".repeat(1_000_000);
    Path big = Files.writeString(dir.resolve("big.xml"), Files.readString(model).replaceFirst("<net name=\"[^\"]*\"",
        "<net name=\"" + huge + "\""));
    CliRun r = CliRun.of("inspect", big.toString());
    assertEquals(0, r.exitCode(), r.err());
    String line = r.out().lines().filter(l -> l.startsWith("model")).findFirst().orElseThrow();
    assertTrue(line.length() < 200 && line.contains("(1,000,000 characters)"),
        line.substring(0, Math.min(300, line.length())));
    CliRun json = CliRun.of("inspect", "--json", big.toString());
    assertEquals(huge, new ObjectMapper().readTree(json.out()).get("name").asText());
  }

  @Test
  void anIrVersionOpenVinoCannotReadIsRefusedByInspectAndPlanAlike(@TempDir Path dir) throws IOException {
    Path model = org.hsdag.tune.TestModels.chain(dir);
    Path v99 = Files.writeString(dir.resolve("v99.xml"),
        Files.readString(model).replaceFirst("version=\"11\"", "version=\"99\""));
    CliRun inspect = CliRun.of("inspect", v99.toString());
    assertEquals(ExitCodes.BAD_INPUT, inspect.exitCode(), inspect.out() + inspect.err());
    assertTrue(inspect.err().startsWith("hsdag: " + v99 + ": IR version 99, which OpenVINO"), inspect.err());
    CliRun plan = CliRun.of("plan", v99.toString(), "--backend", "sim", "--devices", "CPU,GPU.1");
    assertEquals(ExitCodes.BAD_INPUT, plan.exitCode(), plan.err());
    assertEquals(inspect.err(), plan.err());
  }

  @Test
  void badInputExitsTwoWithOneLine(@TempDir Path dir) throws IOException {
    CliRun missing = CliRun.of("inspect", dir.resolve("none.xml").toString());
    assertEquals(ExitCodes.BAD_INPUT, missing.exitCode());
    assertEquals(1, missing.err().strip().lines().count(), missing.err());
    assertTrue(missing.err().contains("model file not found"), missing.err());

    Path broken = dir.resolve("broken.xml");
    Files.writeString(broken, "<net version=\"11\"><layers><layer id=\"0\" type=\"ReLU\"></layers></net>");
    CliRun bad = CliRun.of("inspect", broken.toString());
    assertEquals(ExitCodes.BAD_INPUT, bad.exitCode());
    assertTrue(bad.err().startsWith("hsdag: " + broken + ":1: malformed XML"), bad.err());
  }

  @Test
  void unknownOptionIsUsageError() {
    CliRun r = CliRun.of("inspect", "--frobnicate", "m.xml");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode());
    assertTrue(r.err().startsWith("hsdag: Unknown option: '--frobnicate' (try 'hsdag inspect --help')"), r.err());
  }

  /** Weights are counted from the constants; without a .bin beside the IR the line does not claim one. */
  @Test
  void weightsWithoutABinDoNotClaimOne(@TempDir Path dir) throws IOException {
    Path xml = org.hsdag.tune.TestModels.twoBranch(dir);
    Files.deleteIfExists(xml.resolveSibling(xml.getFileName().toString().replace(".xml", ".bin")));
    CliRun r = CliRun.of("inspect", xml.toString());
    assertEquals(0, r.exitCode(), r.err());
    String weights = r.out().lines().filter(l -> l.startsWith("weights")).findFirst().orElseThrow();
    assertTrue(weights.contains("no .bin beside the model") && !weights.contains("of .bin"), weights);
  }
}
