package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchEngine;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.throughput.Objective;
import org.hsdag.throughput.ThroughputMeasuring;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** One session holds what a command measures with, opened from the options in one call. */
class SessionTest {
  @TempDir
  Path tmp;
  private OpGraph graph;

  @BeforeEach
  void readModel() throws IOException {
    graph = TestModels.read(TestModels.twoBranch(tmp));
  }

  private static <T> T options(T mixin, String... args) {
    return CommandLine.populateCommand(mixin, args);
  }

  private static BackendRequest sim() {
    return BackendRequest.of("sim", "paper");
  }

  @Test
  void opensTheDevicesMemoryAndCostModelOnce() {
    DeviceOptions devices = options(new DeviceOptions(), "--devices", "cpu,gpu.1");
    try (Session s = Session.of(graph, sim()).devices(devices, 2, "it splits").memory(new MemoryOptions())
        .proxy(ProxyChoice.AUTO, true, "").open()) {
      assertEquals(DeviceSet.of("CPU", "GPU.1"), s.devices());
      assertEquals(s.devices(), s.proxy().proxy().devices());
      assertSame(s.proxy().proxy(), s.latencyModel());
      assertTrue(s.proxy().source().contains("cost model of sim/paper"), s.proxy().source());
      assertSame(s.backend(), s.measuring(), "latency is measured by the backend itself");
      assertNotNull(s.memory());
      assertSame(graph, s.graph());
    }
  }

  @Test
  void aThroughputObjectiveMeasuresAndPlansForThroughput() {
    RunObjective throughput = RunObjective.of(Objective.THROUGHPUT, 4);
    try (Session s = Session.of(graph, sim()).objective(throughput, true)
        .devices(options(new DeviceOptions(), "--devices", "CPU,GPU.1"), 2, "it splits")
        .proxy(ProxyChoice.AUTO, false, "").open()) {
      assertEquals(4, s.measuring().capability(ThroughputMeasuring.class).orElseThrow().requested());
      assertTrue(s.proxy().source().endsWith("time per inference with 4 requests in flight"), s.proxy().source());
    }
  }

  @Test
  void memoryOnAnotherDeviceIsBadInputAndClosesWhatItOpened() {
    List<String> closed = new ArrayList<>();
    MemoryOptions memory = options(new MemoryOptions(), "--memory", "GPU.0=1GiB");
    UserInputException e = assertThrows(UserInputException.class,
        () -> Session.of(graph, sim()).devices(options(new DeviceOptions(), "--devices", "CPU,GPU.1"), 2, "it splits")
            .memory(memory).decorate(b -> new ForwardingBackend(b) {
              @Override
              public void close() {
                closed.add("closed");
                super.close();
              }
            }, b -> b).open());
    assertTrue(e.getMessage().contains("GPU.0"), e.getMessage());
    assertEquals(List.of("closed"), closed);
  }

  @Test
  void anInjectedBackendIsUsedAsItIsAndNotClosed() {
    List<String> closed = new ArrayList<>();
    LatencyBackend injected = new ForwardingBackend(
        new SimBackend(org.hsdag.cost.DeviceProfile.load("paper"), SimOptions.DEFAULT)) {
      @Override
      public void close() {
        closed.add("closed");
      }
    };
    try (Session s = Session.of(graph, sim()).injected(injected).devices(DeviceSet.of("CPU", "GPU.1")).open()) {
      assertSame(injected, s.backend());
      assertNull(s.proxy(), "no cost model asked for: a cold search");
      assertEquals(DeviceSet.of("CPU", "GPU.1"), s.devices());
    }
    assertTrue(closed.isEmpty(), "the session closed a backend it did not open");
  }

  @Test
  void theSearchIsBuiltFromTheSessionsDevicesLatencyModelAndMemory() {
    MemoryOptions memory = options(new MemoryOptions(), "--memory", "GPU.1=1KiB");
    try (Session s = Session.of(graph, sim()).devices(DeviceSet.of("CPU", "GPU.1")).memory(memory)
        .proxy(ProxyChoice.AUTO, true, "").open()) {
      SearchEngine engine = s.searchEngine().build();
      assertEquals(s.devices(), engine.devices());
      SearchContext context = engine.context(4, 1);
      assertSame(s.latencyModel(), context.proxy().orElseThrow(), "the strategies consult the session's cost model");
      assertSame(s.memory(), context.memory().orElseThrow());
      Measurement refused = engine.measure(Placement.allOn(s.devices(), graph.nodeCount(), "GPU.1"), 0);
      assertFalse(refused.ok());
      assertTrue(refused.reason().contains(MemoryCheck.OUT_OF_MEMORY), refused.reason());
      assertTrue(engine.measure(Placement.allOn(s.devices(), graph.nodeCount(), "CPU"), 0).ok());
    }
  }
}
