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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Keeps main code readable: no file over {@value #MAX_FILE_LINES} lines and no method over {@value
 * #MAX_METHOD_LINES}, unless the file says why in one line ({@code // size: <reason>} before the
 * package line for a file, {@code // size: <reason>} on the line above a method). Parsed with the
 * JDK's own compiler tree API, so a method's length is its real extent.
 */
class SourceLimitsTest {
  private static final int MAX_FILE_LINES = 500;
  private static final int MAX_METHOD_LINES = 80;
  private static final Pattern REASON = Pattern.compile("^\\s*// size: \\S.*");

  @Test
  void mainCodeStaysWithinTheLimitsOrSaysWhy() throws IOException {
    List<Path> sources = mainSources();
    assertTrue(sources.size() > 100, "found the main sources: " + sources.size());
    List<String> violations = new ArrayList<>();
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
      JavacTask task = (JavacTask) compiler.getTask(
          null,
          files,
          d -> {
          },
          List.of("-proc:none"),
          null,
          files.getJavaFileObjectsFromPaths(sources));
      Trees trees = Trees.instance(task);
      for (CompilationUnitTree unit : task.parse()) {
        violations.addAll(check(unit, trees.getSourcePositions()));
      }
    }
    assertEquals(List.of(), violations, "split these or give a one-line '// size: <reason>'");
  }

  private static List<String> check(CompilationUnitTree unit, SourcePositions positions)
      throws IOException {
    Path file = Path.of(unit.getSourceFile().toUri());
    List<String> lines = Files.readAllLines(file);
    List<String> violations = new ArrayList<>();
    String name = file.getFileName().toString();
    if (lines.size() > MAX_FILE_LINES && !fileGivesReason(lines)) {
      violations.add(name + ": " + lines.size() + " lines");
    }
    LineMap lineMap = unit.getLineMap();
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethod(MethodTree method, Void unused) {
        long first = lineMap.getLineNumber(positions.getStartPosition(unit, method));
        long last = lineMap.getLineNumber(positions.getEndPosition(unit, method));
        long length = last - first + 1;
        boolean reasoned = first >= 2 && REASON.matcher(lines.get((int) first - 2)).matches();
        if (length > MAX_METHOD_LINES && !reasoned) {
          violations.add(name + ":" + first + " " + method.getName() + "() " + length + " lines");
        }
        return super.visitMethod(method, unused);
      }

      @Override
      public Void visitClass(ClassTree tree, Void unused) {
        return super.visitClass(tree, unused);
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

  private static List<Path> mainSources() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> sources = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.toList()) {
        Path main = module.resolve("src/main/java");
        if (Files.isDirectory(main)) {
          try (Stream<Path> walk = Files.walk(main)) {
            walk.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
          }
        }
      }
    }
    return sources;
  }
}
