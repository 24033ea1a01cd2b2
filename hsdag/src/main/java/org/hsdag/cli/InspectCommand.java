package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.hsdag.ir.IrException;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.ir.Shapes;
import org.hsdag.ir.Weights;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hsdag inspect model.xml}: what is in an IR, at a glance. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = {"Print IR version, node/edge counts, op-type histogram, inputs/outputs and constant bytes.",
        "Runs the checks apply, tune and plan run when they read the model, and refuses it as they would (exit 2); "
            + "--backend adds that backend's own (openvino: the .bin and OpenVINO's reader)."})
public final class InspectCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "MODEL.xml",
      description = "OpenVINO IR model (.xml; the .bin is optional unless --backend runs the model), or an ONNX, "
          + "TensorFlow Lite or PaddlePaddle file (converted through OpenVINO)")
  Path model;

  @Option(names = "--json", description = "Print machine-readable JSON instead of text.")
  boolean json;

  @Option(names = "--lenient",
      description = "Show the model even when a command would refuse it, with one warning line per problem (exit 0).")
  boolean lenient;

  @Mixin
  BackendOptions backendOptions = new BackendOptions();

  @Mixin
  InputShapeOptions inputShapeOptions = new InputShapeOptions();

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    model = ModelArgument.resolve(model, notice -> err.println("hsdag: " + notice));
    ModelArgument.Checked checked;
    List<String> problems = new ArrayList<>();
    if (spec.commandLine().getParseResult().hasMatchedOption("--backend")) {
      checked = ModelValidation.withBackend(model, backendOptions, inputShapeOptions, problems::add,
          notice -> err.println("hsdag: " + notice));
    } else {
      checked = ModelArgument.readLenient(model, null);
      problems.addAll(checked.problems());
    }
    if (!problems.isEmpty() && !lenient) {
      throw new IrException(problems.get(0));
    }
    Map<String, Object> summary = summarize(checked.graph());
    summary.put("problems", problems);
    if (json) {
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(summary));
    } else {
      printText(out, summary, hasBin(model));
      problems.forEach(p -> out.println("warning: " + clip(p, 400)));
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** The inspect summary as an ordered map (the JSON form). */
  public static Map<String, Object> summarize(OpGraph g) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("name", g.name());
    s.put("ir_version", g.irVersion());
    s.put("nodes", g.nodeCount());
    s.put("edges", g.edgeCount());
    s.put("average_degree", g.nodeCount() == 0 ? 0.0 : 2.0 * g.edgeCount() / g.nodeCount());
    Map<String, Integer> hist = new TreeMap<>();
    boolean dynamic = false;
    List<Map<String, Object>> params = new ArrayList<>();
    List<Map<String, Object>> results = new ArrayList<>();
    for (OpNode n : g.nodes()) {
      hist.merge(n.type(), 1, Integer::sum);
      for (Port p : n.outputs()) {
        dynamic |= p.isDynamic();
      }
      if (n.isParameter()) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("name", n.name());
        p.put("element_type", n.attribute("element_type"));
        p.put("shape", n.attribute("shape") != null ? n.attribute("shape")
            : n.outputs().isEmpty() ? "" : Shapes.format(n.outputs().get(0).dims()));
        params.add(p);
      } else if (n.isResult()) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", n.name());
        Port in = n.inputs().isEmpty() ? null : n.inputs().get(0);
        r.put("element_type", in == null || in.elementType() == null ? null : in.elementType().irName());
        r.put("shape", in == null ? "" : Shapes.format(in.dims()));
        results.add(r);
      }
    }
    s.put("op_types", hist);
    s.put("parameters", params);
    s.put("results", results);
    s.put("constant_bytes", Weights.usedBytes(g));
    s.put("dynamic_shapes", dynamic);
    return s;
  }

  private static final int MAX_SHOWN = 120;

  /** Whether the IR's weights file is beside it (OpenVINO's convention: the same name with .bin). */
  static boolean hasBin(Path xml) {
    String name = xml.getFileName().toString();
    return java.nio.file.Files.isRegularFile(xml.resolveSibling(name.replaceFirst("(?i)\\.xml$", "") + ".bin"));
  }

  @SuppressWarnings("unchecked")
  private static void printText(PrintWriter out, Map<String, Object> s, boolean bin) {
    out.printf("model          %s%n", clip(s.get("name")));
    out.printf("IR version     %s%n", s.get("ir_version"));
    out.printf("nodes / edges  %s / %s (average degree %.2f)%n", s.get("nodes"), s.get("edges"),
        (Double) s.get("average_degree"));
    out.printf("weights        %,d bytes %s (constants that share bytes count once)%n", (Long) s.get("constant_bytes"),
        bin ? "of .bin" : "declared by the constants; no .bin beside the model ('hsdag models weights' writes one)");
    out.printf("dynamic shapes %s%n", (Boolean) s.get("dynamic_shapes") ? "yes" : "no");
    out.println("inputs:");
    for (Map<String, Object> p : (List<Map<String, Object>>) s.get("parameters")) {
      out.printf("  %-30s %-6s [%s]%n", clip(p.get("name")), p.get("element_type"), clip(p.get("shape")));
    }
    out.println("outputs:");
    for (Map<String, Object> r : (List<Map<String, Object>>) s.get("results")) {
      out.printf("  %-30s %-6s [%s]%n", clip(r.get("name")), r.get("element_type"), clip(r.get("shape")));
    }
    out.println("op types:");
    Map<String, Integer> hist = (Map<String, Integer>) s.get("op_types");
    hist.entrySet().stream()
        .sorted((a, b) -> b.getValue() != a.getValue().intValue() ? b.getValue() - a.getValue()
            : a.getKey().compareTo(b.getKey()))
        .forEach(e -> out.printf("  %-24s %5d%n", clip(e.getKey()), e.getValue()));
  }

  /** A name as the terminal shows it: a name of any length stays one readable line (the JSON keeps it whole). */
  private static String clip(Object value) {
    return clip(value, MAX_SHOWN);
  }

  private static String clip(Object value, int max) {
    String text = String.valueOf(value);
    return text.length() <= max ? text
        : String.format(Locale.ROOT, "%s… (%,d characters)", text.substring(0, max - 40), text.length());
  }
}
