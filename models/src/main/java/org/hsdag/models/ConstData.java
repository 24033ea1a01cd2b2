package org.hsdag.models;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.hsdag.ir.Half;
import org.hsdag.ir.SyntheticWeights;

/**
 * The bytes of one Const region in a generated {@code .bin}: either literal values (shapes, axes,
 * masks, scales) or a pseudo-random f16 weight tensor drawn from the model seed. Random tensors are
 * produced on demand, so a 200 MB {@code .bin} is streamed, never held in memory.
 */
public sealed interface ConstData permits ConstData.Literal, ConstData.RandomHalf {
  /** Size in bytes. */
  long size();

  /** Writes the bytes for model seed {@code seed}. */
  void writeTo(OutputStream out, long seed) throws IOException;

  /** Fixed little-endian bytes, independent of the seed. */
  static final class Literal implements ConstData {
    private final byte[] bytes;

    public Literal(byte[] bytes) {
      bytes = bytes.clone();
      this.bytes = bytes;
    }

    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public long size() {
      return bytes.length;
    }

    @Override
    public void writeTo(OutputStream out, long seed) throws IOException {
      out.write(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Literal l && Arrays.equals(bytes, l.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }

  /**
   * {@code count} binary16 values, uniform per {@code init}, from a stream derived from the model
   * seed and {@code stream} (the tensor's ordinal), so each tensor is reproducible on its own.
   */
  record RandomHalf(long count, Init init, long stream) implements ConstData {
    private static final int CHUNK = 1 << 15;

    @Override
    public long size() {
      return count * 2;
    }

    @Override
    public void writeTo(OutputStream out, long seed) throws IOException {
      SplittableRandom rnd = new SplittableRandom(SyntheticWeights.streamSeed(seed, stream));
      byte[] buf = new byte[CHUNK * 2];
      double lo = init.center() - init.halfWidth();
      double width = 2.0 * init.halfWidth();
      long left = count;
      while (left > 0) {
        int n = (int) Math.min(CHUNK, left);
        for (int i = 0; i < n; i++) {
          double u = SyntheticWeights.unit(rnd);
          float v = (float) (lo + width * u);
          short h = Half.fromFloat(v);
          buf[2 * i] = (byte) h;
          buf[2 * i + 1] = (byte) (h >>> 8);
        }
        out.write(buf, 0, 2 * n);
        left -= n;
      }
    }
  }
}
