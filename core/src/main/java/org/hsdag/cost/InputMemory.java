package org.hsdag.cost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.hsdag.memory.MemoryModel;
import org.hsdag.memory.MemoryUse;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.Weights;

/**
 * What running a model at its input sizes needs at least, before anything is compiled: its weights and the
 * peak of its live activations on one device ({@link MemoryModel} with the tensors at those sizes). A
 * runtime needs more (its own buffers, compiled kernels), never less, so a model whose estimate already
 * exceeds the memory available is refused instead of growing until the system kills something.
 *
 * @param weightBytes the {@code .bin} bytes the constants use
 * @param activationBytes the activation peak at the input sizes, all ops on one device
 */
public record InputMemory(long weightBytes, long activationBytes) {
  /** Where Linux says how much memory can be allocated without swapping. */
  public static final Path MEMINFO = Path.of("/proc/meminfo");

  /** The estimate for {@code graph} with its dynamic dims sized by {@code shapes}. */
  public static InputMemory estimate(OpGraph graph, ShapeAssumption shapes) {
    TensorShapes sized = TensorShapes.of(graph, shapes);
    MemoryModel m = new MemoryModel(graph, (v, port) -> {
      ElementType t = graph.node(v).outputs().get(port).elementType();
      ElementType type = t == null || t.bitWidth() == 0 ? ElementType.F32 : t;
      long elements = boundedElements(sized.output(v, port));
      return elements == TENSOR_CAP ? TENSOR_CAP : type.byteSize(elements);
    });
    MemoryUse use = m.use(new int[graph.nodeCount()], 1, new long[] {0}, new long[] {Long.MAX_VALUE},
        List.of("host")).get(0);
    return new InputMemory(Weights.usedBytes(graph), use.activationPeakBytes());
  }

  /**
   * Elements (and bytes) one tensor counts for at most: sizes beyond the simulator's bound reach a
   * real runtime, so the sums here must not wrap; 2^44 bytes already exceed any machine's memory.
   */
  static final long TENSOR_CAP = 1L << 44;

  /** The elements of a tensor of {@code dims}, at most {@link #TENSOR_CAP}. */
  static long boundedElements(long[] dims) {
    long n = 1;
    for (long d : dims) {
      if (d > 0 && n > TENSOR_CAP / d) {
        return TENSOR_CAP;
      }
      n *= Math.max(d, 0);
    }
    return Math.min(n, TENSOR_CAP);
  }

  /** Weights + activation peak (saturating). */
  public long totalBytes() {
    long t = weightBytes + activationBytes;
    return t < 0 ? Long.MAX_VALUE : t;
  }

  /** {@code MemAvailable} of a {@code /proc/meminfo} file in bytes, empty when it cannot be read. */
  public static OptionalLong availableBytes(Path meminfo) {
    try {
      for (String line : Files.readAllLines(meminfo)) {
        if (line.startsWith("MemAvailable:")) {
          java.util.Scanner f = new java.util.Scanner(line.substring("MemAvailable:".length()));
          long value = f.nextLong();
          return OptionalLong.of(f.hasNext() && f.next().equalsIgnoreCase("kB") ? value * 1024 : value);
        }
      }
    } catch (IOException | RuntimeException e) {
      // No figure (not Linux, unreadable): no check rather than a guess.
    }
    return OptionalLong.empty();
  }

  /** The one-line refusal when the estimate exceeds {@code availableBytes}, else empty. */
  public Optional<String> refusal(long availableBytes, String sizes) {
    if (totalBytes() <= availableBytes) {
      return Optional.empty();
    }
    return Optional.of(String.format(Locale.ROOT,
        "the model%s needs at least %s (weights %s + activations %s at their peak) but this machine has %s"
            + " available (MemAvailable); give smaller sizes with --input-shape",
        sizes.isEmpty() ? "" : " at " + sizes, gib(totalBytes()), gib(weightBytes), gib(activationBytes),
        gib(availableBytes)));
  }

  private static String gib(long bytes) {
    return bytes == Long.MAX_VALUE ? "more than 8 EiB" : String.format(Locale.ROOT, "%.2f GiB", bytes / 1073741824.0);
  }
}
