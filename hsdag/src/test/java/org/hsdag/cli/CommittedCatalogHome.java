package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.ir.IrReader;
import org.hsdag.models.ModelCatalog;

/**
 * A temporary {@code hsdag.home} holding one catalog model's XML alone, as the repository commits it
 * (no weights), for the commands that must write the stand-in weights before compiling. Closing it
 * restores the previous {@code hsdag.home}.
 */
public final class CommittedCatalogHome implements AutoCloseable {
  private final String previousHome;
  private final Path bin;

  private CommittedCatalogHome(String previousHome, Path bin) {
    this.previousHome = previousHome;
    this.bin = bin;
  }

  /** Writes {@code model}'s XML under {@code home}/models and points {@code hsdag.home} at {@code home}. */
  public static CommittedCatalogHome at(Path home, String model) throws IOException {
    Path xml = ModelCatalog.xmlPath(home.resolve("models"), model);
    Files.createDirectories(xml.getParent());
    Files.writeString(xml, ModelCatalog.get(model).build().xml());
    return new CommittedCatalogHome(System.setProperty("hsdag.home", home.toString()), IrReader.defaultBinPath(xml));
  }

  /** Where the model's weights belong (absent until a command writes them). */
  public Path bin() {
    return bin;
  }

  @Override
  public void close() {
    if (previousHome == null) {
      System.clearProperty("hsdag.home");
    } else {
      System.setProperty("hsdag.home", previousHome);
    }
  }
}
