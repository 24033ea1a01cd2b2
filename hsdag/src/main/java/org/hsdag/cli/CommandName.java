package org.hsdag.cli;

/** How the user runs hsdag, for the commands hsdag prints for them to paste. */
final class CommandName {
  private CommandName() {}

  /** {@code HSDAG_COMMAND} as the launcher sets it ({@code ./hsdag.sh}, or {@code hsdag} once installed). */
  static String current() {
    String c = System.getenv("HSDAG_COMMAND");
    return c == null || c.isBlank() ? "hsdag" : c;
  }
}
