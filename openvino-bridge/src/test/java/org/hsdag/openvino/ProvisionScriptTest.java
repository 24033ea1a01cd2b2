package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code native/provision.sh}: what a machine that cannot provision OpenVINO is told, in one line. */
class ProvisionScriptTest {
  private static final Path SCRIPT = Path.of("native", "provision.sh");

  @TempDir
  Path tmp;

  private record Run(int exit, String output) {}

  private Run run(Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString(), "--classpath", "none", "--out",
        tmp.resolve("classes").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("CI");
    pb.environment().remove("HSDAG_OPENVINO_PYTHON");
    pb.environment().remove("INTEL_OPENVINO_DIR");
    pb.environment().put("HSDAG_CACHE_DIR", tmp.resolve("cache").toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return new Run(p.exitValue(), out);
  }

  /** A PATH whose python3 has no venv module (as Debian's python3 without python3-venv). */
  private Map<String, String> pythonWithoutVenv() throws IOException {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path python = bin.resolve("python3");
    Files.writeString(python, "#!/bin/sh\nexit 1\n");
    Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwxr-xr-x"));
    return Map.of("PATH", bin + ":/usr/bin:/bin");
  }

  @Test
  void withoutVenvARequiredProvisioningFailsInOneLineNamingThePackage() throws Exception {
    Run r = run(pythonWithoutVenv(), "--mode", "required");
    assertEquals(1, r.exit(), r.output());
    assertEquals(1, r.output().strip().lines().count(), r.output());
    assertTrue(r.output().contains("apt-get install python3-venv"), r.output());
  }

  @Test
  void anAutomaticBuildWithoutVenvWarnsAndGoesOnWithTheSimulator() throws Exception {
    Run r = run(pythonWithoutVenv(), "--mode=auto");
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("the simulator works"), r.output());
    assertFalse(Files.exists(tmp.resolve("classes")), "nothing half-built is left");
  }

  @Test
  void underCiTheDefaultIsRequiredAndOffDoesNothing() throws Exception {
    Map<String, String> env = new java.util.HashMap<>(pythonWithoutVenv());
    env.put("CI", "true");
    assertEquals(1, run(env).exit());
    assertEquals(0, run(env, "--mode", "off").exit());
    Run bad = run(env, "--mode", "sometimes");
    assertEquals(2, bad.exit(), bad.output());
    assertTrue(bad.output().contains("auto, required or off"), bad.output());
  }
}
