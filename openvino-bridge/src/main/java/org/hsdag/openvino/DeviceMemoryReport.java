package org.hsdag.openvino;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.hsdag.memory.ByteSizes;
import org.hsdag.memory.MemoryLimits;

/**
 * The memory one OpenVINO device reports about itself, each figure read only where the device lists
 * its key among {@code ov::supported_properties} (openvinotoolkit/openvino at the commits named):
 *
 * <ul>
 *   <li>{@value #GPU_TOTAL}: {@code ov::intel_gpu::device_total_mem_size}, a read-only {@code uint64_t},
 *       "size of memory in bytes available for the device. For iGPU it returns host memory size, for
 *       dGPU - dedicated gpu memory size" ({@code src/inference/include/openvino/runtime/intel_gpu/properties.hpp}
 *       at a7002c5); the GPU plugin lists it and answers with its device's {@code max_global_mem_size}
 *       ({@code src/plugins/intel_gpu/src/plugin/plugin.cpp} at 00cc295, {@code get_metric}).
 *   <li>{@value #NPU_TOTAL}: {@code ov::intel_npu::device_total_mem_size}, a read-only {@code uint64_t} the
 *       header describes as the "size of available NPU DDR memory"
 *       ({@code src/inference/include/openvino/runtime/intel_npu/properties.hpp} at b70be19).
 *   <li>{@value #AVAILABLE}: {@code ov::intel_gpu::hint::available_device_mem}, an {@code int64_t} hint
 *       (intel_gpu/properties.hpp above). The GPU plugin does not list it among its supported
 *       properties: a caller passes it to {@code MAX_BATCH_SIZE} to lower the memory that query assumes
 *       (plugin.cpp above, {@code get_max_batch_size}). It is read only from a device that lists it.
 * </ul>
 *
 * The CPU plugin reports none of them, so the CPU (and a CPU registered again as a test device) is
 * not limited unless the user says so.
 *
 * @param device device name
 * @param totalBytes the device's total memory, when reported
 * @param totalKey the property {@code totalBytes} came from ("" when none)
 * @param availableBytes the memory the device says is available, when reported
 */
public record DeviceMemoryReport(String device, OptionalLong totalBytes, String totalKey, OptionalLong availableBytes) {
  public static final String GPU_TOTAL = "GPU_DEVICE_TOTAL_MEM_SIZE";
  public static final String NPU_TOTAL = "NPU_DEVICE_TOTAL_MEM_SIZE";
  public static final String AVAILABLE = "AVAILABLE_DEVICE_MEM_SIZE";

  public DeviceMemoryReport {
    Objects.requireNonNull(device, "device");
    Objects.requireNonNull(totalBytes, "totalBytes");
    Objects.requireNonNull(availableBytes, "availableBytes");
    totalKey = totalBytes.isPresent() ? Objects.requireNonNull(totalKey, "totalKey") : "";
  }

  /** A device that reports nothing. */
  public static DeviceMemoryReport none(String device) {
    return new DeviceMemoryReport(device, OptionalLong.empty(), "", OptionalLong.empty());
  }

  /** {@link #read}, or nothing reported when the device's properties cannot be read. */
  static DeviceMemoryReport readOrNone(OpenVinoRuntime runtime, String device) {
    try {
      return read(runtime, device);
    } catch (OpenVinoException e) {
      return none(device);
    }
  }

  /** What {@code device} reports through {@code runtime}. */
  public static DeviceMemoryReport read(OpenVinoRuntime runtime, String device) {
    for (String key : List.of(GPU_TOTAL, NPU_TOTAL)) {
      OptionalLong total = positive(runtime.unsignedProperty(device, key));
      if (total.isPresent()) {
        return new DeviceMemoryReport(device, total, key, positive(runtime.unsignedProperty(device, AVAILABLE)));
      }
    }
    return new DeviceMemoryReport(device, OptionalLong.empty(), "",
        positive(runtime.unsignedProperty(device, AVAILABLE)));
  }

  private static OptionalLong positive(OptionalLong v) {
    return v.isPresent() && v.getAsLong() > 0 ? v : OptionalLong.empty();
  }

  /** The capacity a placement must respect: the available memory where reported, else the total, else none. */
  public OptionalLong capacityBytes() {
    return availableBytes.isPresent() ? availableBytes : totalBytes;
  }

  /** E.g. {@code GPU.1 16.00 GiB (GPU_DEVICE_TOTAL_MEM_SIZE)} or {@code CPU not reported}. */
  public String describe() {
    if (availableBytes.isPresent()) {
      return device + " " + ByteSizes.format(availableBytes.getAsLong()) + " (" + AVAILABLE + ")";
    }
    return totalBytes.isPresent() ? device + " " + ByteSizes.format(totalBytes.getAsLong()) + " (" + totalKey + ")"
        : device + " not reported";
  }

  /** The capacities of the devices that report one. */
  public static MemoryLimits limits(Collection<DeviceMemoryReport> reports) {
    Map<String, Long> caps = new LinkedHashMap<>();
    for (DeviceMemoryReport r : reports) {
      r.capacityBytes().ifPresent(b -> caps.put(r.device(), b));
    }
    return new MemoryLimits(caps);
  }
}
