package org.hsdag.testkit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what code prints to {@code System.err} directly (a library's own diagnostics, which a
 * CLI's error writer does not see). Tests run one at a time in this build, so swapping the stream
 * is safe.
 */
public final class SystemErr {
  private SystemErr() {}

  /** Runs {@code body} and returns what it printed to {@code System.err}. */
  public static String capture(Runnable body) {
    PrintStream saved = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      body.run();
    } finally {
      System.setErr(saved);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }
}
