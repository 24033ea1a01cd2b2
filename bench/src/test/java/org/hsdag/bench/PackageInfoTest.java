package org.hsdag.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every main-code package of every module says in a {@code package-info.java} what lives there and
 * what may depend on it (bench is the top module, so it can see all the others' sources).
 */
class PackageInfoTest {
  @Test
  void everyMainPackageHasAPackageInfo() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> sourceRoots;
    try (Stream<Path> modules = Files.list(root)) {
      sourceRoots = modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
    }
    assertTrue(sourceRoots.size() >= 5, "module source folders found under " + root + ": " + sourceRoots);
    List<String> missing;
    try (Stream<Path> roots = sourceRoots.stream()) {
      missing = roots.flatMap(PackageInfoTest::packageFolders)
          .filter(dir -> !Files.exists(dir.resolve("package-info.java")))
          .map(dir -> root.relativize(dir).toString())
          .sorted()
          .toList();
    }
    assertEquals(List.of(), missing, "packages without a package-info.java");
  }

  private static Stream<Path> packageFolders(Path sourceRoot) {
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      return files.filter(f -> f.toString().endsWith(".java")).map(Path::getParent).distinct().toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
