package org.hsdag.ir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.hsdag.io.IoErrors;

/**
 * The {@code .bin} weights of a model, checked against its Const layers. OpenVINO silently loads
 * an IR without its weights and fails much later; hsdag fails at open with the reason.
 */
public final class Weights implements AutoCloseable {
  private final FileChannel channel;
  private final Path bin;

  private Weights(FileChannel channel, Path bin) {
    this.channel = channel;
    this.bin = bin;
  }

  /**
   * Opens the weights of {@code graph} read from {@code xml}.
   *
   * @throws IrException if the {@code .bin} is missing, unreadable or shorter than a Const region
   */
  public static Weights open(OpGraph graph, Path xml) {
    Path bin = IrReader.defaultBinPath(xml);
    if (!Files.isRegularFile(bin)) {
      throw new IrException(xml + ": weights file " + bin.getFileName() + " not found; the model needs "
          + requiredBytes(graph) + " bytes of weights");
    }
    checkRegions(graph, bin, xml.toString());
    try {
      return new Weights(FileChannel.open(bin, StandardOpenOption.READ), bin);
    } catch (IOException e) {
      throw new IrException(bin + ": cannot read weights (" + IoErrors.reason(e) + ")", e);
    }
  }

  /** Largest offset + size over all Const layers: the smallest {@code .bin} the model can use. */
  public static long requiredBytes(OpGraph graph) {
    long max = 0;
    for (OpNode n : graph.nodes()) {
      if (n.isConstant()) {
        max = Math.max(max, n.constOffset() + n.constSize());
      }
    }
    return max;
  }

  /**
   * Bytes of the {@code .bin} that the Const layers use: the union of their regions, so that
   * constants sharing one region (serializers de-duplicate identical constants) count once. For a
   * {@code .bin} without unused bytes this is its size.
   */
  public static long usedBytes(OpGraph graph) {
    List<long[]> regions = new ArrayList<>();
    for (OpNode n : graph.nodes()) {
      if (n.isConstant() && n.constSize() > 0) {
        regions.add(new long[] {n.constOffset(), n.constOffset() + n.constSize()});
      }
    }
    regions.sort(Comparator.comparingLong(r -> r[0]));
    long used = 0;
    long coveredTo = 0;
    for (long[] r : regions) {
      long from = Math.max(r[0], coveredTo);
      if (r[1] > from) {
        used += r[1] - from;
        coveredTo = r[1];
      }
    }
    return used;
  }

  static void checkRegions(OpGraph graph, Path bin, String source) {
    long length;
    try {
      length = Files.size(bin);
    } catch (IOException e) {
      throw new IrException(bin + ": cannot read weights (" + IoErrors.reason(e) + ")", e);
    }
    for (OpNode n : graph.nodes()) {
      // Compared without adding: offset + size may overflow a long.
      if (n.isConstant() && (n.constOffset() > length || n.constSize() > length - n.constOffset())) {
        throw new IrException(source + ": Const layer id=" + n.id() + " '" + n.name() + "' needs bytes "
            + n.constOffset() + ".." + (n.constOffset() + n.constSize()) + " but " + bin.getFileName()
            + " has only " + length + " (truncated or wrong weights file)");
      }
    }
  }

  /** The raw little-endian bytes of a Const node. */
  public byte[] read(OpNode constant) {
    if (!constant.isConstant()) {
      throw new IllegalArgumentException("layer '" + constant.name() + "' is not a Const");
    }
    ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(constant.constSize()));
    try {
      long pos = constant.constOffset();
      while (buf.hasRemaining()) {
        int k = channel.read(buf, pos);
        if (k < 0) {
          throw new IrException(bin + ": ended early while reading '" + constant.name() + "'");
        }
        pos += k;
      }
    } catch (IOException e) {
      throw new IrException(bin + ": cannot read weights (" + IoErrors.reason(e) + ")", e);
    }
    return buf.array();
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // read-only channel: nothing to flush
    }
  }
}
