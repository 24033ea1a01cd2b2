package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The processes whose CPU time is this run's own: every descendant, a grandchild too (the runtime's children). */
class LoadProbeTest {
  @Test
  void descendantsHoldAChildAndItsChild() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here: the load is unknown anyway");
    Process shell = new ProcessBuilder("sh", "-c", "sleep 30 & echo $!; wait").start();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(shell.getInputStream(), StandardCharsets.US_ASCII))) {
      long grandchild = Long.parseLong(out.readLine().trim());
      var found = LoadProbe.descendants();
      assertTrue(found.contains(shell.pid()) && found.contains(grandchild),
          found + " " + shell.pid() + " " + grandchild);
      assertTrue(LoadProbe.proc().sample().isPresent(), "the probe reads the machine's counters and its own");
    } finally {
      shell.descendants().forEach(ProcessHandle::destroy);
      shell.destroy();
    }
  }
}
