package org.hsdag.openvino;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One per-layer profiling record of an inference ({@code ov::ProfilingInfo}), with HETERO's
 * {@code "subgraph<k>: "} prefix split off the node name.
 *
 * <p>Plugins report executed primitives, which after fusion do not map 1:1 to IR layers: a
 * fused Convolution+Add+ReLU is one record named after one of them, removed nodes appear as
 * {@link Status#OPTIMIZED_OUT} or not at all (shared notes/openvino.md §3.2).
 *
 * @param subgraph HETERO sub-model index, or -1 when the record came from a single device
 * @param nodeName node name without the HETERO prefix
 * @param nodeType the plugin's node type (e.g. {@code Convolution}, {@code Eltwise})
 * @param execType the kernel/implementation (e.g. {@code jit_avx512_FP32}, {@code ocl:…})
 * @param status whether the node ran
 * @param realTimeMicros wall time of the node in microseconds
 * @param cpuTimeMicros host CPU time of the node in microseconds (often 0 on GPU)
 */
public record ProfilingRecord(
    int subgraph, String nodeName, String nodeType, String execType, Status status, long realTimeMicros,
    long cpuTimeMicros) {

  /** {@code ov::ProfilingInfo::Status}, in OpenVINO's order. */
  public enum Status {
    NOT_RUN, OPTIMIZED_OUT, EXECUTED;

    /** The status of the shim's integer code (0, 1, 2); anything else counts as executed. */
    public static Status ofCode(int code) {
      return code == 0 ? NOT_RUN : code == 1 ? OPTIMIZED_OUT : EXECUTED;
    }

    /** Parses OpenVINO's spellings ({@code EXECUTED}, {@code OPTIMIZED_OUT}, {@code NOT_RUN}), case-insensitively. */
    public static Status parse(String text) {
      String t = text.trim().toUpperCase(java.util.Locale.ROOT).replace(' ', '_');
      return switch (t) {
        case "NOT_RUN", "NOTRUN" -> NOT_RUN;
        case "OPTIMIZED_OUT", "OPTIMIZEDOUT" -> OPTIMIZED_OUT;
        case "EXECUTED" -> EXECUTED;
        default -> throw new IllegalArgumentException("unknown profiling status '" + text + "'");
      };
    }
  }

  // HETERO writes "subgraph" + index + ": " + name (sync_infer_request.cpp).
  private static final Pattern HETERO_PREFIX = Pattern.compile("^subgraph(\\d+): ?(.*)$", Pattern.DOTALL);

  public ProfilingRecord {
    Objects.requireNonNull(nodeName);
    Objects.requireNonNull(status);
    nodeType = nodeType == null ? "" : nodeType;
    execType = execType == null ? "" : execType;
    if (subgraph < -1) {
      throw new IllegalArgumentException("Expected subgraph >= -1 (got " + subgraph + ")");
    }
  }

  /** Builds a record from the raw fields a plugin reports, splitting a HETERO prefix off the name. */
  public static ProfilingRecord fromRaw(
      String rawNodeName, String nodeType, String execType, Status status, long realTimeMicros, long cpuTimeMicros) {
    Matcher m = HETERO_PREFIX.matcher(rawNodeName);
    if (m.matches()) {
      return new ProfilingRecord(Integer.parseInt(m.group(1)), m.group(2), nodeType, execType, status, realTimeMicros,
          cpuTimeMicros);
    }
    return new ProfilingRecord(-1, rawNodeName, nodeType, execType, status, realTimeMicros, cpuTimeMicros);
  }

  /** True when the node ran and took time. */
  public boolean executed() {
    return status == Status.EXECUTED;
  }

  /** Wall time in milliseconds. */
  public double realTimeMillis() {
    return realTimeMicros / 1000.0;
  }
}
