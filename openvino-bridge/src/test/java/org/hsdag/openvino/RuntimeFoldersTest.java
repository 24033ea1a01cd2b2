package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runtime child's private folder records whose it is; the next start removes the ones whose processes all ended
 * (a tune killed with {@code kill -9} runs no cleanup) and never one with a process alive or without a record.
 */
class RuntimeFoldersTest {
  @TempDir
  Path root;

  /** The pid of a process that has ended. */
  private static long endedPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return p.pid();
  }

  private Path folder(String name, String owners) throws Exception {
    Path d = Files.createDirectory(root.resolve(RuntimeFolders.PREFIX + name));
    Files.writeString(d.resolve("child.log"), "a crash report, say");
    if (owners != null) {
      Files.writeString(d.resolve(RuntimeFolders.OWNERS), owners);
    }
    return d;
  }

  @Test
  void aNewFolderRecordsItsProcessesAndTheNextStartRemovesOnlyStaleOnes() throws Exception {
    long ended = endedPid();
    long me = ProcessHandle.current().pid();
    long myStart = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
    Path killedTune = folder("killed", ended + " -1\n" + endedPid() + " -1\n");
    Path live = folder("live", me + " " + myStart + "\n");
    Path liveChild = folder("live-child", ended + " -1\n" + me + " -1\n");
    Path reused = folder("reused-pid", me + " " + (myStart - 3_600_000) + "\n"); // this pid, but not this process
    Path unrecorded = folder("unrecorded", null);
    Path garbage = folder("garbage", "not a pid\n");
    Path otherName = Files.createDirectory(root.resolve("hsdag-other"));
    Files.writeString(otherName.resolve(RuntimeFolders.OWNERS), ended + " -1\n");

    Path own = RuntimeFolders.create(root);

    assertTrue(Files.isDirectory(own) && own.getFileName().toString().startsWith(RuntimeFolders.PREFIX));
    assertEquals(me + " " + myStart, Files.readString(own.resolve(RuntimeFolders.OWNERS)).trim(),
        "the new folder names this process");
    assertFalse(Files.exists(killedTune), "every process it names has ended");
    assertFalse(Files.exists(reused), "its pid runs another process now");
    for (Path kept : List.of(live, liveChild, unrecorded, garbage, otherName)) {
      assertTrue(Files.exists(kept.resolve("child.log")) || Files.exists(kept.resolve(RuntimeFolders.OWNERS)),
          "kept: " + kept);
    }
  }

  @Test
  void theChildIsAddedOnceItRunsAndKeepsTheFolderAliveAfterItsTuneEnded() throws Exception {
    Process child = new ProcessBuilder("sleep", "600").start();
    try {
      Path d = folder("orphan", endedPid() + " -1\n");
      RuntimeFolders.record(d, child.pid());
      assertFalse(RuntimeFolders.stale(d, Files.getOwner(d)), "its child still runs");
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
      assertTrue(RuntimeFolders.stale(d, Files.getOwner(d)), "both ended");
      Path own = RuntimeFolders.create(root);
      assertFalse(Files.exists(d));
      assertTrue(Files.exists(own));
    } finally {
      child.destroyForcibly();
    }
  }
}
