package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One real tune measures per machine: the second names the first's pid and waits until it is done. */
class MachineLockTest {
  @TempDir
  Path dir;

  @Test
  void aSecondTuneNamesTheHolderAndGetsTheLockOnceItIsReleased() throws Exception {
    String pid = Long.toString(ProcessHandle.current().pid());
    MachineLock first = MachineLock.tryAcquire(dir, h -> {});
    assertNotNull(first);
    String[] holder = {null};
    assertNull(MachineLock.tryAcquire(dir, h -> holder[0] = h));
    assertEquals(pid, holder[0]);
    assertEquals("another hsdag tune (pid " + pid + ") is measuring on this machine", MachineLock.busy(holder[0]));
    first.close();
    MachineLock again = MachineLock.tryAcquire(dir, h -> {});
    assertNotNull(again, "a released lock is free");
    again.close();
  }

  @Test
  void theWaitingTuneSaysWhyAndGoesOnWhenTheHolderFinishes() throws Exception {
    MachineLock first = MachineLock.tryAcquire(dir, h -> {});
    List<String> lines = new CopyOnWriteArrayList<>();
    AtomicReference<MachineLock> second = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        second.set(MachineLock.acquire(dir, lines::add, 3600));
      } catch (Exception e) {
        lines.add("failed: " + e);
      }
    });
    waiter.start();
    while (lines.isEmpty()) {
      Thread.sleep(20);
    }
    assertTrue(lines.get(0).startsWith("another hsdag tune (pid "), lines.get(0));
    assertTrue(lines.get(0).contains("waiting for it"), lines.get(0));
    assertNull(second.get(), "it waits while the first holds the lock");
    first.close();
    waiter.join();
    assertNotNull(second.get());
    assertTrue(lines.get(lines.size() - 1).startsWith("the other tune finished; measuring now"), lines.toString());
    second.get().close();
  }
}
