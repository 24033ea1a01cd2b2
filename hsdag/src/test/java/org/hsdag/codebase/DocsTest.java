package org.hsdag.codebase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README is what a new user reads first: it stays short, its two commands stay the ones CI runs, and every
 * relative link in it and in {@code docs/} leads to a file (and heading) that exists.
 */
class DocsTest {
  private static final int README_MAX_LINES = 250;
  private static final int TABLE_ROW_MAX_CHARS = 200;
  private static final String MAIN_JOB = "./hsdag.sh tune models/resnet50/resnet50.xml --devices CPU,GPU.1";
  private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

  @Test
  void theReadmeFitsInTwoHundredFiftyLines() throws IOException {
    long lines = Files.readAllLines(root().resolve("README.md")).size();
    assertTrue(lines <= README_MAX_LINES, "README.md has " + lines + " lines; move detail into a docs/ page");
  }

  @Test
  void theReadmesTwoCommandsAreTheMainJobAndTheTestCommandCiRuns() throws IOException {
    Matcher block = FENCE.matcher(Files.readString(root().resolve("README.md")));
    assertTrue(block.find(), "README.md has no code block");
    List<String> setUp = block.group().lines().filter(l -> !l.startsWith("```")).toList();
    assertEquals(2, setUp.size(), "the set-up block holds the main job and the test command: " + setUp);
    assertEquals(MAIN_JOB, command(setUp.get(0)));
    assertTrue(setUp.get(0).endsWith("# the main job"), setUp.get(0));
    assertTrue(setUp.get(1).endsWith("# the whole test suite"), setUp.get(1));
    List<String> ci = Files.readAllLines(root().resolve(".ci/run")).stream()
        .map(String::strip)
        .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("set ") && !l.startsWith("cd "))
        .toList();
    assertEquals(List.of(command(setUp.get(1))), ci, ".ci/run runs exactly the README's test command");
  }

  @Test
  void everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws IOException {
    assertEquals(List.of(), brokenLinks(pages(root())));
  }

  @Test
  void everyDocsPageIsLinkedFromTheReadme() throws IOException {
    Path root = root();
    Set<Path> linked = new HashSet<>();
    for (String target : links(Files.readString(root.resolve("README.md")))) {
      linked.add(root.resolve(target.replaceFirst("#.*", "")).normalize());
    }
    List<String> unlinked = docs(root).stream()
        .filter(p -> !linked.contains(p.normalize()))
        .map(p -> root.relativize(p).toString())
        .toList();
    assertEquals(List.of(), unlinked, "add each docs/ page to the README's list under \"More\"");
  }

  @Test
  void tableRowsStayReadable() throws IOException {
    List<String> wide = new ArrayList<>();
    for (Path page : pages(root())) {
      List<String> lines = Files.readAllLines(page);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.startsWith("|") && line.length() > TABLE_ROW_MAX_CHARS) {
          wide.add(page.getFileName() + ":" + (i + 1) + " (" + line.length() + " chars)");
        }
      }
    }
    assertEquals(List.of(), wide, "split wide table rows into several tables or a list");
  }

  @Test
  void theLinkCheckFindsAMissingFileAndAMissingHeading(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("docs"));
    Path readme = Files.writeString(dir.resolve("README.md"), """
        # Title

        See [a](docs/a.md#the-set-up-two-commands), [b](docs/b.md), [c](docs/a.md#nowhere), [d](#title),
        [web](https://example.org/x.md) and `[code](docs/none.md)`.
        """);
    Path a = Files.writeString(dir.resolve("docs/a.md"), "## The set-up: two `commands`\n\n[up](../README.md#title)\n");
    List<String> broken = brokenLinks(List.of(readme, a));
    assertEquals(List.of("README.md: docs/b.md (no such file)", "README.md: docs/a.md#nowhere (no such heading)"),
        broken);
  }

  /** The command of a line in a code block: what precedes its {@code #} comment. */
  private static String command(String line) {
    int hash = line.indexOf(" #");
    return (hash < 0 ? line : line.substring(0, hash)).strip();
  }

  private static List<String> brokenLinks(List<Path> pages) throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      for (String target : links(Files.readString(page))) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        String where = page.getFileName() + ": " + target;
        if (!Files.exists(resolved)) {
          broken.add(where + " (no such file)");
        } else if (hash >= 0 && resolved.toString().endsWith(".md")
            && !anchors(Files.readString(resolved)).contains(target.substring(hash + 1))) {
          broken.add(where + " (no such heading)");
        }
      }
    }
    return broken;
  }

  /** Relative link targets outside code: web addresses and mail links are not checked. */
  private static List<String> links(String markdown) {
    String prose = CODE_SPAN.matcher(FENCE.matcher(markdown).replaceAll("")).replaceAll("");
    List<String> out = new ArrayList<>();
    Matcher m = LINK.matcher(prose);
    while (m.find()) {
      if (!SCHEME.matcher(m.group(1)).find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens. */
  static Set<String> anchors(String markdown) {
    Set<String> out = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    Matcher m = HEADING.matcher(FENCE.matcher(markdown).replaceAll(""));
    while (m.find()) {
      String slug = m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum);
      out.add(n == 1 ? slug : slug + "-" + (n - 1));
    }
    return out;
  }

  private static List<Path> pages(Path root) throws IOException {
    List<Path> out = new ArrayList<>(docs(root));
    out.add(0, root.resolve("README.md"));
    return out;
  }

  private static List<Path> docs(Path root) throws IOException {
    try (Stream<Path> files = Files.list(root.resolve("docs"))) {
      return files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
    }
  }

  private static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no README.md with a docs/ folder at or above " + Path.of("").toAbsolutePath());
  }
}
