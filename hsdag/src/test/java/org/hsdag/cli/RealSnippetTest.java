package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.SyntheticWeights;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.testkit.Samples;
import org.hsdag.testkit.TinyT5;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python {@code apply} prints runs, as printed, with the OpenVINO wheel hsdag was built against: on
 * a dynamic decoder whose input op names are not its tensor names and whose reshape adds ops the
 * placement file cannot name, and on a dynamic encoder; under both objectives. Its outputs match the
 * model's on CPU alone.
 */
@Tag("openvino")
class RealSnippetTest {
  private static final String[] REAL = {"--backend", "openvino", "--test-device", "CPU2:precision=f32", "--rounds",
      "1"};

  @TempDir
  Path tmp;

  @Test
  void theDecodersSnippetReshapesByTensorNameAndPlacesTheOpsReshapingAdds() throws Exception {
    Path python = RealOpenVino.python();
    Path xml = tmp.resolve("dynamic_decoder.xml");
    Path generator = resource("dynamic_decoder.py");
    Process p = new ProcessBuilder(python.toString(), generator.toString(), xml.toString()).redirectErrorStream(true)
        .start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, log);
    Path split = halfSplit(xml);
    String snippet = applySnippet(xml, split, "--input-shape", "encoder_hidden_states=1,8,16");
    assertTrue(snippet.contains("\"encoder_attention_mask\": [1, 8]") && !snippet.contains("\"attention_mask\""),
        snippet);
    assertTrue(snippet.contains("\"PERFORMANCE_HINT\": \"LATENCY\""), snippet);
    runs(python, snippet);
    String throughput = applySnippet(xml, split, "--input-shape", "encoder_hidden_states=1,8,16", "--objective",
        "throughput");
    assertTrue(throughput.contains("\"PERFORMANCE_HINT\": \"THROUGHPUT\"") && throughput.contains("AsyncInferQueue"),
        throughput);
    runs(python, throughput);
  }

  @Test
  void aDynamicEncodersSnippetRuns() throws Exception {
    Path python = RealOpenVino.python();
    Path xml = tmp.resolve("distilbert-base-uncased-sst2.xml");
    Files.copy(Samples.irSample("distilbert-base-uncased-sst2.xml"), xml);
    SyntheticWeights.write(new IrReader().read(xml), 1, IrReader.defaultBinPath(xml));
    runs(python, applySnippet(xml, halfSplit(xml)));
  }

  /**
   * A T5 encoder planned on the real backend with both devices capped at seven tenths of what the model needs:
   * neither holds it alone, so the plan is a split whatever this machine's timings; it fits both caps, and the
   * runtime compiles and infers it, through {@code apply} and through the printed snippet (the planners never
   * propose a split the runtime refuses: every priced cut of a T5 was once refused and "no placement fits").
   */
  @Test
  void aT5EncoderPlannedUnderCapsOnBothDevicesIsASplitTheRuntimeCompilesAndInfers() throws Exception {
    Path python = RealOpenVino.python();
    TinyT5.write(tmp);
    Path xml = tmp.resolve("encoder_model.xml");
    Path plan = tmp.resolve("encoder.plan.json");
    JsonNode alone = planJson(xml, "--memory", "CPU=64GiB,CPU2=64GiB").get("best").get("memory_per_device");
    // The free plan is one device on most machines; summed, a split's use is no less than the model's weights.
    long whole = alone.get("CPU").get("total_bytes").asLong() + alone.get("CPU2").get("total_bytes").asLong();
    long cap = whole * 7 / 10;
    JsonNode capped = planJson(xml, "--memory", "CPU=" + cap + ",CPU2=" + cap, "-o", plan.toString());
    JsonNode use = capped.get("best").get("memory_per_device");
    for (String d : new String[] {"CPU", "CPU2"}) {
      assertTrue(use.get(d).get("total_bytes").asLong() <= cap, d + ": " + use);
    }
    // Caps a one-device cap's plan used, at which every priced cut was refused on one machine's timings.
    JsonNode tight = planJson(xml, "--memory", "CPU=50719,CPU2=37346").get("best").get("memory_per_device");
    assertTrue(tight.get("CPU").get("total_bytes").asLong() <= 50719
        && tight.get("CPU2").get("total_bytes").asLong() <= 37346, tight.toString());
    int[] opsPerDevice = PlacementFiles.read(plan, new IrReader().read(xml), DeviceSet.of("CPU", "CPU2"))
        .countsPerDevice();
    assertTrue(opsPerDevice[0] > 0 && opsPerDevice[1] > 0, "a split: " + Arrays.toString(opsPerDevice));
    CliRun a = CliRun.of("apply", xml.toString(), plan.toString(), "--backend", "openvino", "--test-device",
        "CPU2:precision=f32", "--devices", "CPU,CPU2", "--rounds", "1");
    assertEquals(ExitCodes.OK, a.exitCode(), a.out() + a.err());
    assertFalse(a.out().contains("failed") || a.out().contains("refused"), a.out());
    runs(python, applySnippet(xml, plan));
  }

  private static JsonNode planJson(Path xml, String... more) throws IOException {
    List<String> args = new ArrayList<>(List.of("plan", xml.toString(), "--backend", "openvino", "--test-device",
        "CPU2:precision=f32", "--devices", "CPU,CPU2", "--json"));
    args.addAll(List.of(more));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
  }

  /** The first half of the ops (in topological order) on CPU, the rest on CPU2, as HETERO places constants. */
  private Path halfSplit(Path xml) throws IOException {
    OpGraph g = new IrReader().read(xml);
    int[] topo = g.topologicalOrder();
    int[] device = new int[g.nodeCount()];
    for (int r = topo.length / 2; r < topo.length; r++) {
      device[topo[r]] = 1;
    }
    Path split = tmp.resolve("split.json");
    DeviceSet ds = DeviceSet.of("CPU", "CPU2");
    PlacementFiles.write(split, g, new HeteroAffinity(g).resolvedPlacement(new Placement(ds, device)));
    return split;
  }

  /** apply's Python lines, as a user copies the block (its indentation removed). */
  private static String applySnippet(Path xml, Path placement, String... more) {
    List<String> args = new ArrayList<>(List.of("apply", xml.toString(), placement.toString()));
    args.addAll(List.of(REAL));
    args.addAll(List.of(more));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    List<String> lines = r.out().lines().toList();
    int from = -1;
    int to = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("  Python (")) {
        from = i + 1;
      } else if (from >= 0 && to < 0 && lines.get(i).startsWith("  Java (")) {
        to = i;
      }
    }
    assertTrue(from > 0 && to > from, r.out());
    StringBuilder code = new StringBuilder();
    for (String line : lines.subList(from, to)) {
      assertTrue(line.startsWith(PythonSnippet.INDENT), line);
      code.append(line.substring(PythonSnippet.INDENT.length())).append('\n');
    }
    return code.toString();
  }

  /** Runs {@code snippet} and the output check after it; it must exit 0 and its outputs match CPU alone. */
  private void runs(Path python, String snippet) throws Exception {
    Path script = tmp.resolve("snippet.py");
    Files.writeString(script, snippet + Files.readString(resource("check_outputs.py")));
    Process p = new ProcessBuilder(python.toString(), script.toString()).redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the snippet did not finish: " + log);
    assertEquals(0, p.exitValue(), snippet + "\n" + log);
    assertTrue(log.contains("SNIPPET_OK") && log.contains("CPU2"), log);
    assertFalse(log.contains("Traceback"), log);
  }

  private Path resource(String name) throws IOException {
    Path file = tmp.resolve(name);
    try (InputStream in = RealSnippetTest.class.getResourceAsStream("/snippets/" + name)) {
      Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    return file;
  }
}
