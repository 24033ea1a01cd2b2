package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HalfTest {
  @Test
  void knownEncodings() {
    assertEquals((short) 0x3c00, Half.fromFloat(1f));
    assertEquals((short) 0xc000, Half.fromFloat(-2f));
    assertEquals((short) 0x7bff, Half.fromFloat(65504f));
    assertEquals((short) 0x7c00, Half.fromFloat(1e6f));
    assertEquals((short) 0x3800, Half.fromFloat(0.5f));
    assertEquals((short) 0x0000, Half.fromFloat(1e-12f), "underflow to zero");
    assertEquals((short) 0x0001, Half.fromFloat(0x1p-24f));
    assertEquals((short) 0x3555, Half.fromFloat(1f / 3f));
    // 1 + 2^-11 is halfway between 1 and the next half: ties to even gives 1.
    assertEquals((short) 0x3c00, Half.fromFloat(1f + 0x1p-11f));
  }

  @Test
  void roundTripsEveryFiniteHalf() {
    for (int h = 0; h < 0x10000; h++) {
      short s = (short) h;
      float f = Half.toFloat(s);
      if (Float.isNaN(f)) {
        continue;
      }
      assertEquals(s, Half.fromFloat(f), "half bits " + Integer.toHexString(h));
    }
  }
}
