package org.hsdag.cli;

/** Process exit codes of every hsdag command (design §8). */
public final class ExitCodes {
  /** Success. */
  public static final int OK = 0;
  /** A failure while running: a backend error, an I/O error, an internal error. */
  public static final int FAILURE = 1;
  /** Bad usage or bad input: unknown option, missing or malformed model, invalid placement. */
  public static final int BAD_INPUT = 2;
  /** Interrupted (Ctrl-C, SIGTERM) after saving what is needed to continue: 128 + SIGINT, as shells report it. */
  public static final int INTERRUPTED = 130;

  private ExitCodes() {}
}
