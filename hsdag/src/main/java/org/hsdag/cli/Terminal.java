package org.hsdag.cli;

import java.io.Console;

/** Whether standard output is an interactive terminal (a progress bar only makes sense there). */
final class Terminal {
  private Terminal() {}

  /**
   * From JDK 22 {@code System.console()} is non-null even when the streams are redirected, and
   * {@code Console.isTerminal()} answers instead (https://errorprone.info/bugpattern/SystemConsoleNull);
   * that method does not exist in Java 17, so it is looked up at run time.
   */
  @SuppressWarnings("SystemConsoleNull") // the null check is what answers before JDK 22
  static boolean isInteractive() {
    Console console = System.console();
    if (console == null || Runtime.version().feature() < 22) {
      return console != null;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      throw new LinkageError("Console.isTerminal() on Java " + Runtime.version(), e);
    }
  }
}
