package org.hsdag.bench.scale;

import java.io.IOException;
import java.io.Writer;

/**
 * Writes a large synthetic IR v11 (residual blocks of Const → Convolution → ReLU → Add) straight
 * to a stream, so benchmarks can read graphs far bigger than any real model without holding a
 * second copy in memory.
 */
public final class SyntheticIr {
  private SyntheticIr() {}

  /** Writes about {@code layers} layers (rounded to whole blocks) and returns the exact layer count. */
  public static int write(Writer w, int layers) throws IOException {
    int blocks = Math.max(1, (layers - 2) / 4);
    w.write("<?xml version=\"1.0\"?>\n<net name=\"synthetic\" version=\"11\">\n\t<layers>\n");
    String dims = "<dim>1</dim><dim>64</dim><dim>56</dim><dim>56</dim>";
    w.write(
        "\t\t<layer id=\"0\" name=\"input\" type=\"Parameter\" version=\"opset1\"><data shape=\"1,64,56,56\" element_type=\"f32\"/>"
            + "<output><port id=\"0\" precision=\"FP32\" names=\"input\">" + dims + "</port></output></layer>\n");
    int id = 1;
    long offset = 0;
    StringBuilder edges = new StringBuilder();
    int prev = 0;
    int prevPort = 0;
    for (int b = 0; b < blocks; b++) {
      int c = id++;
      int conv = id++;
      int relu = id++;
      int add = id++;
      w.write("\t\t<layer id=\"" + c + "\" name=\"w" + b
          + "\" type=\"Const\" version=\"opset1\"><data element_type=\"f32\" shape=\"64, 64, 1, 1\" offset=\""
          + offset
          + "\" size=\"16384\"/><output><port id=\"0\" precision=\"FP32\"><dim>64</dim><dim>64</dim><dim>1</dim><dim>1</dim></port></output></layer>\n");
      offset += 16384;
      w.write("\t\t<layer id=\"" + conv + "\" name=\"conv" + b
          + "\" type=\"Convolution\" version=\"opset1\"><data strides=\"1, 1\" dilations=\"1, 1\" pads_begin=\"0, 0\" pads_end=\"0, 0\" auto_pad=\"explicit\"/>"
          + "<input><port id=\"0\" precision=\"FP32\">" + dims
          + "</port><port id=\"1\" precision=\"FP32\"><dim>64</dim><dim>64</dim><dim>1</dim><dim>1</dim></port></input>"
          + "<output><port id=\"2\" precision=\"FP32\">" + dims + "</port></output></layer>\n");
      w.write("\t\t<layer id=\"" + relu + "\" name=\"relu" + b
          + "\" type=\"ReLU\" version=\"opset1\"><input><port id=\"0\" precision=\"FP32\">" + dims
          + "</port></input><output><port id=\"1\" precision=\"FP32\">" + dims + "</port></output></layer>\n");
      w.write("\t\t<layer id=\"" + add + "\" name=\"add" + b
          + "\" type=\"Add\" version=\"opset1\"><data auto_broadcast=\"numpy\"/><input><port id=\"0\" precision=\"FP32\">"
          + dims
          + "</port><port id=\"1\" precision=\"FP32\">" + dims
          + "</port></input><output><port id=\"2\" precision=\"FP32\">" + dims + "</port></output></layer>\n");
      edges.append("\t\t<edge from-layer=\"").append(prev).append("\" from-port=\"").append(prevPort)
          .append("\" to-layer=\"").append(conv).append("\" to-port=\"0\"/>\n");
      edges.append("\t\t<edge from-layer=\"").append(c).append("\" from-port=\"0\" to-layer=\"").append(conv)
          .append("\" to-port=\"1\"/>\n");
      edges.append("\t\t<edge from-layer=\"").append(conv).append("\" from-port=\"2\" to-layer=\"").append(relu)
          .append("\" to-port=\"0\"/>\n");
      edges.append("\t\t<edge from-layer=\"").append(relu).append("\" from-port=\"1\" to-layer=\"").append(add)
          .append("\" to-port=\"0\"/>\n");
      edges.append("\t\t<edge from-layer=\"").append(prev).append("\" from-port=\"").append(prevPort)
          .append("\" to-layer=\"").append(add).append("\" to-port=\"1\"/>\n");
      prev = add;
      prevPort = 2;
    }
    int result = id++;
    w.write("\t\t<layer id=\"" + result
        + "\" name=\"output\" type=\"Result\" version=\"opset1\"><input><port id=\"0\" precision=\"FP32\">" + dims
        + "</port></input></layer>\n");
    edges.append("\t\t<edge from-layer=\"").append(prev).append("\" from-port=\"").append(prevPort)
        .append("\" to-layer=\"").append(result).append("\" to-port=\"0\"/>\n");
    w.write("\t</layers>\n\t<edges>\n");
    w.write(edges.toString());
    w.write("\t</edges>\n</net>\n");
    return id;
  }
}
