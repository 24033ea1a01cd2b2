package org.hsdag.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the CLI in-process exactly as {@link Main} wires it, capturing stdout, stderr and the exit code. */
public record CliRun(int exitCode, String out, String err) {
  public static CliRun of(String... args) {
    CommandLine cl = HsdagCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
