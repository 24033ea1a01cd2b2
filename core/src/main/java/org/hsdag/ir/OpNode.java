package org.hsdag.ir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One IR layer.
 *
 * @param index dense index in {@link OpGraph}, 0..n-1 in document order
 * @param id the layer id as written in the IR
 * @param name the friendly name (the key HETERO affinities and profiling use)
 * @param type the IR op type spelling (Const, ReLU, SoftMax, Convolution, ...)
 * @param version the opset, e.g. {@code opset8}
 * @param attributes the {@code <data>} attributes in document order
 * @param inputs input ports in document order
 * @param outputs output ports in document order
 * @param rtInfoXml the layer's {@code <rt_info>} element verbatim, or null
 * @param extraXml other child elements (bodies, port maps) verbatim, or null
 */
public record OpNode(
    int index,
    String id,
    String name,
    String type,
    String version,
    Map<String, String> attributes,
    List<Port> inputs,
    List<Port> outputs,
    String rtInfoXml,
    String extraXml) {

  public OpNode {
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
  }

  public boolean isConstant() {
    return "Const".equals(type) || "Constant".equals(type);
  }

  public boolean isParameter() {
    return "Parameter".equals(type);
  }

  public boolean isResult() {
    return "Result".equals(type);
  }

  /** The {@code <data>} attribute, or null. */
  public String attribute(String key) {
    return attributes.get(key);
  }

  /** Offset of a Const's data in the {@code .bin}, or -1 when this node holds no data. */
  public long constOffset() {
    return isConstant() ? parseLongOr(attributes.get("offset"), -1) : -1;
  }

  /** Size in bytes of a Const's data in the {@code .bin}, or 0 when this node holds no data. */
  public long constSize() {
    return isConstant() ? parseLongOr(attributes.get("size"), 0) : 0;
  }

  /** True when the node has {@code decompression} rt_info (an FP16 to FP32 Convert of weights). */
  public boolean isDecompression() {
    return rtInfoXml != null && rtInfoXml.contains("\"decompression\"");
  }

  private static long parseLongOr(String s, long fallback) {
    if (s == null) {
      return fallback;
    }
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
