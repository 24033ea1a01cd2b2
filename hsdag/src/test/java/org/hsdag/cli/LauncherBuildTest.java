package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When {@code ./hsdag.sh} builds: a copy of the launcher in a sandbox with stub {@code mvn} and
 * {@code java}, so nothing is really built and the stubs record what was run.
 */
class LauncherBuildTest {
  @TempDir
  Path tmp;
  private Path root;
  private Path stubs;
  private Path source;
  private Path mvnCalls;

  @BeforeEach
  void sandbox() throws IOException {
    root = Files.createDirectories(tmp.resolve("root"));
    Files.copy(Path.of(System.getProperty("user.dir")).getParent().resolve("hsdag.sh"), root.resolve("hsdag.sh"));
    source = Files.createDirectories(root.resolve("hsdag/src/main/java")).resolve("Thing.java");
    Files.writeString(source, "class Thing {}\n");
    Path target = Files.createDirectories(root.resolve("bench/target"));
    Files.writeString(target.resolve("classpath.txt"), "");
    stubs = Files.createDirectories(tmp.resolve("stubs"));
    mvnCalls = tmp.resolve("mvn-calls");
    // A Maven that prints what a real build prints (colour codes unless in batch mode, -B) and succeeds.
    stub("mvn", "echo \"$*\" >> '" + mvnCalls + "'\n"
        + "[[ \" $* \" == *' -B '* ]] || printf '\\033[0m'\n"
        + "printf '[INFO] Building hsdag core: GNN policy, training, tuner, CLI 0.1.0-SNAPSHOT [5/7]\\n'\n"
        + "printf '[INFO] Building hsdag bench: baselines 0.1.0-SNAPSHOT [7/7]\\n'\n");
    stub("java", "echo ran\n");
  }

  private void stub(String name, String body) throws IOException {
    Path f = Files.writeString(stubs.resolve(name), "#!/usr/bin/env bash\n" + body);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private String launch() throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("hsdag.sh").toString(), "devices");
    Map<String, String> env = pb.environment();
    env.put("PATH", stubs + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out + err);
    assertTrue(out.contains("ran"), out);
    return err;
  }

  private static void age(Path file, long secondsAgo) throws IOException {
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(secondsAgo)));
  }

  @Test
  void aMavenBuildNewerThanTheSourcesIsNotRepeated() throws Exception {
    age(source, 600);
    // classpath.txt was just rewritten by a `mvn install` of the user's; the launcher never built (no stamp).
    assertEquals("", launch());
    assertFalse(Files.exists(mvnCalls), "no build expected");
  }

  @Test
  void changedSourcesBuildWithOneLinePerModuleAndNoColourCodes() throws Exception {
    age(root.resolve("bench/target/classpath.txt"), 600);
    String err = launch();
    assertTrue(Files.readString(mvnCalls).contains("-B"), Files.readString(mvnCalls));
    assertTrue(err.contains("hsdag:   building core [5/7]") && err.contains("hsdag:   building bench [7/7]"), err);
    assertFalse(err.contains("\u001b"), err);
    assertEquals("", launch(), "the second start builds nothing");
  }
}
