package org.hsdag.tune;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A run file that hsdag wrote but that no longer reads as written (edited, damaged on disk): bad
 * input, reported with the file and line, never replayed.
 */
public final class DamagedRunFileException extends IOException {
  private static final long serialVersionUID = 1L;

  public DamagedRunFileException(Path file, int line, String problem) {
    super(file + ":" + line + ": " + problem);
  }

  public DamagedRunFileException(Path file, String problem) {
    super(file + ": " + problem);
  }
}
