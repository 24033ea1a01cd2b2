package org.hsdag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.ModelFileBinding;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.ModelCheck;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;

/**
 * How every command opens a backend for a model: from a {@link BackendRequest} seeded by the run
 * (the simulator draws each measurement's noise from that seed and the measurement's key, so a
 * resumed run is exact), and a backend that compiles the model file bound to it.
 */
public final class TuneBackends {
  private TuneBackends() {}

  /** Opens the backend {@code request} asks for; a dynamic model's sizes are announced once through {@code notices}. */
  public static LatencyBackend open(BackendRequest request, Consumer<String> notices) {
    LatencyBackend backend = BackendOptions.open(request, notices);
    String shapeNotice = request.inputShapes().notice();
    if (shapeNotice != null) {
      notices.accept(shapeNotice);
    }
    return backend;
  }

  /**
   * Readies {@code backend} for {@code graph}, read from its {@linkplain OpGraph#source() file}: a
   * backend that compiles the model file ({@link ModelFileBinding}) needs it, weights included.
   *
   * @throws UserInputException when the backend needs a file and the graph has none, or its {@code .bin} is missing
   */
  public static void bind(LatencyBackend backend, OpGraph graph) {
    if (backend.capability(ModelFileBinding.class).isEmpty()) {
      return;
    }
    Path xml = graph.source().orElseThrow(() -> new UserInputException("model " + graph.name()
        + " was built in memory; the " + backend.name() + " backend compiles a model file (write it with 'hsdag "
        + "models build')"));
    bind(backend, graph, xml);
  }

  /**
   * Readies {@code backend} for {@code graph} read from {@code xml}: a backend that compiles the
   * model file ({@link ModelFileBinding}) needs its weights, checked by {@link ModelCheck} as {@code
   * inspect --backend} checks them, then reads the model itself.
   *
   * @throws UserInputException when the backend needs the {@code .bin} and it is missing, unreadable or not the model's
   */
  public static void bind(LatencyBackend backend, OpGraph graph, Path xml) {
    var binding = backend.capability(ModelFileBinding.class);
    if (binding.isPresent()) {
      requireWeights(xml, graph, weightsFor(backend));
      try {
        binding.get().bindModelFile(graph, xml);
      } catch (IllegalStateException e) {
        // The backend reads and sizes the model when bound: sizes it refuses are the user's to change.
        throw new UserInputException(e.getMessage());
      }
    }
  }

  /** What needs the {@code .bin} on {@code backend}, as the missing-weights line says it; null when nothing does. */
  static String weightsFor(LatencyBackend backend) {
    return backend.capability(ModelFileBinding.class).isEmpty() ? null
        : "the " + backend.name() + " backend compiles the model and needs it; the sim backend does not";
  }

  /**
   * {@link #requireWeights(Path, String)}, then every problem {@link ModelCheck} finds with them
   * (another model's, no number in them).
   *
   * @throws UserInputException naming the first problem
   */
  static void requireWeights(Path xml, OpGraph graph, String why) {
    requireWeights(xml, why);
    java.util.List<String> problems = ModelCheck.problems(graph, xml, why, ModelArgument.weightsFix(xml));
    if (!problems.isEmpty()) {
      throw new UserInputException(problems.get(0));
    }
  }

  /**
   * The weights of {@code xml}, which a command that runs the model needs: a bundled catalog model's
   * XML (e.g. {@code models/resnet50/resnet50.xml}, which a bare name like {@code resnet50} resolves
   * to, committed without its {@code .bin}) gets its seeded stand-in weights written first, as
   * {@code hsdag models build} writes them; any other model's must be there.
   *
   * @param why what needs them, said when they are missing
   * @return the {@code .bin} path
   * @throws UserInputException when the {@code .bin} is missing or unreadable, or cannot be written
   */
  public static Path requireWeights(Path xml, String why) {
    Path bin = ensureCatalogWeights(xml);
    if (!Files.isReadable(bin)) {
      throw new UserInputException(
          bin + ": weights file " + (Files.exists(bin) ? "unreadable" : "not found") + " (" + why + ")");
    }
    return bin;
  }

  /**
   * Writes a bundled catalog model's seeded stand-in weights when they are missing; any other model is left alone.
   *
   * @return the {@code .bin} path of {@code xml}
   * @throws UserInputException when they cannot be written
   */
  static Path ensureCatalogWeights(Path xml) {
    Path bin = IrReader.defaultBinPath(xml);
    try {
      ModelCatalog.ensureWeights(xml, ModelCatalog.DEFAULT_SEED);
    } catch (java.io.IOException e) {
      throw new UserInputException(bin + ": cannot write the catalog model's weights (" + IoErrors.describe(e) + ")");
    }
    return bin;
  }
}
