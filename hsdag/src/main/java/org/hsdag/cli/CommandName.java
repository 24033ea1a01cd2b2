package org.hsdag.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.hsdag.io.Pasteable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

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

  /**
   * {@code file} as the user would type it here: relative to the working directory when it lies
   * under it (run folders keep absolute model paths), else as it is.
   */
  static String here(String file) {
    Path p = Path.of(file);
    Path cwd = Path.of("").toAbsolutePath().normalize();
    return p.isAbsolute() && p.normalize().startsWith(cwd) && !p.normalize().equals(cwd)
        ? cwd.relativize(p.normalize()).toString()
        : file;
  }

  /**
   * The options the user gave {@code from} that the sibling command {@code to} also takes, as typed
   * (less {@code except}): a suggested next command keeps the user's devices, backend, test devices,
   * input sizes and memory caps instead of silently falling back to defaults.
   */
  static List<String> carried(CommandSpec from, String to, Set<String> except) {
    CommandSpec parent = from.parent();
    if (parent == null || from.commandLine().getParseResult() == null || !parent.subcommands().containsKey(to)) {
      return List.of();
    }
    CommandSpec target = parent.subcommands().get(to).getCommandSpec();
    List<String> args = new ArrayList<>();
    for (OptionSpec o : from.commandLine().getParseResult().matchedOptions()) {
      String name = o.longestName();
      if (except.contains(name) || target.findOption(name) == null) {
        continue;
      }
      if (o.arity().max() == 0) {
        args.add(name);
      } else {
        for (String v : o.originalStringValues()) {
          args.add(name);
          args.add(v);
        }
      }
    }
    return args;
  }
}
