package org.hsdag.ir;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** OpenVINO element types, with their lower-case IR name and upper-case port precision spelling. */
public enum ElementType {
  BOOLEAN("boolean", "BOOL", 8), BF16("bf16", "BF16", 16), F16("f16", "FP16", 16), F32("f32", "FP32", 32), F64("f64",
      "FP64", 64), I4("i4", "I4", 4), I8("i8", "I8", 8), I16("i16", "I16", 16), I32("i32", "I32", 32), I64("i64", "I64",
          64), U1("u1", "U1", 1), U2("u2", "U2", 2), U3("u3", "U3", 3), U4("u4", "U4", 4), U6("u6", "U6",
              6), U8("u8", "U8", 8), U16("u16", "U16", 16), U32("u32", "U32", 32), U64("u64", "U64",
                  64), NF4("nf4", "NF4", 4), F8E4M3("f8e4m3", "F8E4M3", 8), F8E5M2("f8e5m2", "F8E5M2",
                      8), STRING("string", "STRING", 8), F4E2M1("f4e2m1", "F4E2M1", 4), F8E8M0("f8e8m0", "F8E8M0",
                          8), DYNAMIC("dynamic", "DYNAMIC", 0), UNDEFINED("undefined", "UNSPECIFIED", 0);

  private static final Map<String, ElementType> BY_SPELLING = new HashMap<>();
  /** The two spellings serializers write, looked up without trimming or case folding (the common case). */
  private static final Map<String, ElementType> EXACT = new HashMap<>();

  static {
    for (ElementType t : values()) {
      BY_SPELLING.put(t.irName, t);
      BY_SPELLING.put(t.precision.toLowerCase(Locale.ROOT), t);
      EXACT.put(t.irName, t);
      EXACT.put(t.precision, t);
    }
    // Spellings seen in older IRs and in the C API enum.
    BY_SPELLING.put("bool", BOOLEAN);
    BY_SPELLING.put("undefined", UNDEFINED);
    BY_SPELLING.put("unspecified", UNDEFINED);
    BY_SPELLING.put("fp8e4m3", F8E4M3);
    BY_SPELLING.put("fp8e5m2", F8E5M2);
  }

  private final String irName;
  private final String precision;
  private final int bitWidth;

  ElementType(String irName, String precision, int bitWidth) {
    this.irName = irName;
    this.precision = precision;
    this.bitWidth = bitWidth;
  }

  /** Lower-case name used in {@code <data element_type=...>}. */
  public String irName() {
    return irName;
  }

  /** Upper-case spelling used in port {@code precision} attributes. */
  public String precision() {
    return precision;
  }

  /** Bits per element; 0 for dynamic and undefined. */
  public int bitWidth() {
    return bitWidth;
  }

  /** Bytes needed for {@code elements} values, packing sub-byte types as OpenVINO does. */
  public long byteSize(long elements) {
    return (elements * bitWidth + 7) / 8;
  }

  /**
   * Parses either spelling, case-insensitively.
   *
   * @throws IllegalArgumentException for an unknown spelling
   */
  public static ElementType parse(String spelling) {
    ElementType exact = EXACT.get(spelling);
    if (exact != null) {
      return exact;
    }
    ElementType t = BY_SPELLING.get(spelling.trim().toLowerCase(Locale.ROOT));
    if (t == null) {
      throw new IllegalArgumentException("unknown element type '" + spelling + "'");
    }
    return t;
  }
}
