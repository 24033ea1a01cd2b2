package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hsdag.testkit.TinyJars;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime child's class-data archive: written once by a child's own JVM, then mapped, never in the way. */
class ChildClassArchiveTest {
  @TempDir
  Path tmp;

  /** A JVM with the archive's options running a one-class jar: its exit status and everything it printed. */
  private static String run(List<String> options, Path jar) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(options);
    cmd.addAll(List.of("-cp", jar.toString(), "Hello"));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("JAVA_TOOL_OPTIONS"); // the JVM would say it picked them up
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return p.waitFor() + " " + out;
  }

  @Test
  void aChildWritesTheArchiveLaterChildrenMapItAndAGarbageOneIsIgnored() throws Exception {
    Path classes = tmp.resolve("classes");
    TinyJars.compile(classes, "Hello", "public class Hello { public static void main(String[] a) {"
        + " System.out.println(\"hello\"); } }");
    Path jar = TinyJars.jar(tmp.resolve("hello.jar"), classes);
    Path archive = tmp.resolve("cds/child-1.jsa");
    Files.createDirectories(archive.getParent());

    List<String> first = ChildClassArchive.options(archive, 42);
    Optional<Path> part = ChildClassArchive.partOf(first);
    assertTrue(part.isPresent() && part.get().getFileName().toString().endsWith(".42"), first.toString());
    assertEquals("0 hello\n", run(first, jar), "no archive yet: the child runs and writes one, silently");
    ChildClassArchive.settle(part.get(), 0);
    assertTrue(Files.size(archive) > 0, "the whole archive is moved into place");
    assertFalse(Files.exists(part.get()));

    List<String> later = ChildClassArchive.options(archive, 42);
    assertEquals(Optional.empty(), ChildClassArchive.partOf(later), "an archive there is mapped, not rewritten");
    assertTrue(later.contains("-XX:SharedArchiveFile=" + archive), later.toString());
    assertEquals("0 hello\n", run(later, jar));

    Files.write(archive, "not an archive".getBytes(StandardCharsets.UTF_8));
    assertEquals("0 hello\n", run(later, jar), "a damaged archive: the JVM starts without it and says nothing");
  }

  @Test
  void aChildThatDidNotEndWellLeavesTheArchiveAsItWas() throws IOException {
    Path archive = Files.writeString(tmp.resolve("child-1.jsa"), "kept");
    Path part = ChildClassArchive.partOf(ChildClassArchive.options(tmp.resolve("child-2.jsa"), 7)).orElseThrow();
    Path other = tmp.resolve("child-1.jsa.part.3.7");
    Files.writeString(other, "half an archive");
    ChildClassArchive.settle(other, 137);
    assertEquals("kept", Files.readString(archive));
    assertFalse(Files.exists(other), "a killed child's part is removed");
    ChildClassArchive.settle(part, 0);
    assertFalse(Files.exists(tmp.resolve("child-2.jsa")), "a child that wrote nothing makes no archive");
  }
}
