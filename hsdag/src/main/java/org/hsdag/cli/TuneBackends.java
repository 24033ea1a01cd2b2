package org.hsdag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoBackend;

/**
 * How the tune and apply commands open a backend: through {@link BackendOptions}, seeded by the
 * run (the simulator draws each measurement's noise from that seed and the measurement's key, so
 * a resumed run is exact), and the real backend bound to the model file it compiles.
 */
public final class TuneBackends {
  private TuneBackends() {}

  /**
   * Opens the backend {@code options} name, seeded by {@code seed}, with the model's dynamic inputs
   * sized as {@code shapes} says; a dynamic model's sizes are announced once through {@code notices}.
   */
  public static LatencyBackend open(BackendOptions options, long seed, InputShapeOptions.Resolved shapes,
      List<String> requestedDevices, int minimumDevices, Consumer<String> notices) {
    LatencyBackend backend = options.open(seed, shapes, requestedDevices, minimumDevices, notices);
    String shapeNotice = shapes.resolution().notice();
    if (shapeNotice != null) {
      notices.accept(shapeNotice);
    }
    return backend;
  }

  /**
   * Readies {@code backend} for {@code graph} read from {@code xml}: the real OpenVINO backend
   * compiles the model file and so needs its weights.
   *
   * @throws UserInputException when the backend needs the {@code .bin} and it is missing or unreadable
   */
  public static void bind(LatencyBackend backend, OpGraph graph, Path xml) {
    if (backend instanceof OpenVinoBackend ov) {
      Path bin = IrReader.defaultBinPath(xml);
      if (!Files.isReadable(bin)) {
        throw new UserInputException(bin + ": weights file " + (Files.exists(bin) ? "unreadable" : "not found")
            + " (the openvino backend compiles the model and needs it; the sim backend does not)");
      }
      ov.bind(graph, xml);
    }
  }
}
