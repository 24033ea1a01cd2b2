package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.TinyModels;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;

/**
 * The tiny chain model (IR and weights) damaged in one way each, as users and attackers damage
 * models: what every command that reads it must agree on.
 */
@SuppressWarnings("ImmutableEnumChecker") // the damages are stateless lambdas
enum ModelMutants {
  UNKNOWN_OP_TYPE(true, x -> replaceFirst(x, "type=\"ReLU\"", "type=\"FrobnicateV2\"")), OPSET_99(true,
      x -> replaceFirst(x, "type=\"ReLU\" version=\"opset1\"", "type=\"ReLU\" version=\"opset99\"")), IR_VERSION_7(true,
          x -> replaceFirst(x, "version=\"11\"", "version=\"7\"")), IR_VERSION_99(true,
              x -> replaceFirst(x, "version=\"11\"", "version=\"99\"")), MISSING_BIN(false,
                  x -> Files.delete(IrReader.defaultBinPath(x))), ALL_NAN_BIN(true, x -> {
                    byte[] nan = new byte[(int) Files.size(IrReader.defaultBinPath(x))];
                    Arrays.fill(nan, (byte) 0xff);// NaN in f16, bf16, f32 and f64 alike
                    Files.write(IrReader.defaultBinPath(x), nan);
                  }), ANOTHER_MODELS_BIN(true, x -> {
                    Path other = x.resolveSibling("other").resolve("tiny_two_branch.xml");
                    Files.createDirectories(other.getParent());
                    TinyModels.twoBranch().writeTo(other, 7);
                    Files.copy(IrReader.defaultBinPath(other), IrReader.defaultBinPath(x),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                  }), CONST_OFFSET_MAX(true, x -> replaceFirst(x, "offset=\"0\"", "offset=\"" + Long.MAX_VALUE + "\""));

  /** Changes the model at its XML path. */
  interface Damage {
    void apply(Path xml) throws IOException;
  }

  /** Whether every backend refuses it (a missing .bin only the backends that run the model). */
  final boolean refusedEverywhere;
  private final Damage damage;

  ModelMutants(boolean refusedEverywhere, Damage damage) {
    this.refusedEverywhere = refusedEverywhere;
    this.damage = damage;
  }

  /** Writes the model into {@code dir}, a placement of it all on {@code device}, then damages the model. */
  Written write(Path dir, String device) throws IOException {
    Path xml = dir.resolve("tiny_chain.xml");
    TinyModels.chain().writeTo(xml, 7);
    OpGraph graph = new IrReader().read(xml);
    Path placement = dir.resolve("all-" + device + ".json");
    PlacementFiles.write(placement, graph, Placement.allOn(DeviceSet.of(device), graph.nodeCount(), device));
    damage.apply(xml);
    return new Written(xml, placement);
  }

  record Written(Path xml, Path placement) {}

  private static void replaceFirst(Path xml, String what, String with) throws IOException {
    String text = Files.readString(xml);
    if (!text.contains(what)) {
      throw new IllegalStateException(xml + " has no " + what);
    }
    Files.writeString(xml, text.replaceFirst(java.util.regex.Pattern.quote(what),
        java.util.regex.Matcher.quoteReplacement(with)));
  }

  /** The one-line error a command ended with (its last line on stderr), or "" when it ended well. */
  static String errorLine(CliRun r) {
    if (r.exitCode() == 0) {
      return "";
    }
    return r.err().strip().lines().reduce((a, b) -> b).orElse("");
  }
}
