package org.hsdag.strategy;

import java.util.List;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;

/**
 * OpenVINO HETERO with {@code PIPELINE_PARALLEL} ({@link PipelineParallelSplit}) on the search's
 * devices in AUTO's GPU-first priority (discrete GPUs, the integrated GPU, the CPU, then the rest),
 * the order a user lists them in {@code HETERO:GPU.1,GPU.0,CPU}. A GPU's memory figure is its
 * capacity in the search's memory limits (what {@code device_total_mem_size} reports); a CPU has
 * unlimited memory, as HETERO assumes. Proposes once.
 */
public final class PipelineParallelStrategy extends OneShotStrategy {
  private final String methodName;

  public PipelineParallelStrategy(String methodName) {
    this.methodName = methodName;
  }

  @Override
  public String name() {
    return methodName;
  }

  @Override
  protected Placement choose(SearchContext context) {
    DeviceSet devices = context.devices();
    List<Integer> priority = AutoEmulationStrategy.priorityOrder(devices, context.deviceKinds(),
        AutoEmulationStrategy.Preference.GPU);
    long[] memory = PipelineParallelSplit.memoryFigures(context.deviceKinds(),
        d -> context.memory().map(m -> m.capacity(devicesIndex(m, devices.name(d)))).orElse(Long.MAX_VALUE));
    return PipelineParallelSplit.split(context.graph(), devices, context.support(), priority, memory);
  }

  private static int devicesIndex(MemoryCheck m, String name) {
    return m.devices().indexOf(name);
  }
}
