package org.hsdag.ir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.io.IoErrors;

/**
 * Every check a model gets when a command reads it, in one place, so that {@code inspect} and the
 * commands that run the model ({@code apply}, {@code tune}, {@code plan}) can never disagree: an IR
 * version, an opset or an op type OpenVINO's reader does not know ({@link OpenVinoOpsets}), and
 * weights that are not the model's own (too short, too long, no number in any floating-point
 * constant). A missing {@code .bin} is a problem only for a backend that runs the model.
 */
public final class ModelCheck {
  /** The IR versions OpenVINO 2026's reader reads; it refuses every other one. */
  public static final int OLDEST_IR = 10;
  public static final int NEWEST_IR = 11;

  private ModelCheck() {}

  /**
   * The problems of {@code graph} read from {@code xml}, first the one a command reports.
   *
   * @param weightsFor what needs the {@code .bin} (said when it is missing), or null when nothing runs the model
   * @param weightsFix the command that writes stand-in weights, said with weights that are not the model's own
   */
  public static List<String> problems(OpGraph graph, Path xml, String weightsFor, String weightsFix) {
    List<String> problems = new ArrayList<>();
    int v = graph.irVersion();
    if (v < OLDEST_IR || v > NEWEST_IR) {
      problems.add(xml + ": IR version " + v + ", which OpenVINO " + OpenVinoOpsets.RUNTIME + " cannot read (it reads "
          + "versions " + OLDEST_IR + " and " + NEWEST_IR + "; convert the model again with a current OpenVINO)");
    }
    for (OpNode n : graph.nodes()) {
      String why = OpenVinoOpsets.refusal(n.type(), n.version());
      if (why != null) {
        problems.add(xml + ": layer id=" + shown(n.id()) + " '" + shown(n.name()) + "' " + why);
      }
    }
    weightProblems(graph, xml, weightsFor, weightsFix, problems);
    return problems;
  }

  /**
   * Throws the first of {@link #problems}.
   *
   * @throws IrException naming the first problem
   */
  public static void require(OpGraph graph, Path xml, String weightsFor, String weightsFix) {
    List<String> p = problems(graph, xml, weightsFor, weightsFix);
    if (!p.isEmpty()) {
      throw new IrException(p.get(0));
    }
  }

  /** A name as an error line shows it: a name of any length keeps the line readable. */
  private static String shown(String name) {
    return name == null || name.length() <= 120 ? name
        : name.substring(0, 80) + "… (" + name.length() + " characters)";
  }

  private static void weightProblems(OpGraph graph, Path xml, String weightsFor, String fix, List<String> problems) {
    Path bin = IrReader.defaultBinPath(xml);
    long needed = Weights.requiredBytes(graph);
    if (!Files.isRegularFile(bin)) {
      if (weightsFor != null && needed > 0) {
        problems.add(bin + ": weights file " + (Files.exists(bin) ? "unreadable" : "not found") + " (" + weightsFor
            + ")");
      }
      return;
    }
    try {
      Weights.checkRegions(graph, bin, xml.toString());
    } catch (IrException e) {
      problems.add(e.getMessage());
      return;
    }
    long size;
    try {
      size = Files.size(bin);
    } catch (IOException e) {
      problems.add(bin + ": cannot read weights (" + IoErrors.reason(e) + ")");
      return;
    }
    // A longer .bin reads without complaint and computes with the wrong numbers, or fails deep in shape inference.
    if (size > needed) {
      problems.add(bin + " has " + size + " bytes but " + xml.getFileName() + " addresses " + needed
          + ": it holds another model's weights (stand-in weights: " + fix + ")");
      return;
    }
    String nan = WeightValues.noNumbers(graph, xml);
    if (nan != null) {
      problems.add(bin + ": " + nan + ": these are no model's weights (stand-in weights: " + fix + ")");
    }
  }
}
