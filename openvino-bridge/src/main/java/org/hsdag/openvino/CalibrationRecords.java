package org.hsdag.openvino;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.io.AtomicFiles;

/**
 * What {@code hsdag calibrate} measured on a real machine, kept as data so a profile can be
 * re-fitted offline ({@code hsdag calibrate --from-records}) and so the fit is testable without
 * OpenVINO. JSON, written atomically.
 *
 * @param model the model's file name (the graph the records belong to)
 * @param source where the numbers come from: {@code measured: OpenVINO … on …} or {@code synthetic: …}
 * @param devices one single-device run per device
 * @param splits HETERO runs with a prefix of the model on CPU and the rest on another device
 * @param designed the HETERO runs of {@link org.hsdag.cost.HeteroSplitDesign}, for start and copy costs
 */
public record CalibrationRecords(String model, String source, List<DeviceRun> devices, List<SplitRun> splits,
    List<DesignedRun> designed) {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public CalibrationRecords {
    requireField(model, "model");
    source = source == null ? "" : source;
    devices = devices == null ? List.of() : List.copyOf(devices);
    splits = splits == null ? List.of() : List.copyOf(splits);
    designed = designed == null ? List.of() : List.copyOf(designed);
  }

  /** Records without designed runs (files of earlier versions). */
  public CalibrationRecords(String model, String source, List<DeviceRun> devices, List<SplitRun> splits) {
    this(model, source, devices, splits, List.of());
  }

  /**
   * A designed HETERO run: a device per op of the graph's cost model (its compute nodes in topological order).
   *
   * @param label what the placement is, e.g. {@code CPU->CPU2, 2 boundaries}
   * @param deviceNames the devices {@code deviceOfOp} indexes
   * @param deviceOfOp device index per op
   * @param latencyMillis median wall latency
   */
  @SuppressWarnings("ArrayRecordComponent") // copied in and out; a record for its JSON form
  public record DesignedRun(String label, List<String> deviceNames, int[] deviceOfOp, double latencyMillis) {
    public DesignedRun {
      requireField(label, "label");
      deviceNames = deviceNames == null ? List.of() : List.copyOf(deviceNames);
      deviceOfOp = deviceOfOp == null ? new int[0] : deviceOfOp.clone();
      if (!(latencyMillis > 0)) {
        throw new IllegalArgumentException("designed run " + label + ": latencyMillis must be > 0");
      }
    }

    @Override
    public int[] deviceOfOp() {
      return deviceOfOp.clone();
    }
  }

  /**
   * The whole model on one device.
   *
   * @param device OpenVINO device name
   * @param fullName the device's full name
   * @param latencyMillis median wall latency of a synchronous inference without profiling
   * @param records per-layer records (averaged over several profiled inferences)
   * @param throughputPeriodsMillis the median time per inference with N = 1, 2, … requests in flight (entry N -
   *     1), the device alone under the throughput hint ({@link CalibrationThroughput}); empty when not measured
   */
  public record DeviceRun(String device, String fullName, double latencyMillis, List<ProfilingRecord> records,
      List<Double> throughputPeriodsMillis) {
    /** A run without throughput measurements (records of earlier versions). */
    public DeviceRun(String device, String fullName, double latencyMillis, List<ProfilingRecord> records) {
      this(device, fullName, latencyMillis, records, List.of());
    }

    public DeviceRun {
      requireField(device, "device");
      fullName = fullName == null ? device : fullName;
      records = records == null ? List.of() : List.copyOf(records);
      throughputPeriodsMillis = throughputPeriodsMillis == null ? List.of() : List.copyOf(throughputPeriodsMillis);
      if (!(latencyMillis > 0)) {
        throw new IllegalArgumentException(
            "device run " + device + ": latencyMillis must be > 0 (got " + latencyMillis + ")");
      }
    }
  }

  /**
   * A two-device HETERO run: the first {@code prefixKernels} kernels of the graph (topological
   * order, counting only nodes that run as kernels) on CPU, the rest on {@code device}.
   *
   * @param device the second device
   * @param prefixKernels kernels on CPU
   * @param latencyMillis median wall latency
   */
  public record SplitRun(String device, int prefixKernels, double latencyMillis) {
    public SplitRun {
      requireField(device, "device");
      if (prefixKernels < 0 || !(latencyMillis > 0)) {
        throw new IllegalArgumentException(
            "split run on " + device + ": need prefixKernels >= 0 and latencyMillis > 0");
      }
    }
  }

  /** A field a records file must have; the reader reports the message as the file's problem. */
  private static void requireField(Object value, String field) {
    if (value == null) {
      throw new IllegalArgumentException("no \"" + field + "\" field");
    }
  }

  /** The run of {@code device}, or null. */
  public DeviceRun run(String device) {
    for (DeviceRun r : devices) {
      if (r.device().equals(device)) {
        return r;
      }
    }
    return null;
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public void write(Path file) throws IOException {
    AtomicFiles.writeString(file, toJson());
  }

  /**
   * Reads a records file.
   *
   * @throws IllegalArgumentException with a one-line reason for a missing or malformed file
   */
  public static CalibrationRecords read(Path file) {
    try {
      return JSON.readValue(Files.readAllBytes(file), CalibrationRecords.class);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": calibration records not found");
    } catch (JsonProcessingException e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String msg = root instanceof IllegalArgumentException ? root.getMessage() : e.getOriginalMessage();
      throw new IllegalArgumentException(file + ": bad calibration records (" + msg.replaceAll("\\s+", " ") + ")");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
    }
  }
}
