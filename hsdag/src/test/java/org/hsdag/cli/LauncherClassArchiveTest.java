package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.hsdag.testkit.TinyJars;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./hsdag.sh} runs from the modules' jars with a class-data archive: a copy of the launcher in a sandbox
 * whose modules are small jars (core's holds a stand-in {@code org.hsdag.cli.Main} that prints its arguments and
 * the child archive's path), started with the real {@code java}.
 */
class LauncherClassArchiveTest {
  private static final List<String> MODULES = List.of("bench", "cluster", "hsdag", "coarsen", "models",
      "openvino-bridge", "sim", "core");

  @TempDir
  Path tmp;
  private Path root;
  private Path cds;

  private static String main(String says) {
    return "package org.hsdag.cli; public class Main { public static void main(String[] a) {"
        + " System.out.println(\"" + says + " \" + String.join(\" \", a) + \" \""
        + " + System.getProperty(\"hsdag.runtime.child.cds\", \"-\")); } }";
  }

  @BeforeEach
  void sandbox() throws IOException {
    root = Files.createDirectories(tmp.resolve("root"));
    Files.copy(Path.of(System.getProperty("user.dir")).getParent().resolve("hsdag.sh"), root.resolve("hsdag.sh"));
    Path dep = TinyJars.jar(tmp.resolve("dep.jar"), tmp.resolve("none"));
    for (String m : MODULES) {
      Path classes = Files.createDirectories(root.resolve(m + "/target/classes"));
      if (m.equals("core")) {
        TinyJars.compile(classes, "org.hsdag.cli.Main", main("folder"));
        Path jarClasses = tmp.resolve("jar-classes");
        TinyJars.compile(jarClasses, "org.hsdag.cli.Main", main("jar"));
        TinyJars.jar(root.resolve("core/target/core-0.1.0.jar"), jarClasses);
      } else {
        TinyJars.jar(root.resolve(m + "/target/" + m + "-0.1.0.jar"), classes);
      }
      try (Stream<Path> all = Files.walk(classes)) {
        for (Path f : all.toList()) {
          Files.setLastModifiedTime(f, FileTime.from(Instant.now().minusSeconds(600)));
        }
      }
    }
    Files.writeString(root.resolve("bench/target/classpath.txt"), dep.toString());
    cds = root.resolve("bench/target/cds");
  }

  /** Runs the launcher with {@code args}; what it printed on stdout, after asserting it succeeded silently. */
  private String launch(String... args) throws IOException, InterruptedException {
    Process p = start(args);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out + err);
    assertEquals("", err);
    return out.strip();
  }

  private Process start(String... args) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of("bash", root.resolve("hsdag.sh").toString()),
        Stream.of(args)).toList());
    pb.environment().remove("JAVA_TOOL_OPTIONS"); // the JVM would say on stderr that it picked them up
    pb.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":"
        + pb.environment().getOrDefault("PATH", "/usr/bin:/bin"));
    return pb.start();
  }

  private List<String> cdsFiles() throws IOException {
    try (Stream<Path> all = Files.list(cds)) {
      return all.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void theFirstTuneWritesTheArchiveLaterRunsMapItAndAGarbageOneIsIgnored() throws Exception {
    String out = launch("tune", "m.xml");
    assertTrue(out.startsWith("jar tune m.xml " + cds + "/child-"), out);
    List<String> files = cdsFiles();
    assertEquals(1, files.size(), files.toString());
    assertTrue(files.get(0).matches("main-[0-9]+\\.jsa"), files.toString());
    Path archive = cds.resolve(files.get(0));
    assertTrue(Files.size(archive) > 0);
    assertTrue(launch("devices").startsWith("jar devices "));
    Files.writeString(archive, "garbage");
    assertTrue(launch("devices").startsWith("jar devices "), "a damaged archive: the JVM starts without it");
    assertTrue(launch("tune", "m.xml").startsWith("jar tune m.xml "));
    assertEquals(files, cdsFiles(), "an archive there is not written again");
  }

  @Test
  void aRebuiltJarNamesANewArchiveAndTheOldOneGoes() throws Exception {
    launch("tune", "m.xml");
    List<String> before = cdsFiles();
    Path jar = root.resolve("sim/target/sim-0.1.0.jar");
    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
    launch("tune", "m.xml");
    List<String> after = cdsFiles();
    assertEquals(1, after.size(), after.toString());
    assertNotEquals(before, after);
  }

  @Test
  void aJarOlderThanItsClassFolderRunsFromTheFoldersWithoutArchive() throws Exception {
    Files.setLastModifiedTime(root.resolve("core/target/classes/org/hsdag/cli/Main.class"),
        FileTime.from(Instant.now().plusSeconds(5)));
    assertEquals("folder tune m.xml -", launch("tune", "m.xml"));
    assertFalse(Files.exists(cds) && !cdsFiles().isEmpty(), "no archive from class folders");
  }

  @Test
  void aMissingClassPathEntryNeitherEndsTheLauncherNorStopsTheArchive() throws Exception {
    Path cp = root.resolve("bench/target/classpath.txt");
    Files.writeString(cp, Files.readString(cp) + ":" + tmp.resolve("gone.jar"));
    assertTrue(launch("tune", "m.xml").startsWith("jar tune m.xml "));
    List<String> files = cdsFiles();
    assertTrue(files.size() == 1 && files.get(0).matches("main-[0-9]+\\.jsa"), files.toString());
  }

  @Test
  void twoFirstTunesAtOnceLeaveOneWholeArchive() throws Exception {
    Process a = start("tune", "a.xml");
    Process b = start("tune", "b.xml");
    assertEquals(0, a.waitFor());
    assertEquals(0, b.waitFor());
    List<String> files = cdsFiles();
    assertEquals(1, files.size(), "no part left: " + files);
    assertTrue(launch("devices").startsWith("jar devices "));
  }
}
