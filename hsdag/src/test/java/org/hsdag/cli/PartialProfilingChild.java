package org.hsdag.cli;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.FakeBackend;
import picocli.CommandLine;

/**
 * Child-process entry point: runs {@code hsdag tune ARGS} on a backend that says it measures on hardware and builds
 * its cost model in two parts, handing each over as it is measured; the child hangs after the first part, so the
 * parent can kill it there.
 */
public final class PartialProfilingChild {
  private PartialProfilingChild() {}

  /** The first part of the build, as the backend hands it over. */
  static final String FIRST = "{\"part\":1}";
  /** The whole build. */
  static final String WHOLE = "{\"part\":2}";

  /** {@link FakeBackend#cpuGpu()}, but real, with a cost model built in two parts (the child hangs after one). */
  static final class TwoParts implements LatencyBackend, CostModelSource {
    private final FakeBackend fake = FakeBackend.cpuGpu();
    private final boolean hangAfterFirst;
    private Consumer<String> sink = s -> {};
    private String measured;
    String reused;
    int builds;

    TwoParts(boolean hangAfterFirst) {
      this.hangAfterFirst = hangAfterFirst;
    }

    @Override
    public String name() {
      return "parts";
    }

    @Override
    public String profile() {
      return "profiled in two parts";
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
      builds++;
      if (measured == null) {
        hand(FIRST);
      }
      if (hangAfterFirst) {
        try {
          new CountDownLatch(1).await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (!WHOLE.equals(measured)) {
        hand(WHOLE);
      }
      return HeteroCostModel.forProfile(graph, DeviceProfile.load("paper"), new CostModel(ShapeAssumption.DEFAULT))
          .withDevices(List.of("CPU", "GPU.1"));
    }

    private void hand(String part) {
      measured = part;
      sink.accept(part);
    }

    @Override
    public void costModelProgress(OpGraph graph, Consumer<String> s) {
      sink = s;
    }

    @Override
    public Optional<String> costModelMeasurements(OpGraph graph) {
      return Optional.ofNullable(measured);
    }

    @Override
    public void reuseCostModelMeasurements(OpGraph graph, String text) {
      reused = text;
      measured = text;
    }

    @Override
    public boolean costModelPending(OpGraph graph) {
      return !WHOLE.equals(measured);
    }

    @Override
    public Optional<String> costModelMeasured(OpGraph graph) {
      return Optional.ofNullable(measured).map(m -> FIRST.equals(m) ? "part 1 of 2" : "both parts");
    }
  }

  public static void main(String[] args) {
    int code = new CommandLine(new TuneCommand(new TwoParts(true))).execute(args);
    System.exit(code);
  }
}
