package org.hsdag.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.cli.HsdagCli;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's help (bench included, hence this module): each example is one line a user can
 * paste, never wrapped in the middle of a path, and no file name is split across lines.
 */
class HelpTextTest {
  private static void collect(CommandLine cl, List<CommandLine> out) {
    out.add(cl);
    cl.getSubcommands().values().forEach(sub -> collect(sub, out));
  }

  @Test
  void examplesAreWholeLinesAndFileNamesAreNeverSplit() {
    List<CommandLine> all = new ArrayList<>();
    collect(HsdagCli.newCommandLine(), all);
    List<String> problems = new ArrayList<>();
    for (CommandLine cl : all) {
      String name = cl.getCommandSpec().qualifiedName();
      List<String> lines = cl.getUsageMessage(CommandLine.Help.Ansi.OFF).lines().toList();
      boolean inExamples = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.startsWith("Examples:")) {
          inExamples = true;
        } else if (inExamples && !line.isBlank() && !line.startsWith("  hsdag ") && !line.startsWith("  #")) {
          problems.add(name + ": an example wraps onto '" + line + "'");
        }
        if (i + 1 < lines.size() && line.matches(".*\\w\\.$")
            && lines.get(i + 1).trim().matches("^(json|jsonl|xml|bin|png|svg|md|html|dot|sh)\\b.*")) {
          problems.add(name + ": a file name splits at '" + line.strip() + "' / '" + lines.get(i + 1).strip() + "'");
        }
      }
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  /** picocli reads descriptions as format strings: a lone '%' prints a warning and the raw text instead. */
  @Test
  void everyDescriptionFormatsWithoutWarnings() {
    List<CommandLine> all = new ArrayList<>();
    collect(HsdagCli.newCommandLine(), all);
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream err = System.err;
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      all.forEach(cl -> cl.getUsageMessage(CommandLine.Help.Ansi.OFF));
    } finally {
      System.setErr(err);
    }
    String warnings = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(warnings.isEmpty(), warnings);
  }
}
