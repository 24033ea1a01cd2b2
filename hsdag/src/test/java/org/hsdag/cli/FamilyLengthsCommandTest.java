package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.testkit.DynamicIrs;
import org.hsdag.tune.RunManifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --sequence-length} and {@code --past-length} on the commands: they size a model's whole
 * input family (token ids and masks, KV caches found from their attention), a named size wins, the
 * simulator keeps its per-tensor bound, and a tune records them, keeps them on resume and in its
 * suggestions.
 */
class FamilyLengthsCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  private Path model;

  @BeforeEach
  void writeModel() {
    DynamicIrs.write(tmp, "renamed_kv_cache", DynamicIrs.renamedKvCache());
    model = tmp.resolve("renamed_kv_cache.xml");
  }

  private CliRun plan(String... more) {
    List<String> args = new ArrayList<>(List.of("plan", model.toString(), "--backend", "sim", "--devices",
        "CPU,GPU.1"));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static List<String> inputs(CliRun r) throws Exception {
    List<String> in = new ArrayList<>();
    JsonNode plan = JSON.readTree(r.out());
    plan.get("dynamic_inputs").forEach(n -> in.add(n.asText()));
    return in;
  }

  @Test
  void theLengthsSizeTheFamilyAndANamedSizeWins() throws Exception {
    CliRun sized = plan("--sequence-length", "6", "--past-length", "16");
    assertEquals(ExitCodes.OK, sized.exitCode(), sized.err());
    assertTrue(sized.err().contains("2 KV-cache inputs took the past length 16") && sized.err().contains(
        "2 cross-attention caches took the encoder's length 6 ('Parameter_0')"), sized.err());
    assertTrue(sized.out().contains("--sequence-length 6 --past-length 16"), "the next: line keeps them: "
        + sized.out());
    CliRun json = plan("--sequence-length", "6", "--past-length", "16", "--json", "--input-shape",
        "Parameter_4=1,4,3,8");
    assertEquals(ExitCodes.OK, json.exitCode(), json.err());
    assertEquals(List.of("Parameter_0=1x6", "Parameter_1=1x4x1x8", "Parameter_2=1x4x6x8", "Parameter_3=1x4x6x8",
        "Parameter_4=1x4x3x8", "Parameter_5=1x4x16x8"), inputs(json));
  }

  @Test
  void aLengthBelowOneAndSizesBeyondTheSimulatorsBoundAreOneLineErrors() {
    CliRun zero = plan("--sequence-length", "0");
    assertEquals(ExitCodes.BAD_INPUT, zero.exitCode(), zero.err());
    assertEquals(List.of("hsdag: --sequence-length must be at least 1 (got 0)"), zero.err().lines().toList());
    CliRun huge = plan("--past-length", Long.toString(1L << 35));
    assertEquals(ExitCodes.BAD_INPUT, huge.exitCode(), huge.err());
    assertEquals(1, huge.err().lines().filter(l -> l.startsWith("hsdag:")).count(), huge.err());
    assertTrue(huge.err().contains("more than 2^36 elements") && huge.err().contains("(the simulator's bound)"),
        huge.err());
  }

  @Test
  void aTuneRecordsTheLengthsAndAResumeKeepsThem() throws Exception {
    Path out = tmp.resolve("run");
    CliRun tune = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "2",
        "--sequence-length", "6", "--past-length", "16", "--out", out.toString());
    assertEquals(ExitCodes.OK, tune.exitCode(), tune.err());
    RunManifest mf = RunManifest.read(out);
    assertEquals(6, mf.sequenceLength());
    assertEquals(16, mf.pastLength());
    assertTrue(mf.dynamicInputs().contains("Parameter_4=1x4x16x8"), mf.dynamicInputs().toString());
    assertTrue(tune.out().contains("--sequence-length 6 --past-length 16"), "the next: line keeps them: "
        + tune.out());
    CliRun other = CliRun.of("tune", "--resume", "--out", out.toString(), "--past-length", "32", "--budget", "3");
    assertEquals(ExitCodes.BAD_INPUT, other.exitCode(), other.err());
    assertTrue(
        other.err().contains("this run measures with --past-length 16; it cannot continue with --past-length 32"),
        other.err());
  }
}
