package org.hsdag.cli;

/** Process entry point of the {@code hsdag} launcher. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // Must be set before DJL's Engine class loads: no network at run time.
    if (System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    int code = HsdagCli.newCommandLine().execute(args);
    System.exit(code);
  }
}
