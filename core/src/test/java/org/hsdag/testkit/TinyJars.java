package org.hsdag.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Small real programs for tests that start a JVM: a class compiled from source, as a class folder or a jar. */
public final class TinyJars {
  private TinyJars() {}

  /**
   * Compiles {@code source} (one top-level class named {@code className}, dots for its package) into the class
   * folder {@code classes}.
   */
  public static void compile(Path classes, String className, String source) throws IOException {
    Path src = Files.createTempDirectory("tiny-src");
    Path file = src.resolve(className.substring(className.lastIndexOf('.') + 1) + ".java");
    Files.writeString(file, source);
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-d", classes.toString(), file.toString());
    if (rc != 0) {
      throw new IOException("javac failed on " + className);
    }
  }

  /** A jar of every file under {@code classes} (none: an empty jar). */
  public static Path jar(Path jar, Path classes) throws IOException {
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      List<Path> files = List.of();
      if (Files.isDirectory(classes)) {
        try (Stream<Path> all = Files.walk(classes)) {
          files = all.filter(Files::isRegularFile).sorted().toList();
        }
      }
      for (Path f : files) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(f));
        out.closeEntry();
      }
      if (files.isEmpty()) {
        out.putNextEntry(new JarEntry("empty.txt"));
        out.closeEntry();
      }
    }
    return jar;
  }
}
