package org.hsdag.ir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.hsdag.io.AtomicFiles;
import org.hsdag.random.SplitMix64;

/**
 * Seeded stand-in weights for an IR whose {@code .bin} is missing: every Const region gets bytes
 * of its size, so OpenVINO can read, reshape, compile and run the model. Integer constants that
 * feed shape-like inputs get the values {@link ShapeConstants} derives from the XML's port dims;
 * float constants (and i8/u8/i4/u4 quantized weights) are seeded random; other integer data is
 * zero, which is a valid index anywhere. The same graph and seed always give the same bytes.
 */
public final class SyntheticWeights {
  private static final int CHUNK = 1 << 15;

  /** How a random float region is drawn, chosen from its first consumer. */
  public enum FloatRole {
    /** Ordinary weights: uniform ±0.05. */
    SMALL(-0.05, 0.05),
    /** A divisor: uniform [1, 2), never near zero. */
    DIVISOR(1.0, 2.0),
    /** FakeQuantize input_low / output_low: uniform [-1, -0.5), below every high. */
    RANGE_LOW(-1.0, -0.5),
    /** FakeQuantize input_high / output_high: uniform [0.5, 1). */
    RANGE_HIGH(0.5, 1.0);

    final double lo;
    final double hi;

    FloatRole(double lo, double hi) {
      this.lo = lo;
      this.hi = hi;
    }
  }

  /**
   * One region of the {@code .bin}: fixed bytes (derived values), or seeded random values of
   * {@code type} drawn per {@code role}, or zeros.
   *
   */
  public static final class Region {
    private final long offset;
    private final long size;
    private final ElementType type;
    private final byte[] fixed;
    private final FloatRole role;

    /**
     * @param offset byte offset in the {@code .bin}
     * @param size bytes
     * @param type element type the bytes are drawn in
     * @param fixed derived bytes, or null
     * @param role the random draw for a float region without fixed bytes, or null (then zeros or random integers)
     */
    public Region(long offset, long size, ElementType type, byte[] fixed, FloatRole role) {
      fixed = fixed == null ? null : fixed.clone();
      this.offset = offset;
      this.size = size;
      this.type = type;
      this.fixed = fixed;
      this.role = role;
    }

    public byte[] fixed() {
      return fixed == null ? null : fixed.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Region r && offset == r.offset && size == r.size && type == r.type
          && Arrays.equals(fixed, r.fixed) && role == r.role;
    }

    @Override
    public int hashCode() {
      return Objects.hash(offset, size, type, Arrays.hashCode(fixed), role);
    }

    public long offset() {
      return offset;
    }

    public long size() {
      return size;
    }

    public ElementType type() {
      return type;
    }

    public FloatRole role() {
      return role;
    }
  }

  /**
   * A value that could not be derived, or a compromise, and what was written instead.
   *
   * @param what the kind, which alike notes share ("MVN input 1")
   * @param layer the layer (or region) it is about
   * @param message what happened
   */
  public record Note(String what, String layer, String message) {
    @Override
    public String toString() {
      return what + " of '" + layer + "': " + message;
    }
  }

  /**
   * What {@link #plan} decided.
   *
   * @param regions the distinct regions in offset order
   * @param bytes the {@code .bin} size: the largest offset + size
   * @param derived how many Const layers got derived (non-random) values
   * @param notes values that could not be derived and what was written instead
   */
  public record Plan(List<Region> regions, long bytes, int derived, List<Note> notes) {
    public Plan {
      regions = List.copyOf(regions);
      notes = List.copyOf(notes);
    }
  }

  /**
   * The notes grouped by kind and message, one line each: {@code MVN input 1 (26 layers, e.g. 'x'): ...}.
   */
  public static List<String> summarize(List<Note> notes) {
    Map<String, List<Note>> groups = new LinkedHashMap<>();
    for (Note n : notes) {
      groups.computeIfAbsent(n.what() + "\n" + n.message(), k -> new ArrayList<>()).add(n);
    }
    List<String> lines = new ArrayList<>();
    for (List<Note> same : groups.values()) {
      Note first = same.get(0);
      lines.add(same.size() == 1 ? first.toString()
          : first.what() + " (" + same.size() + " layers, e.g. '" + first.layer() + "'): " + first.message());
    }
    return lines;
  }

  /**
   * The result of a write.
   *
   * @param plan what was written
   * @param sha256 hex SHA-256 of the written bytes
   */
  public record Written(Plan plan, String sha256) {}

  private SyntheticWeights() {}

  /** Decides the bytes of every Const region of {@code graph}; nothing is drawn yet. */
  public static Plan plan(OpGraph graph) {
    ShapeConstants.Result derived = ShapeConstants.derive(graph);
    List<Note> notes = new ArrayList<>(derived.notes());
    Map<Long, List<OpNode>> groups = new LinkedHashMap<>();
    for (OpNode n : graph.nodes()) {
      if (n.isConstant() && n.constSize() > 0) {
        groups.computeIfAbsent(n.constOffset(), k -> new ArrayList<>()).add(n);
      }
    }
    List<Region> regions = new ArrayList<>();
    int count = 0;
    for (List<OpNode> users : groups.values()) {
      // Constants sharing an offset but not a size get the largest; the shorter ones read its prefix.
      OpNode first = users.stream().max((a, b) -> Long.compare(a.constSize(), b.constSize())).orElseThrow();
      byte[] fixed = fixedBytes(users, derived, notes);
      if (fixed != null) {
        count += (int) users.stream().filter(u -> derived.integers().containsKey(u.index())
            || derived.floats().containsKey(u.index())).count();
        if (fixed.length < first.constSize()) {
          fixed = Arrays.copyOf(fixed, Math.toIntExact(first.constSize()));
        }
      }
      ElementType type = ShapeConstants.constType(users.get(0));
      FloatRole role = isFloat(type) ? role(graph, users.get(0)) : null;
      regions.add(new Region(first.constOffset(), first.constSize(), type, fixed, role));
    }
    regions.sort((a, b) -> Long.compare(a.offset(), b.offset()));
    long end = 0;
    for (Region r : regions) {
      if (r.offset() < end) {
        notes.add(
            new Note("Const region", "offset " + r.offset(), "overlaps the region before it; the earlier bytes win"));
      }
      end = Math.max(end, r.offset() + r.size());
    }
    notes.addAll(DerivedValuesCheck.check(graph, regions));
    return new Plan(regions, Weights.requiredBytes(graph), count, notes);
  }

  /** Writes the {@code .bin} of {@code graph} for {@code seed} to {@code bin}, atomically. */
  public static Written write(OpGraph graph, long seed, Path bin) throws IOException {
    Plan plan = plan(graph);
    MessageDigest md = sha256();
    AtomicFiles.write(bin, out -> {
      DigestOutputStream d = new DigestOutputStream(out, md);
      write(plan, seed, d);
      d.flush();
    });
    return new Written(plan, HexFormat.of().formatHex(md.digest()));
  }

  /** Streams the bytes of {@code plan} for {@code seed}; regions are drawn chunk by chunk, never held whole. */
  public static void write(Plan plan, long seed, OutputStream out) throws IOException {
    long pos = 0;
    byte[] zeros = new byte[CHUNK];
    for (Region r : plan.regions()) {
      long skip = Math.max(0, pos - r.offset());
      for (long gap = r.offset() - pos; gap > 0; gap -= CHUNK) {
        out.write(zeros, 0, (int) Math.min(CHUNK, gap));
      }
      if (skip < r.size()) {
        writeRegion(r, seed, skip, out);
      }
      pos = Math.max(pos, r.offset() + r.size());
    }
    // An empty Const may point past every region; the file still has to reach it.
    for (long gap = plan.bytes() - pos; gap > 0; gap -= CHUNK) {
      out.write(zeros, 0, (int) Math.min(CHUNK, gap));
    }
  }

  /**
   * A per-stream seed: SplitMix64's finaliser over the seed and the stream number, so each region
   * (stream = its offset) is reproducible on its own and independent of the others.
   */
  public static long streamSeed(long seed, long stream) {
    return SplitMix64.stream(seed, stream);
  }

  /** A uniform double in [0, 1) from 53 random bits, by hand so the bytes never depend on the JDK's bounded draws. */
  public static double unit(SplittableRandom rnd) {
    return (rnd.nextLong() >>> 11) * 0x1.0p-53;
  }

  private static void writeRegion(Region r, long seed, long skip, OutputStream out) throws IOException {
    if (r.fixed() != null) {
      out.write(r.fixed(), (int) skip, (int) (r.size() - skip));
      return;
    }
    SplittableRandom rnd = new SplittableRandom(streamSeed(seed, r.offset()));
    ElementType t = r.type();
    boolean random = r.role() != null || isQuantizedWeight(t);
    byte[] buf = new byte[CHUNK];
    ByteBuffer bb = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
    long left = r.size();
    long toSkip = skip;
    while (left > 0) {
      bb.clear();
      int n = (int) Math.min(CHUNK, left);
      if (random) {
        // CHUNK is a multiple of every element size, so elements never straddle two chunks.
        int size = Math.max(1, t.bitWidth() / 8);
        while (bb.position() + size <= n && draw(t, r.role(), rnd, bb)) {
          // one element drawn
        }
        while (bb.position() < n) {
          bb.put((byte) 0); // a tail shorter than one element (a region size the type does not divide)
        }
      } else {
        Arrays.fill(buf, 0, n, (byte) 0);
      }
      int from = (int) Math.min(toSkip, n);
      out.write(buf, from, n - from);
      toSkip -= from;
      left -= n;
    }
  }

  /** Draws one element (two for 4-bit types, one byte for other sub-byte types) into {@code bb}. */
  private static boolean draw(ElementType t, FloatRole role, SplittableRandom rnd, ByteBuffer bb) {
    FloatRole f = role == null ? FloatRole.SMALL : role;
    double v = f.lo + (f.hi - f.lo) * unit(rnd);
    switch (t) {
      case F32 -> bb.putFloat((float) v);
      case F64 -> bb.putDouble(v);
      case F16 -> bb.putShort(Half.fromFloat((float) v));
      case BF16 -> bb.putShort(bfloat16((float) v));
      case I8 -> bb.put((byte) (rnd.nextLong() % 128));
      case U8 -> bb.put((byte) (rnd.nextLong() >>> 56));
      case I4, U4 -> bb.put((byte) (rnd.nextLong() >>> 56));
      default -> {
        return false;
      }
    }
    return true;
  }

  /** bfloat16 bits of {@code f}: the top half of its float bits, rounded to nearest even. */
  static short bfloat16(float f) {
    int bits = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) {
      return (short) ((bits >>> 16) | 0x40);
    }
    int rounding = 0x7fff + ((bits >>> 16) & 1);
    return (short) ((bits + rounding) >>> 16);
  }

  static boolean isQuantizedWeight(ElementType t) {
    return t == ElementType.I8 || t == ElementType.U8 || t == ElementType.I4 || t == ElementType.U4;
  }

  private static boolean isFloat(ElementType t) {
    return t == ElementType.F32 || t == ElementType.F16 || t == ElementType.BF16 || t == ElementType.F64;
  }

  private static FloatRole role(OpGraph g, OpNode n) {
    for (int j = 0; j < g.outDegree(n.index()); j++) {
      Edge e = g.edge(g.outEdge(n.index(), j));
      String type = g.node(e.target()).type();
      if ("FakeQuantize".equals(type) && e.targetInput() >= 1) {
        return e.targetInput() % 2 == 1 ? FloatRole.RANGE_LOW : FloatRole.RANGE_HIGH;
      }
      if ("Divide".equals(type) && e.targetInput() == 1) {
        return FloatRole.DIVISOR;
      }
    }
    return FloatRole.SMALL;
  }

  /**
   * The bytes every user of one region accepts: the first alternative (in user order) that each
   * requirement allows. When none fits all, the first user's first choice is written and noted.
   */
  private static byte[] fixedBytes(List<OpNode> users, ShapeConstants.Result derived, List<Note> notes) {
    List<List<byte[]>> accepted = new ArrayList<>();
    List<String> whys = new ArrayList<>();
    String firstWanted = null;
    for (OpNode u : users) {
      for (ShapeConstants.Requirement req : derived.integers().getOrDefault(u.index(), List.of())) {
        List<byte[]> alts = new ArrayList<>();
        for (long[] a : req.alternatives()) {
          alts.add(encode(ShapeConstants.constType(u), a));
        }
        accepted.add(alts);
        firstWanted = firstWanted == null ? Arrays.toString(req.alternatives().get(0)) : firstWanted;
        whys.add(req.why() + " wants " + Arrays.toString(req.alternatives().get(0)) + " in '" + u.name() + "'");
      }
    }
    if (accepted.isEmpty()) {
      for (OpNode u : users) {
        double[] f = derived.floats().get(u.index());
        if (f != null) {
          return encodeFloats(ShapeConstants.constType(u), f);
        }
      }
      return null;
    }
    for (List<byte[]> alts : accepted) {
      for (byte[] candidate : alts) {
        if (accepted.stream().allMatch(other -> other.stream().anyMatch(b -> Arrays.equals(b, candidate)))) {
          return candidate;
        }
      }
    }
    notes.add(new Note("shared Const region", "offset " + users.get(0).constOffset(),
        "its users need different values: " + String.join("; ", whys) + "; wrote " + firstWanted
            + ", what the first of them wants"));
    return accepted.get(0).get(0);
  }

  /** Little-endian bytes of integer values in {@code t} (4-bit types packed low nibble first). */
  static byte[] encode(ElementType t, long[] values) {
    ByteBuffer bb = ByteBuffer.allocate((int) Math.max(t.byteSize(values.length), 0)).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < values.length; i++) {
      long v = values[i];
      switch (t) {
        case I64, U64 -> bb.putLong(v);
        case I32, U32 -> bb.putInt((int) v);
        case I16, U16 -> bb.putShort((short) v);
        case I8, U8, BOOLEAN -> bb.put((byte) v);
        case I4, U4 -> {
          int at = i / 2;
          bb.put(at, (byte) (bb.get(at) | (v & 0xf) << (4 * (i % 2))));
        }
        case F32, F16, BF16, F64 -> {
          return encodeFloats(t, Arrays.stream(values).asDoubleStream().toArray());
        }
        default -> {
        } // other sub-byte and exotic types: zeros
      }
    }
    return bb.array();
  }

  static byte[] encodeFloats(ElementType t, double[] values) {
    ByteBuffer bb = ByteBuffer.allocate((int) t.byteSize(values.length)).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      switch (t) {
        case F32 -> bb.putFloat((float) v);
        case F64 -> bb.putDouble(v);
        case F16 -> bb.putShort(Half.fromFloat((float) v));
        case BF16 -> bb.putShort(bfloat16((float) v));
        default -> throw new IllegalArgumentException("not a float type: " + t);
      }
    }
    return bb.array();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
