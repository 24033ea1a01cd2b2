package org.hsdag.ir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What the numbers of a {@code .bin} say about it: a file whose floating-point constants hold no
 * number at all (every value NaN) is no model's weights. Each constant is read only until its first
 * number, so a real model costs one small read per constant.
 */
final class WeightValues {
  private static final int CHUNK = 4096;

  private WeightValues() {}

  /** Why the weights of {@code graph} beside {@code xml} hold no number, or null when some constant holds one. */
  static String noNumbers(OpGraph graph, Path xml) {
    int floats = 0;
    try (FileChannel ch = FileChannel.open(IrReader.defaultBinPath(xml), StandardOpenOption.READ)) {
      for (OpNode n : graph.nodes()) {
        ElementType t = n.isConstant() ? ElementType.parse(n.attributes().getOrDefault("element_type", "undefined"))
            : ElementType.UNDEFINED;
        int width = width(t);
        if (width == 0 || n.constSize() < width) {
          continue;
        }
        floats++;
        if (holdsNumber(ch, n.constOffset(), n.constSize(), t, width)) {
          return null;
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      return null; // unreadable or odd element types: the region checks and the runtime say what is wrong
    }
    return floats == 0 ? null
        : "its " + floats + " floating-point constant" + (floats == 1 ? " holds" : "s hold") + " only NaN";
  }

  private static int width(ElementType t) {
    return switch (t) {
      case F64 -> 8;
      case F32 -> 4;
      case F16, BF16 -> 2;
      default -> 0;
    };
  }

  private static boolean holdsNumber(FileChannel ch, long offset, long size, ElementType t, int width)
      throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
    long pos = offset;
    long end = offset + size - size % width;
    while (pos < end) {
      buf.clear().limit((int) Math.min(CHUNK, end - pos));
      int k = ch.read(buf, pos);
      if (k <= 0) {
        return false;
      }
      buf.flip();
      while (buf.remaining() >= width) {
        if (!isNaN(buf, t)) {
          return true;
        }
      }
      pos += k - buf.remaining();
    }
    return false;
  }

  private static boolean isNaN(ByteBuffer b, ElementType t) {
    return switch (t) {
      case F64 -> Double.isNaN(b.getDouble());
      case F32 -> Float.isNaN(b.getFloat());
      case F16 -> (b.getShort() & 0x7fff) > 0x7c00;
      default -> (b.getShort() & 0x7fff) > 0x7f80; // bf16
    };
  }
}
