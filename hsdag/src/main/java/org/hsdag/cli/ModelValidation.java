package org.hsdag.cli;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.ModelFileBinding;
import org.hsdag.ir.ModelCheck;
import org.hsdag.openvino.OpenVinoReadException;

/**
 * {@code inspect --backend}: the checks a command that measures on that backend makes when it reads
 * the model, in the order it makes them ({@link ModelArgument#read}, then {@link TuneBackends#bind}:
 * the weights, then the backend's own read), each problem worded as that command would print it.
 */
final class ModelValidation {
  private ModelValidation() {}

  /**
   * Reads {@code xml} and checks it for the backend {@code options} open; {@code problems} gets each
   * problem, first the one {@code apply} or {@code tune} would stop at (the backend's own read only when
   * the weights pass: it would refuse them too).
   */
  static ModelArgument.Checked withBackend(Path xml, BackendOptions options, InputShapeOptions shapes,
      Consumer<String> problems, Consumer<String> notices) {
    ModelArgument.Checked c = ModelArgument.readLenient(xml, null);
    c.problems().forEach(problems);
    if (!c.problems().isEmpty()) {
      return c; // what every backend refuses: the runtime would refuse it too, and no backend need be opened
    }
    try (LatencyBackend backend = TuneBackends.open(options.request(0, shapes.resolve(c.graph())), notices)) {
      var binding = backend.capability(ModelFileBinding.class);
      if (binding.isEmpty()) {
        return c;
      }
      TuneBackends.ensureCatalogWeights(xml);
      var weights = ModelCheck.problems(c.graph(), xml, TuneBackends.weightsFor(backend),
          ModelArgument.weightsFix(xml));
      weights.forEach(problems);
      String refusal = weights.isEmpty() ? readRefusal(binding.get(), c, xml) : null;
      if (refusal != null) {
        problems.accept(refusal);
      }
    }
    return c;
  }

  /** What the backend's own read of the model says against it, worded as the CLI prints it; null when it reads. */
  private static String readRefusal(ModelFileBinding binding, ModelArgument.Checked c, Path xml) {
    try {
      binding.bindModelFile(c.graph(), xml);
      return null;
    } catch (OpenVinoReadException e) {
      return HsdagCli.openVinoReadLine(e);
    } catch (IllegalStateException e) {
      return e.getMessage();
    }
  }
}
