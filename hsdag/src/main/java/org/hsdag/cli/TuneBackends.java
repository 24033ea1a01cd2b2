package org.hsdag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.ModelFileBinding;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.Weights;
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
   * {@link #open(BackendRequest, Consumer)}, then {@link #bind(LatencyBackend, OpGraph)}: the backend
   * of a command that measures or models {@code graph}, ready for it (closed again when the model's
   * file cannot serve it).
   *
   * @throws UserInputException when the backend compiles the model and its file or weights are missing
   */
  public static LatencyBackend openFor(BackendRequest request, OpGraph graph, Consumer<String> notices) {
    LatencyBackend backend = open(request, notices);
    try {
      bind(backend, graph);
    } catch (RuntimeException e) {
      backend.close();
      throw e;
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
   * model file ({@link ModelFileBinding}) needs its weights.
   *
   * @throws UserInputException when the backend needs the {@code .bin} and it is missing or unreadable
   */
  public static void bind(LatencyBackend backend, OpGraph graph, Path xml) {
    var binding = backend.capability(ModelFileBinding.class);
    if (binding.isPresent()) {
      Path bin = requireWeights(xml,
          "the " + backend.name() + " backend compiles the model and needs it; the sim backend does not");
      requireOwnWeights(graph, xml, bin);
      try {
        binding.get().bindModelFile(graph, xml);
      } catch (IllegalStateException e) {
        // The backend reads and sizes the model when bound: sizes it refuses are the user's to change.
        throw new UserInputException(e.getMessage());
      }
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
    Path bin = IrReader.defaultBinPath(xml);
    try {
      ModelCatalog.ensureWeights(xml, ModelCatalog.DEFAULT_SEED);
    } catch (java.io.IOException e) {
      throw new UserInputException(bin + ": cannot write the catalog model's weights (" + IoErrors.describe(e) + ")");
    }
    if (!Files.isReadable(bin)) {
      throw new UserInputException(
          bin + ": weights file " + (Files.exists(bin) ? "unreadable" : "not found") + " (" + why + ")");
    }
    return bin;
  }

  /**
   * A {@code .bin} longer than every Const region the XML addresses is another model's: OpenVINO
   * would read it without complaint and compute with the wrong numbers, or fail deep in shape
   * inference. (A shorter one is refused when the graph is read.)
   */
  private static void requireOwnWeights(OpGraph graph, Path xml, Path bin) {
    long needed = Weights.requiredBytes(graph);
    long size;
    try {
      size = Files.size(bin);
    } catch (java.io.IOException e) {
      throw new UserInputException(bin + ": weights file unreadable (" + e.getMessage() + ")");
    }
    if (size > needed) {
      throw new UserInputException(bin + " has " + size + " bytes but " + xml.getFileName() + " addresses " + needed
          + ": it holds another model's weights (stand-in weights: "
          + CommandName.line("models", "weights", xml, "--force") + ")");
    }
  }
}
