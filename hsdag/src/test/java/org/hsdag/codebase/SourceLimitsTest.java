package org.hsdag.codebase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps main code readable: no file over {@value #MAX_FILE_LINES} lines and no method over {@value
 * #MAX_METHOD_LINES}, unless the code says why in one line: {@code // size: <reason>} before the
 * package line for a file, on the line just above a method (above its annotations) for a method.
 * Parsed with the JDK's compiler tree API, so a method's length is its real extent, from its
 * modifiers to its closing brace (javadoc not counted). And no Java file, main or test, refers to an
 * issue by its number: the code says what the reference meant.
 */
class SourceLimitsTest {
  private static final int MAX_FILE_LINES = 500;
  private static final int MAX_METHOD_LINES = 80;
  private static final Pattern REASON = Pattern.compile("^\\s*// size: \\S.*");
  /** The word issue followed by a number (or #number): a tracker's number means nothing to a reader of the code. */
  private static final Pattern ISSUE_NUMBER = Pattern.compile("(?i)\\bissues?\\s*#?\\d");
  private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");
  /** The modules whose main code is held to the limits; a missing one fails the test, not skips it. */
  private static final List<String> MODULES = List.of("core", "sim", "openvino-bridge", "models", "coarsen", "hsdag",
      "cluster", "bench");

  @Test
  void mainCodeOfEveryModuleStaysWithinTheLimitsOrSaysWhy() throws IOException {
    Path root = repositoryRoot();
    List<String> declared = declaredModules(root);
    assertTrue(declared.containsAll(MODULES), "root pom's modules " + declared + " lack one of " + MODULES);
    List<Path> sources = new ArrayList<>();
    for (String module : declared) {
      sources.addAll(javaFiles(root.resolve(module).resolve("src/main/java")));
    }
    assertTrue(sources.size() > 100, "main sources found under " + root + ": " + sources.size());
    List<String> violations = violations(root, sources);
    assertTrue(violations.isEmpty(), violations.size() + " over the limits; split them or give a one-line"
        + " '// size: <reason>':\n  " + String.join("\n  ", violations));
  }

  @Test
  void noJavaFileRefersToAnIssueByNumber() throws IOException {
    Path root = repositoryRoot();
    List<Path> sources = new ArrayList<>();
    for (String module : declaredModules(root)) {
      for (String set : List.of("src/main/java", "src/test/java")) {
        Path dir = root.resolve(module).resolve(set);
        if (Files.isDirectory(dir)) {
          sources.addAll(javaFiles(dir));
        }
      }
    }
    assertTrue(sources.size() > 200, "Java sources found under " + root + ": " + sources.size());
    List<String> found = issueMentions(root, sources);
    assertTrue(found.isEmpty(), found.size() + " mention(s) of an issue number; say what the reference means:\n  "
        + String.join("\n  ", found));
  }

  @Test
  void theIssueCheckCatchesAMentionInACommentOrAString(@TempDir Path dir) throws IOException {
    // Built from parts so that this file does not match its own rule.
    String mention = "Iss" + "ue 37";
    write(dir, "A.java", "package p;\n// fixed in " + mention + " item 7\nclass A {}\n");
    write(dir, "B.java", "package p;\nclass B {\n  String s = \"see iss" + "ue #12\";\n  int tissue = 3;\n}\n");
    write(dir, "C.java", "package p;\n/** The tissue 3 model; the issues list. */\nclass C {}\n");

    assertEquals(List.of("A.java:2", "B.java:3"), issueMentions(dir, javaFiles(dir)));
  }

  /** Every line that names an issue by its number, as "path:line". */
  private static List<String> issueMentions(Path root, List<Path> sources) throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : sources) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (ISSUE_NUMBER.matcher(lines.get(i)).find()) {
          found.add(root.relativize(file) + ":" + (i + 1));
        }
      }
    }
    return found;
  }

  @Test
  void theCheckCatchesALongMethodAndALongFileAndHonoursAReason(@TempDir Path dir) throws IOException {
    write(dir, "LongFile.java", "package p;\nclass LongFile {\n" + method("fits", 80) + padding(500) + "}\n");
    write(dir, "LongMethod.java", "package p;\nclass LongMethod {\n  @Deprecated\n" + method("tooLong", 81)
        + "  class Inner {\n" + method("nestedTooLong", 82) + "  }\n}\n");
    write(dir, "Reasoned.java", "// size: one table, split it and it reads worse\npackage p;\nclass Reasoned {\n"
        + "  // size: a generated switch\n" + method("reasoned", 90) + padding(500) + "}\n");
    List<Path> sources = javaFiles(dir);
    assertEquals(3, sources.size());

    List<String> violations = violations(dir, sources);

    assertEquals(List.of(
        "LongFile.java: " + (2 + 80 + 500 + 1) + " lines (max 500)",
        "LongMethod.java:3 tooLong() 82 lines (max 80)",
        "LongMethod.java:86 nestedTooLong() 82 lines (max 80)"), violations);
  }

  /** A method of exactly {@code lines} lines: signature, body, closing brace. */
  private static String method(String name, int lines) {
    StringBuilder text = new StringBuilder("  void " + name + "() {\n");
    for (int i = 0; i < lines - 2; i++) {
      text.append("    int v").append(i).append(" = ").append(i).append(";\n");
    }
    return text.append("  }\n").toString();
  }

  private static String padding(int lines) {
    return "  //\n".repeat(lines);
  }

  private static void write(Path dir, String name, String text) throws IOException {
    Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  /** Every file or method over its limit without a reason, as "path: what", sorted. */
  private static List<String> violations(Path root, List<Path> sources) throws IOException {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    List<String> violations = new ArrayList<>();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostic -> {}, List.of("-proc:none"), null,
          files.getJavaFileObjectsFromPaths(sources));
      SourcePositions positions = Trees.instance(task).getSourcePositions();
      for (CompilationUnitTree unit : task.parse()) {
        Path file = Path.of(unit.getSourceFile().toUri());
        violations.addAll(check(root.relativize(file).toString(), unit, positions, Files.readAllLines(file)));
      }
    }
    Collections.sort(violations);
    return violations;
  }

  private static List<String> check(String name, CompilationUnitTree unit, SourcePositions positions,
      List<String> lines) {
    List<String> violations = new ArrayList<>();
    if (lines.size() > MAX_FILE_LINES && !fileGivesReason(lines)) {
      violations.add(name + ": " + lines.size() + " lines (max " + MAX_FILE_LINES + ")");
    }
    LineMap lineMap = unit.getLineMap();
    new TreePathScanner<Void, Void>() {
      private String className = "";

      @Override
      public Void visitClass(ClassTree type, Void unused) {
        String outer = className;
        className = type.getSimpleName().toString();
        super.visitClass(type, null);
        className = outer;
        return null;
      }

      @Override
      public Void visitMethod(MethodTree method, Void unused) {
        long first = lineMap.getLineNumber(positions.getStartPosition(unit, method));
        long last = lineMap.getLineNumber(positions.getEndPosition(unit, method));
        long length = last - first + 1;
        boolean reasoned = first >= 2 && REASON.matcher(lines.get((int) first - 2)).matches();
        if (length > MAX_METHOD_LINES && !reasoned) {
          String methodName = method.getName().contentEquals("<init>") ? className : method.getName().toString();
          violations.add(name + ":" + first + " " + methodName + "() " + length + " lines (max "
              + MAX_METHOD_LINES + ")");
        }
        return super.visitMethod(method, null);
      }
    }.scan(unit, null);
    return violations;
  }

  private static boolean fileGivesReason(List<String> lines) {
    for (String line : lines) {
      if (line.startsWith("package ")) {
        return false;
      }
      if (REASON.matcher(line).matches()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The nearest folder at or above the working directory (Surefire runs in the module's folder)
   * whose pom.xml lists modules: the same root however the build was started.
   */
  private static Path repositoryRoot() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.isRegularFile(pom) && MODULE.matcher(Files.readString(pom)).find()) {
        return dir;
      }
    }
    throw new IllegalStateException("no pom.xml with <module>s at or above " + Path.of("").toAbsolutePath());
  }

  private static List<String> declaredModules(Path root) throws IOException {
    List<String> modules = new ArrayList<>();
    Matcher matcher = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
    while (matcher.find()) {
      modules.add(matcher.group(1));
    }
    return modules;
  }

  private static List<Path> javaFiles(Path dir) {
    assertTrue(Files.isDirectory(dir), "no source folder " + dir);
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
