package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./hsdag.sh install}, run on a copy of the launcher in a sandbox (its own HOME, a stub
 * {@code java} that prints a completion script), so nothing is built and nothing of the user's is
 * touched.
 */
class LauncherInstallTest {
  @TempDir
  Path tmp;

  @Test
  void installSaysWhatLoadsTheCompletionAndPrintsTheSourceLine() throws Exception {
    Path launcher = Path.of(System.getProperty("user.dir")).getParent().resolve("hsdag.sh");
    Path root = Files.createDirectories(tmp.resolve("root"));
    Files.copy(launcher, root.resolve("hsdag.sh"));
    Path target = Files.createDirectories(root.resolve("bench/target"));
    Files.writeString(target.resolve("classpath.txt"), "");
    Files.writeString(target.resolve(".hsdag-built"), "");
    Path stubs = Files.createDirectories(tmp.resolve("stubs"));
    Path java = Files.writeString(stubs.resolve("java"), "#!/usr/bin/env bash\necho 'complete -F _hsdag hsdag'\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path home = Files.createDirectories(tmp.resolve("home"));

    ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("hsdag.sh").toString(), "install",
        home.resolve("bin").toString())
        .redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.put("HOME", home.toString());
    env.put("XDG_DATA_HOME", home.resolve("share").toString());
    env.put("PATH", stubs + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);

    Path completion = home.resolve("share/bash-completion/completions/hsdag");
    assertEquals("complete -F _hsdag hsdag\n", Files.readString(completion));
    assertTrue(out.contains("bash-completion package"), out);
    assertTrue(out.contains("source " + completion), out);
  }
}
