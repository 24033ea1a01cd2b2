package org.hsdag.io;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** Length-prefixed int arrays in the binary checkpoint files. */
public final class DataArrays {
  private DataArrays() {}

  public static void writeInts(DataOutputStream out, int[] v) throws IOException {
    out.writeInt(v.length);
    for (int x : v) {
      out.writeInt(x);
    }
  }

  public static int[] readInts(DataInputStream in) throws IOException {
    int[] v = new int[in.readInt()];
    for (int i = 0; i < v.length; i++) {
      v[i] = in.readInt();
    }
    return v;
  }
}
