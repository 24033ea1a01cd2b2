package org.hsdag.models;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.IrWriter;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/**
 * A model produced by {@link IrBuilder}: the {@link OpGraph} (which fixes the XML) and the plan of
 * its {@code .bin} (which, with a seed, fixes the weights). The same seed always yields the same
 * bytes; the XML does not depend on the seed.
 */
public final class GeneratedModel {
  private final OpGraph graph;
  private final List<ConstBlob> blobs;
  private final Map<Integer, long[]> integerValues;
  private final Map<Long, ConstBlob> blobAt = new HashMap<>();

  GeneratedModel(OpGraph graph, List<ConstBlob> blobs, Map<Integer, long[]> integerValues) {
    this.graph = graph;
    this.blobs = List.copyOf(blobs);
    this.integerValues = Map.copyOf(integerValues);
    for (ConstBlob b : this.blobs) {
      blobAt.put(b.offset(), b);
    }
  }

  public OpGraph graph() {
    return graph;
  }

  /** The {@code .bin} regions in offset order; they tile the file without gaps. */
  public List<ConstBlob> blobs() {
    return blobs;
  }

  /** Size of the {@code .bin} in bytes. */
  public long binSize() {
    return blobs.isEmpty() ? 0 : blobs.get(blobs.size() - 1).end();
  }

  /** The values of an integer (i32/i64) Const node, or null for any other node. */
  public long[] integerValues(int node) {
    long[] v = integerValues.get(node);
    return v == null ? null : v.clone();
  }

  /** The IR XML text. */
  public String xml() {
    return new IrWriter().toXml(graph);
  }

  /** Streams the {@code .bin} for {@code seed}. */
  public void writeBin(OutputStream out, long seed) throws IOException {
    for (ConstBlob b : blobs) {
      b.data().writeTo(out, seed);
    }
  }

  /** The bytes a Const node reads from the {@code .bin} for {@code seed}. */
  public byte[] constBytes(int node, long seed) {
    OpNode n = graph.node(node);
    ConstBlob b = blobAt.get(n.constOffset());
    if (!n.isConstant() || b == null || b.data().size() != n.constSize()) {
      throw new IllegalArgumentException("node " + node + " is not a Const of this model");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) n.constSize());
    try {
      b.data().writeTo(out, seed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** SHA-256 of the {@code .bin} for {@code seed}, computed by streaming (nothing is written). */
  public String binSha256(long seed) {
    MessageDigest md = sha256();
    try {
      writeBin(new DigestOutputStream(OutputStream.nullOutputStream(), md), seed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /**
   * Writes {@code xml} and its sibling {@code .bin}, each atomically. The XML is rewritten only when
   * its text differs, so a committed file keeps its timestamp.
   *
   * @return SHA-256 of the written {@code .bin}
   */
  public String writeTo(Path xml, long seed) throws IOException {
    String text = xml();
    if (!Files.isRegularFile(xml) || !Files.readString(xml, StandardCharsets.UTF_8).equals(text)) {
      AtomicFiles.writeString(xml, text);
    }
    MessageDigest md = sha256();
    AtomicFiles.write(IrReader.defaultBinPath(xml), out -> {
      DigestOutputStream d = new DigestOutputStream(out, md);
      writeBin(d, seed);
      d.flush();
    });
    return HexFormat.of().formatHex(md.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
