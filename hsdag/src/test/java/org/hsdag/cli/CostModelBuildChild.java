package org.hsdag.cli;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.FakeBackend;
import picocli.CommandLine;

/**
 * Child-process entry point: runs {@code hsdag tune ARGS} on a backend that says it measures on
 * hardware and whose cost model is never finished being built, so the parent can stop the child
 * while the cost model is being built.
 */
public final class CostModelBuildChild {
  private CostModelBuildChild() {}

  /** {@link FakeBackend#cpuGpu()}, but real, with a cost model whose profiling never ends. */
  static final class EndlessProfiling implements LatencyBackend, CostModelSource {
    private final FakeBackend fake = FakeBackend.cpuGpu();

    @Override
    public String name() {
      return "endless";
    }

    @Override
    public String profile() {
      return "profiling forever";
    }

    @Override
    public boolean simulated() {
      return false;
    }

    @Override
    public List<DeviceInfo> devices() {
      return fake.devices();
    }

    @Override
    public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
      return fake.supports(graph, devices);
    }

    @Override
    public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
      return fake.measure(graph, placement, protocol);
    }

    @Override
    public HeteroCostModel costModel(OpGraph graph) {
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("interrupted");
    }
  }

  public static void main(String[] args) {
    int code = new CommandLine(new TuneCommand(new EndlessProfiling())).execute(args);
    System.exit(code);
  }
}
