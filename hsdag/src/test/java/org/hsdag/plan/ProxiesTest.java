package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.ShapeAssumption;
import org.junit.jupiter.api.Test;

class ProxiesTest {
  /** A backend whose cost model cannot be built, as when a device fails to compile the model for profiling. */
  private static final class BrokenSource implements LatencyBackend, CostModelSource {
    @Override
    public String name() {
      return "openvino";
    }

    @Override
    public String profile() {
      return "test machine";
    }

    @Override
    public boolean simulated() {
      return false;
    }

    @Override
    public List<DeviceInfo> devices() {
      return List.of(new DeviceInfo("CPU", "cpu"), new DeviceInfo("GPU.1", "gpu"));
    }

    @Override
    public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
      return SupportMatrix.all(devices, graph.nodeCount());
    }

    @Override
    public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
      throw new UnsupportedOperationException();
    }

    @Override
    public HeteroCostModel costModel(OpGraph graph) {
      throw new IllegalStateException("cannot profile tiny_chain on GPU.1: [GPU] MatMul is not supported");
    }
  }

  @Test
  void aCostModelTheBackendCannotBuildIsUnavailableWithItsReason() {
    OpGraph g = ModelCatalog.get("tiny_chain").build().graph();
    ProxyUnavailableException e = assertThrows(ProxyUnavailableException.class,
        () -> Proxies.resolve(new BrokenSource(), g, DeviceSet.of("CPU", "GPU.1"), null, ShapeAssumption.DEFAULT));
    assertTrue(e.getMessage().startsWith("backend openvino could not build its cost model"), e.getMessage());
    assertTrue(e.getMessage().contains("MatMul is not supported"), e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
  }
}
