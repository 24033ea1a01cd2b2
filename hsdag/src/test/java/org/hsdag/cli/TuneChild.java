package org.hsdag.cli;

import java.util.Arrays;
import java.util.Set;
import org.hsdag.testkit.FakeBackend;
import picocli.CommandLine;

/**
 * Child-process entry point for the kill tests: runs {@code hsdag tune ARGS} with a {@link
 * FakeBackend} that blocks forever at measurement {@code args[0]}, so the parent can kill it at a
 * known point.
 */
public final class TuneChild {
  private TuneChild() {}

  public static void main(String[] args) {
    FakeBackend backend = FakeBackend.cpuGpu(Set.of(), Integer.parseInt(args[0]));
    int code = new CommandLine(new TuneCommand(backend)).execute(Arrays.copyOfRange(args, 1, args.length));
    System.exit(code);
  }
}
