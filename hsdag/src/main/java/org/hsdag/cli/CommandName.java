package org.hsdag.cli;

import org.hsdag.io.Pasteable;

/** How the user runs hsdag, for the commands hsdag prints for them to paste. */
final class CommandName {
  private CommandName() {}

  /** {@code HSDAG_COMMAND} as the launcher sets it ({@code ./hsdag.sh}, or {@code hsdag} once installed). */
  static String current() {
    String c = System.getenv("HSDAG_COMMAND");
    return c == null || c.isBlank() ? "hsdag" : c;
  }

  /** A command line to paste: this hsdag, then {@code args}, every word quoted for the shell. */
  static String line(Object... args) {
    Object[] words = new Object[args.length + 1];
    words[0] = current();
    System.arraycopy(args, 0, words, 1, args.length);
    return Pasteable.shellLine(words);
  }
}
