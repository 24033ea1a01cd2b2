package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.models.ModelSpec;
import org.hsdag.testkit.SystemErr;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input files: every wrong file is one line on stderr naming it, exit 2, with no
 * Java class names or library text, and nothing printed behind the CLI's back.
 */
class ModelInputErrorsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;
  private Path model;
  private OpGraph graph;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
    graph = TestModels.read(model);
  }

  /** Runs the CLI, also capturing what anything printed to System.err directly. */
  private static CliRun run(String... args) {
    CliRun[] r = new CliRun[1];
    String direct = SystemErr.capture(() -> r[0] = CliRun.of(args));
    assertEquals("", direct, "printed behind the CLI's back");
    return r[0];
  }

  /** Exit 2, one line, "hsdag: FILE...", then {@code expected}; no class names or library text. */
  private static void assertDiagnosis(CliRun r, Path file, String expected) {
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    String line = r.err().strip();
    assertTrue(line.startsWith("hsdag: " + file), line);
    assertTrue(line.contains(expected), line);
    for (String library : new String[] {"java.", "javax.", "Exception", "com.fasterxml", "ParseError",
        "[Fatal Error]"}) {
      assertFalse(line.contains(library), "library text '" + library + "' in: " + line);
    }
  }

  @Test
  void aDirectoryWithoutAModelSaysItIsADirectory() throws IOException {
    // A folder holding one model is that model (ModelSourcesTest).
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    assertDiagnosis(run("inspect", empty.toString()), empty, ": is a directory, not an OpenVINO IR model (.xml)");
  }

  @Test
  void aModelWithNoLayersIsRefusedByEveryCommandAndNothingIsWritten() throws IOException {
    Path empty = Files.writeString(tmp.resolve("empty.xml"),
        "<?xml version=\"1.0\"?>\n<net name=\"empty\" version=\"11\">\n  <layers>\n  </layers>\n  <edges>\n  </edges>\n</net>\n");
    Path out = tmp.resolve("run");
    assertDiagnosis(run("inspect", empty.toString()), empty, ": model has no layers");
    assertDiagnosis(
        run("tune", empty.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--out", out.toString()),
        empty, ": model has no layers");
    assertFalse(Files.exists(out), "nothing written");
    assertDiagnosis(run("plan", empty.toString(), "--backend", "sim", "--devices", "CPU,GPU.1"), empty,
        ": model has no layers");
  }

  @Test
  void randomBytesAreOneLine() throws IOException {
    byte[] noise = new byte[2048];
    new SplittableRandom(15).nextBytes(noise);
    Path f = Files.write(tmp.resolve("noise.xml"), noise);
    assertDiagnosis(run("inspect", f.toString()), f, ": is a binary file, not an OpenVINO IR model (.xml)");
    // An IR with one Latin-1 byte: XML up to there, so the parser would have printed its own line.
    byte[] latin1 = Files.readString(model).replaceFirst("name=\"", "name=\"\u00e9")
        .getBytes(StandardCharsets.ISO_8859_1);
    Path g = Files.write(tmp.resolve("latin1.xml"), latin1);
    assertDiagnosis(run("inspect", g.toString()), g, "invalid UTF-8 byte 0xE9; an OpenVINO IR is UTF-8 text");
  }

  @Test
  void otherFrameworksAreRecognisedWithHowToConvert() throws IOException {
    // ONNX, TensorFlow Lite and PaddlePaddle files the runtime reads itself (ModelSourcesTest, RealOnnxTest).
    Path pb = Files.write(tmp.resolve("graph.pb"), new byte[] {0x0a, 0x12});
    assertDiagnosis(run("tune", pb.toString(), "--backend", "sim", "--out", tmp.resolve("run").toString()), pb,
        ": is a TensorFlow model, not an OpenVINO IR model (.xml); convert it with OpenVINO's converter: ovc " + pb);
    Path pt = Files.write(tmp.resolve("resnet.pt"), new byte[] {'P', 'K', 3, 4, 0});
    assertDiagnosis(run("inspect", pt.toString()), pt, ": is a PyTorch file, not an OpenVINO IR model (.xml); "
        + "PyTorch models convert from Python only: ov.save_model(ov.convert_model(model), \"model.xml\")");
  }

  @Test
  void anInvalidGraphIsOneLineNamingTheLayer() throws IOException {
    String xml = Files.readString(model)
        .replaceFirst("[ \\t]*<edge from-layer=\"[^\"]*\" from-port=\"[^\"]*\" to-layer=\"[^\"]*\" "
            + "to-port=\"1\"/>\\r?\\n", "");
    Path f = Files.writeString(tmp.resolve("dropped.xml"), xml);
    assertDiagnosis(run("inspect", f.toString()), f, "has no incoming edge");
  }

  private Path placement(String name, String json) throws IOException {
    return Files.writeString(tmp.resolve(name), json);
  }

  private Map<String, String> allOn(String device) {
    Map<String, String> m = new LinkedHashMap<>();
    graph.nodes().forEach(n -> m.put(n.name(), device));
    return m;
  }

  @Test
  void applyWithItsArgumentsSwappedSaysSo() throws IOException {
    Path p = placement("best.json", JSON.writeValueAsString(allOn("CPU")));
    CliRun r = run("apply", p.toString(), model.toString(), "--backend", "sim");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals("hsdag: the arguments are swapped: " + p + " is a placement (JSON) and " + model
        + " the model; run: hsdag apply "
        + model + " " + p, r.err().strip());
    // A JSON alone where the model goes is still named for what it is.
    assertDiagnosis(run("inspect", p.toString()), p, ": is a JSON file, not an OpenVINO IR model (.xml)");
  }

  @Test
  void aPlacementOfTheWrongShapeSaysWhatShapeIsExpected() throws IOException {
    Path list = placement("list.json", "[\"CPU\", \"GPU.1\"]");
    assertDiagnosis(run("apply", model.toString(), list.toString(), "--backend", "sim"), list,
        ": holds a JSON list; expected a JSON object {\"<node friendly name>\": \"<device>\", ...}");
    Map<String, Object> numbers = new LinkedHashMap<>(allOn("CPU"));
    numbers.put(graph.node(3).name(), 1);
    Path nonString = placement("numbers.json", JSON.writeValueAsString(numbers));
    assertDiagnosis(run("apply", model.toString(), nonString.toString(), "--backend", "sim"), nonString,
        ": the device of node \"" + graph.node(3).name()
            + "\" is a number (1); expected a device name such as \"GPU.1\"");
  }

  @Test
  void placementFilesTakeTheDeviceSpellingsDevicesTakes() throws IOException {
    Map<String, String> m = new LinkedHashMap<>();
    for (int v = 0; v < graph.nodeCount(); v++) {
      m.put(graph.node(v).name(), v % 2 == 0 ? "gpu.1" : " cpu");
    }
    Path p = placement("lower.json", JSON.writeValueAsString(m));
    CliRun r = run("apply", model.toString(), p.toString(), "--backend", "sim", "--rounds", "1", "--devices",
        "Cpu,gpu.1");
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().contains("HETERO:CPU,GPU.1"), r.out());
  }

  @Test
  void modelsListAndInspectAgreeOnWeightBytes() throws IOException {
    CliRun list = run("models", "list");
    assertEquals(0, list.exitCode(), list.err());
    Path dir = ModelCatalog.modelsDir();
    for (ModelSpec spec : ModelCatalog.all()) {
      long listed = list.out().lines().filter(l -> l.startsWith(spec.name() + " ")).findFirst()
          .map(l -> Long.parseLong(l.trim().split("\\s+", -1)[3].replace(",", ""))).orElseThrow();
      CliRun inspect = run("inspect", "--json", ModelCatalog.xmlPath(dir, spec.name()).toString());
      assertEquals(0, inspect.exitCode(), inspect.err());
      assertEquals(listed, JSON.readTree(inspect.out()).get("constant_bytes").asLong(), spec.name());
    }
  }
}
