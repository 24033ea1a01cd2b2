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
 * relative link in it, in {@code docs/} and in {@code figures/} leads to a file (and heading) that exists. The README
 * and {@code docs/} state rules and the commands that reproduce a figure; a dated run, the machine's load during it
 * or the commit it was built from belongs to {@code figures/}, the log of runs.
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
  /** What git writes around both sides of a conflict it could not merge. */
  private static final Pattern CONFLICT_MARKER = Pattern.compile("^(?:<{7}|>{7})(?: |$)");
  private static final Pattern LINK_TARGET = Pattern.compile("\\]\\([^)\\s]*\\)");
  /** What only a dated run carries, by kind: outside code, where commands and their sample output live. */
  private static final Map<String, Pattern> RUN_RECORDS = Map.of(
      "a date", Pattern.compile("\\b20\\d\\d-[01]\\d-[0-3]\\d\\b"),
      "a clock time",
      Pattern.compile("\\b(?:[01]?\\d|2[0-3]):[0-5]\\d(?:\\s*[–-]\\s*(?:[01]?\\d|2[0-3]):[0-5]\\d|\\s*UTC)"),
      "a load figure", Pattern.compile("(?i)\\bload(?:avg)?\\s+(?:of\\s+)?[~≈]?\\d"),
      // Upstream sources are cited as owner/repo@commit; a bare hex id is a build of this tree.
      "a commit id", Pattern.compile("(?<![@\\w])(?=[0-9a-f]*\\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\\b"));

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
  void onlyFiguresCarriesDatedRunsLoadsAndCommitIds() throws IOException {
    Path root = root();
    List<Path> pages = new ArrayList<>(docs(root));
    pages.add(0, root.resolve("README.md"));
    List<String> found = new ArrayList<>();
    for (Path page : pages) {
      found.addAll(runRecords(root.relativize(page).toString(), Files.readString(page)));
    }
    assertEquals(List.of(), found, "move dated runs, loads and commit ids to figures/; docs/ says how to reproduce");
  }

  @Test
  void noPageKeepsAMergesConflictMarkers() throws IOException {
    Path root = root();
    List<String> found = new ArrayList<>();
    for (Path page : pages(root)) {
      List<String> lines = Files.readAllLines(page);
      for (int i = 0; i < lines.size(); i++) {
        if (CONFLICT_MARKER.matcher(lines.get(i)).find()) {
          found.add(root.relativize(page) + ":" + (i + 1));
        }
      }
    }
    assertEquals(List.of(), found, "resolve the merge: both sides of a conflict are still in the text");
  }

  @Test
  void theRunRecordCheckFindsEachKindOutsideCode() {
    String page = """
        # Page

        Measured (2026-11-27 12:08–13:20 UTC, load 1.6–1.9) at f150ddc.
        Under a load of 13 on 2 cores; loadavg 18.1 → 25.9; read at openvinotoolkit/openvino@14dfc48.
        `uptime` says `load average: 1.2`, the progress line `(load 1.3 of 2 cores busy)`, a [link](x.md#run-2026-11-25).

        ```
        cat /proc/loadavg   # 12.4 at 15:04 UTC, b114c56
        ```
        The --out runs/resnet50-20260101-120000, a 2-core machine, 120 ms, load the model, 1 ms per 0x7f.
        """;
    assertEquals(List.of("p.md:3 a date", "p.md:3 a clock time", "p.md:3 a load figure", "p.md:3 a commit id",
        "p.md:4 a load figure"), runRecords("p.md", page));
  }

  /** "page:line kind" for every run record outside code and link targets, in line order. */
  private static List<String> runRecords(String name, String markdown) {
    String prose = LINK_TARGET.matcher(CODE_SPAN.matcher(blankFences(markdown)).replaceAll("")).replaceAll("]");
    List<String> found = new ArrayList<>();
    List<String> lines = prose.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      for (String kind : List.of("a date", "a clock time", "a load figure", "a commit id")) {
        if (RUN_RECORDS.get(kind).matcher(lines.get(i)).find()) {
          found.add(name + ":" + (i + 1) + " " + kind);
        }
      }
    }
    return found;
  }

  /** Fenced blocks replaced by as many empty lines, so that line numbers still match the page. */
  private static String blankFences(String markdown) {
    Matcher m = FENCE.matcher(markdown);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, "\n".repeat((int) m.group().chars().filter(c -> c == '\n').count()));
    }
    return m.appendTail(out).toString();
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
    out.addAll(markdown(root.resolve("figures")));
    return out;
  }

  private static List<Path> docs(Path root) throws IOException {
    return markdown(root.resolve("docs"));
  }

  private static List<Path> markdown(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
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
