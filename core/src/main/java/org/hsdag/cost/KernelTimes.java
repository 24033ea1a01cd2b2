package org.hsdag.cost;

import java.util.Objects;

/**
 * Per-node kernel times on each device of a {@link HeteroCostModel}, wherever they come from: a
 * sim profile's formula ({@link #ofProfile}) or per-op times measured per device, e.g. OpenVINO's
 * profiling records of single-device runs ({@link #byNode}). Asked only about compute nodes
 * (never folded constants, Parameters or Results).
 */
public interface KernelTimes {
  /** Stand-alone kernel time of graph node {@code node} on model device {@code device}, µs. */
  double micros(int node, OpCost cost, int device);

  /** Its time when fused into the kernel of the producer it can fuse into, µs. */
  double fusedMicros(int node, OpCost cost, int device);

  /** Whether the device can run it. */
  boolean supported(int node, OpCost cost, int device);

  /**
   * Times given per node: {@code micros[device][node]}, {@code fusedMicros[device][node]} and
   * {@code supported[device][node]} (a null {@code fusedMicros} means no fusion saving, a null
   * {@code supported} means every device runs every node). The arrays are read, not copied.
   */
  static KernelTimes byNode(double[][] micros, double[][] fusedMicros, boolean[][] supported) {
    Objects.requireNonNull(micros, "micros");
    return new KernelTimes() {
      @Override
      public double micros(int node, OpCost cost, int device) {
        return micros[device][node];
      }

      @Override
      public double fusedMicros(int node, OpCost cost, int device) {
        return fusedMicros == null ? micros[device][node] : fusedMicros[device][node];
      }

      @Override
      public boolean supported(int node, OpCost cost, int device) {
        return supported == null || supported[device][node];
      }
    };
  }

  /**
   * The sim formula on {@code profile}'s devices (in profile order): max(FLOPs / (peak ·
   * efficiency · occupancy), bytes / bandwidth) + launch overhead; a view costs nothing; fused, an
   * op costs only its compute part on a device that fuses.
   */
  static KernelTimes ofProfile(org.hsdag.ir.OpGraph graph, DeviceProfile profile, ShapeAssumption shapes) {
    TensorShapes sized = TensorShapes.of(graph, shapes);
    return new KernelTimes() {
      private double compute(int node, OpCost c, DeviceModel dev) {
        double outputs = 0;
        for (int port = 0; port < graph.node(node).outputs().size(); port++) {
          outputs += sized.outputElements(node, port);
        }
        double flopsPerUs = dev.peakGflops() * 1e3 * dev.efficiencyOf(c.opClass());
        return c.flops() / (flopsPerUs * dev.occupancy(c.opClass(), outputs));
      }

      @Override
      public double micros(int node, OpCost c, int device) {
        DeviceModel dev = profile.devices().get(device);
        double bytesPerUs = dev.memoryBandwidthGBs() * 1e3;
        return c.opClass() == OpClass.VIEW ? 0
            : Math.max(compute(node, c, dev), c.bytes() / bytesPerUs) + dev.launchOverheadUs();
      }

      @Override
      public double fusedMicros(int node, OpCost c, int device) {
        DeviceModel dev = profile.devices().get(device);
        boolean fusable = c.opClass() == OpClass.ELEMENTWISE || c.opClass() == OpClass.ACTIVATION
            || c.opClass() == OpClass.QUANTIZATION;
        return dev.fusion() && fusable ? compute(node, c, dev) : micros(node, c, device);
      }

      @Override
      public boolean supported(int node, OpCost c, int device) {
        return profile.devices().get(device).canRun(graph.node(node).type(), c.dynamic());
      }
    };
  }
}
