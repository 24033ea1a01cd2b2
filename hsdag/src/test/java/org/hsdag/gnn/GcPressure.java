package org.hsdag.gnn;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory pressure for tests of native tensors: frees every unreachable Java direct buffer (a
 * collection, then waiting until the JVM has released a dropped sentinel buffer), then takes the
 * freed native memory back filled with junk. A tensor that still reads a collected buffer — as
 * autograd did with DJL's number operands — then sees garbage instead of its old values.
 */
public final class GcPressure {
  private static final int ATTEMPTS = 200;

  private GcPressure() {}

  /** Applies the pressure; keep the returned junk reachable until the code under test has run. */
  public static List<ByteBuffer> apply() throws InterruptedException {
    BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
    long before = direct.getMemoryUsed();
    ByteBuffer.allocateDirect(1 << 20); // dropped at once: its release shows that the cleaners ran
    for (int i = 0; i < ATTEMPTS && direct.getMemoryUsed() > before; i++) {
      System.gc();
      Thread.sleep(5);
    }
    List<ByteBuffer> junk = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      ByteBuffer b = ByteBuffer.allocateDirect(4 + i % 61);
      while (b.hasRemaining()) {
        b.put((byte) 0x7F);
      }
      junk.add(b);
    }
    return junk;
  }
}
