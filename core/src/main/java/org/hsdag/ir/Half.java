package org.hsdag.ir;

/**
 * IEEE 754 binary16 conversion (Java 17 has no {@code Float.floatToFloat16}). Rounds to nearest,
 * ties to even, as OpenVINO's FP16 compression does; overflow becomes infinity.
 */
public final class Half {
  private Half() {}

  /** The binary16 bits of {@code f}. */
  public static short fromFloat(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int exp = (bits >>> 23) & 0xff;
    int mant = bits & 0x7fffff;
    if (exp == 0xff) {
      // Inf stays Inf; NaN keeps a quiet-NaN payload bit.
      return (short) (sign | 0x7c00 | (mant != 0 ? 0x200 : 0));
    }
    int e = exp - 127 + 15;
    if (e >= 0x1f) {
      return (short) (sign | 0x7c00);
    }
    if (e <= 0) {
      if (e < -10) {
        return (short) sign;
      }
      // Subnormal half: shift the full significand (with its implicit 1) into place, then round.
      int m = mant | 0x800000;
      int shift = 14 - e;
      int half = m >>> shift;
      int rem = m & ((1 << shift) - 1);
      int mid = 1 << (shift - 1);
      if (rem > mid || (rem == mid && (half & 1) != 0)) {
        half++;
      }
      return (short) (sign | half);
    }
    int half = (e << 10) | (mant >>> 13);
    int rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (half & 1) != 0)) {
      half++; // may carry into the exponent, which is the correct rounding (up to Inf)
    }
    return (short) (sign | half);
  }

  /** The float value of binary16 bits {@code h}. */
  public static float toFloat(short h) {
    int bits = h & 0xffff;
    int sign = (bits & 0x8000) << 16;
    int exp = (bits >>> 10) & 0x1f;
    int mant = bits & 0x3ff;
    if (exp == 0) {
      float v = mant * 0x1p-24f;
      return sign != 0 ? -v : v;
    }
    if (exp == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
    }
    return Float.intBitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
  }
}
