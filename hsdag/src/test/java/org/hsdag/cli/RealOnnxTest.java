package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.tune.RunManifest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ONNX file ({@code onnx/tiny_inception.onnx}, written by the onnx package's own writer; how is in
 * {@code tiny_inception.py} beside it) given to hsdag as it is: converted through the provisioned runtime in one
 * command, tuned on the real backend, its best placement and a split applied, and {@code apply}'s Python run in
 * the wheel's Python against the ONNX file itself. hsdag's IR of it is byte for byte the one the wheel writes from
 * the same file, and tunes exactly as that IR does.
 */
@Tag("openvino")
class RealOnnxTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] REAL = {"--backend", "openvino", "--test-device", "CPU2:precision=f32", "--devices",
      "CPU,CPU2"};

  @TempDir
  Path tmp;

  @Test
  void anOnnxModelTunesInOneCommandAndItsPlacementsApplyToTheOnnxFile() throws Exception {
    Path python = RealOpenVino.python();
    Path onnx = resource("onnx/tiny_inception.onnx");
    Path run = tmp.resolve("run");
    CliRun tune = CliRun.of(args(List.of("tune", onnx.toString(), "--budget", "6", "--out", run.toString())));
    assertEquals(ExitCodes.OK, tune.exitCode(), tune.out() + tune.err());
    assertTrue(tune.err().lines().filter(l -> l.contains(onnx.toAbsolutePath() + " (ONNX, SHA-256 ")).count() == 1,
        "one line says which IR stands for the file: " + tune.err());
    assertTrue(tune.out().contains("next: hsdag apply " + onnx + " " + run.resolve("best.json")), tune.out());
    RunManifest mf = RunManifest.read(run);
    assertEquals(RunManifest.sha256(onnx), mf.source().sha256());
    assertEquals("ONNX", mf.source().format());
    assertTrue(mf.modelPath().endsWith(".xml") && !mf.modelPath().startsWith(tmp.toString()), mf.modelPath());

    // The run's best placement, and a split of the same model, each used as apply prints it, on the .onnx file.
    runs(python, snippet(onnx, run.resolve("best.json")), onnx);
    OpGraph g = new IrReader().read(Path.of(mf.modelPath()));
    String split = runs(python, snippet(onnx, halfSplit(g)), onnx);
    assertTrue(split.contains("CPU2"), "the split ran on both devices: " + split);
  }

  @Test
  void hsdagsIrIsTheOneTheWheelWritesAndTunesAlike() throws Exception {
    Path python = RealOpenVino.python();
    Path onnx = resource("onnx/tiny_inception.onnx");
    Path wheels = tmp.resolve("wheel/tiny_inception.xml");
    Files.createDirectories(wheels.getParent());
    // A fresh process, as hsdag converts: ops the file leaves unnamed get the same numbers.
    exec(python.toString(), "-c", "import sys, openvino as ov; ov.serialize(ov.Core().read_model(sys.argv[1]), "
        + "sys.argv[2], sys.argv[3])", onnx.toString(), wheels.toString(), IrReader.defaultBinPath(wheels).toString());
    List<String> notices = new ArrayList<>();
    Path hsdags = ModelArgument.resolve(onnx, notices::add);
    assertEquals(1, notices.size(), notices.toString());
    assertEquals(-1, Files.mismatch(hsdags, wheels), "the IR XML differs from the wheel's");
    assertEquals(-1, Files.mismatch(IrReader.defaultBinPath(hsdags), IrReader.defaultBinPath(wheels)));

    String[] sim = {"--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "12", "--seed", "5", "--quiet"};
    Path fromOnnx = tmp.resolve("from-onnx");
    Path fromIr = tmp.resolve("from-ir");
    CliRun a = CliRun.of(args(List.of("tune", onnx.toString(), "--out", fromOnnx.toString()), sim));
    CliRun b = CliRun.of(args(List.of("tune", wheels.toString(), "--out", fromIr.toString()), sim));
    assertEquals(ExitCodes.OK, a.exitCode(), a.err());
    assertEquals(ExitCodes.OK, b.exitCode(), b.err());
    assertEquals(Files.readString(fromIr.resolve("best.json")), Files.readString(fromOnnx.resolve("best.json")));
    JsonNode ra = JSON.readTree(fromOnnx.resolve("result.json").toFile());
    JsonNode rb = JSON.readTree(fromIr.resolve("result.json").toFile());
    for (String field : new String[] {"decision", "best", "candidates", "measurements"}) {
      assertEquals(rb.get(field), ra.get(field), field);
    }
  }

  @Test
  void aFileTheReaderRefusesIsOneLineWithItsReason() throws IOException {
    byte[] noise = new byte[300];
    new java.util.SplittableRandom(3).nextBytes(noise);
    Path tflite = Files.write(tmp.resolve("broken.tflite"), noise);
    CliRun r = CliRun.of("inspect", tflite.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("hsdag: " + tflite + ": OpenVINO ")
        && r.err().contains("cannot read this TensorFlow Lite model: "), r.err());
    assertFalse(r.err().contains("Exception from"), r.err());
  }

  private static String[] args(List<String> head, String... more) {
    List<String> all = new ArrayList<>(head);
    all.addAll(List.of(more.length == 0 ? REAL : more));
    return all.toArray(String[]::new);
  }

  /** The first half of the ops (in topological order) on CPU, the rest on CPU2, as HETERO places constants. */
  private Path halfSplit(OpGraph g) throws IOException {
    int[] topo = g.topologicalOrder();
    int[] device = new int[g.nodeCount()];
    for (int r = topo.length / 2; r < topo.length; r++) {
      device[topo[r]] = 1;
    }
    Path split = tmp.resolve("split.json");
    PlacementFiles.write(split, g, new HeteroAffinity(g).resolvedPlacement(new Placement(DeviceSet.of("CPU",
        "CPU2"), device)));
    return split;
  }

  /** apply's Python lines for {@code placement} on the ONNX file, as a user copies the block. */
  private static String snippet(Path onnx, Path placement) {
    CliRun r = CliRun.of(args(List.of("apply", onnx.toString(), placement.toString(), "--rounds", "1")));
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    List<String> lines = r.out().lines().toList();
    int from = lines.indexOf("  Python (any OpenVINO with HETERO; every op needs an affinity):") + 1;
    int to = lines.indexOf("  Java (hsdag's openvino backend, where the OpenVINO runtime is installed):");
    assertTrue(from > 0 && to > from, r.out());
    StringBuilder code = new StringBuilder();
    for (String line : lines.subList(from, to)) {
      code.append(line.substring(PythonSnippet.INDENT.length())).append('\n');
    }
    return code.toString();
  }

  /** Runs the snippet and the output check after it: it reads the ONNX file and matches CPU alone. */
  private String runs(Path python, String snippet, Path onnx) throws Exception {
    assertTrue(snippet.contains("model = core.read_model(\"" + onnx + "\")"), snippet);
    Path script = tmp.resolve("snippet.py");
    Files.writeString(script, snippet + Files.readString(resource("snippets/check_outputs.py")));
    String log = exec(python.toString(), script.toString());
    assertTrue(log.contains("SNIPPET_OK"), snippet + "\n" + log);
    return log;
  }

  private static String exec(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "did not finish: " + log);
    assertEquals(0, p.exitValue(), log);
    return log;
  }

  private Path resource(String name) throws IOException {
    Path file = tmp.resolve(Path.of(name).getFileName());
    try (InputStream in = RealOnnxTest.class.getResourceAsStream("/" + name)) {
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
    return file;
  }
}
