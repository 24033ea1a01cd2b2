package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.models.ModelCatalog;
import org.hsdag.testkit.RealOpenVino;

/** The small model the real-runtime CLI tests run: skips the test when OpenVINO is absent. */
final class RealTinyModel {
  private RealTinyModel() {}

  /** Requires the real runtime, then writes the bundled tiny_transformer (IR and weights) into {@code dir}. */
  static Path write(Path dir) throws IOException {
    RealOpenVino.require();
    Path model = dir.resolve("tiny_transformer.xml");
    ModelCatalog.get("tiny_transformer").build().writeTo(model, ModelCatalog.DEFAULT_SEED);
    return model;
  }
}
