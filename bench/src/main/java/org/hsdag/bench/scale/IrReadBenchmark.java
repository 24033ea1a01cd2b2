package org.hsdag.bench.scale;

import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;

/**
 * Reads a synthetic IR of N layers (default 100,000) and prints wall time per read and the peak
 * heap used. Run with the heap the target allows, e.g.
 * {@code java -Xmx1g -cp ... org.hsdag.bench.scale.IrReadBenchmark 100000}.
 */
public final class IrReadBenchmark {
  private IrReadBenchmark() {}

  public static void main(String[] args) throws Exception {
    int layers = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Path xml = Files.createTempFile("hsdag-synthetic-", ".xml");
    try {
      int written;
      try (Writer w = Files.newBufferedWriter(xml)) {
        written = SyntheticIr.write(w, layers);
      }
      System.out.printf("synthetic IR: %,d layers, %,d bytes of XML, max heap %d MiB%n",
          written, Files.size(xml), Runtime.getRuntime().maxMemory() >> 20);
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      double best = Double.MAX_VALUE;
      OpGraph g = null;
      for (int i = 0; i < repeats; i++) {
        g = null;
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        g = new IrReader().read(xml, null);
        double s = (System.nanoTime() - t0) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
        best = Math.min(best, s);
        // CPU time of the reading thread shows the cost apart from waiting on a busy machine.
        System.out.printf("read %d: %.3f s wall, %.3f s CPU (%d nodes, %d edges)%n", i + 1, s, cpu, g.nodeCount(),
            g.edgeCount());
      }
      long peak = 0;
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP) {
          peak += pool.getPeakUsage().getUsed();
        }
      }
      System.out.printf("best read %.3f s; peak heap used %d MiB (sum of pool peaks)%n", best, peak >> 20);
    } finally {
      Files.deleteIfExists(xml);
    }
  }
}
