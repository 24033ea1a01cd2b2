package org.hsdag.openvino;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The frames the tune and its runtime child ({@link RuntimeChild}) exchange: a 4-byte length, then a
 * list of tagged values (null, string, int, long, double, boolean, arrays of long, double, float and
 * boolean, nested lists, string maps). Plain data only, never Java serialization; arrays travel as
 * raw numbers so samples, inputs and outputs cost no text conversion. A request is {@code [id, op,
 * handle, args…]}, an answer {@code [id, "ok", values…]} or {@code [id, "error", kind, message]};
 * a new call is one new op name on both sides.
 */
final class Wire {
  /** Largest frame read: bigger means a corrupt stream, not a real answer. */
  static final int MAX_FRAME = 1 << 30;

  private Wire() {}

  /** Writes {@code values} as one frame and flushes. */
  static void write(OutputStream out, List<?> values) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    DataOutputStream body = new DataOutputStream(bytes);
    writeList(body, values);
    body.flush();
    DataOutputStream d = new DataOutputStream(out);
    d.writeInt(bytes.size());
    bytes.writeTo(d);
    d.flush();
  }

  /**
   * Reads one frame.
   *
   * @throws java.io.EOFException at the end of the stream (the other side is gone)
   * @throws IOException for a frame that is not well formed
   */
  static List<Object> read(InputStream in) throws IOException {
    DataInputStream d = new DataInputStream(in);
    int length = d.readInt();
    if (length < 0 || length > MAX_FRAME) {
      throw new IOException("corrupt frame (length " + length + ")");
    }
    byte[] body = new byte[length];
    d.readFully(body);
    DataInputStream b = new DataInputStream(new java.io.ByteArrayInputStream(body));
    if (b.readByte() != 'L') {
      throw new IOException("corrupt frame (not a list)");
    }
    return readList(b);
  }

  private static void writeList(DataOutputStream out, List<?> values) throws IOException {
    out.writeByte('L');
    out.writeInt(values.size());
    for (Object v : values) {
      writeValue(out, v);
    }
  }

  private static void writeValue(DataOutputStream out, Object v) throws IOException {
    if (v == null) {
      out.writeByte('N');
    } else if (v instanceof String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.writeByte('S');
      out.writeInt(b.length);
      out.write(b);
    } else if (v instanceof Integer i) {
      out.writeByte('I');
      out.writeInt(i);
    } else if (v instanceof Long l) {
      out.writeByte('J');
      out.writeLong(l);
    } else if (v instanceof Double x) {
      out.writeByte('D');
      out.writeDouble(x);
    } else if (v instanceof Boolean z) {
      out.writeByte('Z');
      out.writeBoolean(z);
    } else if (v instanceof List<?> list) {
      writeList(out, list);
    } else if (v instanceof Map<?, ?> map) {
      out.writeByte('M');
      out.writeInt(map.size());
      for (Map.Entry<?, ?> e : map.entrySet()) {
        writeValue(out, (String) e.getKey());
        writeValue(out, (String) e.getValue());
      }
    } else {
      writeArray(out, v);
    }
  }

  private static void writeArray(DataOutputStream out, Object v) throws IOException {
    if (v instanceof long[] a) {
      out.writeByte('l');
      out.writeInt(a.length);
      for (long x : a) {
        out.writeLong(x);
      }
    } else if (v instanceof double[] a) {
      out.writeByte('d');
      out.writeInt(a.length);
      for (double x : a) {
        out.writeDouble(x);
      }
    } else if (v instanceof float[] a) {
      out.writeByte('f');
      out.writeInt(a.length);
      for (float x : a) {
        out.writeFloat(x);
      }
    } else if (v instanceof boolean[] a) {
      out.writeByte('z');
      out.writeInt(a.length);
      for (boolean x : a) {
        out.writeBoolean(x);
      }
    } else {
      throw new IllegalArgumentException("no wire form for " + v.getClass().getName());
    }
  }

  private static List<Object> readList(DataInputStream in) throws IOException {
    int n = count(in);
    List<Object> out = new ArrayList<>(Math.min(n, 1024));
    for (int i = 0; i < n; i++) {
      out.add(readValue(in, in.readByte()));
    }
    return Collections.unmodifiableList(out);
  }

  private static Object readValue(DataInputStream in, byte tag) throws IOException {
    return switch (tag) {
      case 'N' -> null;
      case 'S' -> {
        byte[] b = new byte[count(in)];
        in.readFully(b);
        yield new String(b, StandardCharsets.UTF_8);
      }
      case 'I' -> in.readInt();
      case 'J' -> in.readLong();
      case 'D' -> in.readDouble();
      case 'Z' -> in.readBoolean();
      case 'L' -> readList(in);
      case 'M' -> readMap(in);
      default -> readArray(in, tag);
    };
  }

  private static Map<String, String> readMap(DataInputStream in) throws IOException {
    int n = count(in);
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      out.put((String) readValue(in, in.readByte()), (String) readValue(in, in.readByte()));
    }
    return out;
  }

  private static Object readArray(DataInputStream in, byte tag) throws IOException {
    int n = count(in);
    switch (tag) {
      case 'l' -> {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
          a[i] = in.readLong();
        }
        return a;
      }
      case 'd' -> {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
          a[i] = in.readDouble();
        }
        return a;
      }
      case 'f' -> {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
          a[i] = in.readFloat();
        }
        return a;
      }
      case 'z' -> {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
          a[i] = in.readBoolean();
        }
        return a;
      }
      default -> throw new IOException("corrupt frame (unknown tag " + tag + ")");
    }
  }

  private static int count(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_FRAME) {
      throw new IOException("corrupt frame (count " + n + ")");
    }
    return n;
  }
}
