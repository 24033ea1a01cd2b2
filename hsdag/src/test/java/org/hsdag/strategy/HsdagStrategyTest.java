package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.search.SearchContext;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HsdagStrategyTest {
  private static final TinyGraphs.Instance CHAIN = TinyGraphs.chain(DeviceSet.of("CPU", "GPU.1"),
      new int[] {0, 0, 1, 1, 1, 1, 0, 0}, new int[] {}, new int[] {});

  private static List<Measurement> measure(List<Placement> batch) {
    List<Measurement> out = new ArrayList<>();
    for (Placement p : batch) {
      out.add(CHAIN.backend().measure(CHAIN.graph(), p, MeasurementProtocol.PAPER));
    }
    return out;
  }

  private static HsdagConfig.Builder perOp() {
    return HsdagConfig.builder().coarsening(CoarseningMode.NONE).stepsPerUpdate(4).torchThreads(1);
  }

  @Test
  void afterEachEpisodeItMeasuresNewSegmentMovesAroundItsFavourite() {
    try (HsdagStrategy s = new HsdagStrategy(perOp().build())) {
      s.init(CHAIN.context(100, 11));
      List<Placement> singles = s.ask(10);
      assertEquals(2, singles.size(), "first, each single-device placement");
      for (int d = 0; d < 2; d++) {
        int device = d;
        assertTrue(java.util.Arrays.stream(singles.get(d).deviceOf()).allMatch(x -> x == device),
            singles.get(d).toString());
      }
      s.tell(singles, measure(singles));
      List<Placement> asked = new ArrayList<>(singles);
      for (int episode = 0; episode < 3; episode++) {
        List<Placement> samples = s.ask(10);
        assertEquals(4, samples.size(), "one episode of the policy");
        s.tell(samples, measure(samples));
        asked.addAll(samples);
        List<Placement> favourites = s.favourites(100);
        assertEquals(new HashSet<>(asked).size(), favourites.size(), "every distinct measured placement, ranked");
        assertTrue(asked.containsAll(favourites));
        List<Placement> moves = s.ask(10);
        assertEquals(HsdagConfig.DEFAULT_SEGMENT_MOVES, moves.size());
        for (Placement m : moves) {
          assertFalse(asked.contains(m), "never a placement asked before");
          assertOneRunChanged(favourites.get(0), m);
        }
        s.tell(moves, measure(moves));
        asked.addAll(moves);
      }
    }
  }

  /** The latency model's observations are part of the checkpoint; stop 23's format (no model) is refused, so tune replays the log. */
  @Test
  void aCheckpointCarriesTheModelAndAnOlderFormatIsRefused(@TempDir Path dir) throws Exception {
    List<Placement> favourites;
    try (HsdagStrategy s = new HsdagStrategy(perOp().build())) {
      s.init(CHAIN.context(100, 11));
      for (int batch = 0; batch < 4; batch++) {
        List<Placement> asked = s.ask(10);
        s.tell(asked, measure(asked));
      }
      favourites = s.favourites(100);
      s.saveState(dir);
    }
    try (HsdagStrategy restored = new HsdagStrategy(perOp().build())) {
      restored.init(CHAIN.context(100, 11));
      restored.restoreState(dir);
      assertEquals(favourites, restored.favourites(100), "the same model after a restore");
      Path segments = dir.resolve("hsdag-segments.bin");
      byte[] bytes = Files.readAllBytes(segments);
      bytes[3] = 1; // format 1, written by the version before the model
      Files.write(segments, bytes);
      IOException e = assertThrows(IOException.class, () -> restored.restoreState(dir));
      assertTrue(e.getMessage().contains("format 1"), e.getMessage());
    }
  }

  /** A dense fit is cubic in the model's terms: a coarse graph too large for one gets the policy's samples only. */
  @Test
  void aGraphTooLargeForTheLatencyModelGetsThePolicyAlone() {
    TinyGraphs.Instance large = TinyGraphs.chain(DeviceSet.of("CPU", "GPU.1"), new int[1100], new int[] {},
        new int[] {});
    try (HsdagStrategy s = new HsdagStrategy(perOp().build())) {
      s.init(large.context(100, 11));
      List<Placement> first = s.ask(10);
      assertEquals(4, first.size(), "a policy episode, no single-device placements first");
      s.tell(first,
          first.stream().map(p -> large.backend().measure(large.graph(), p, MeasurementProtocol.PAPER)).toList());
      assertEquals(4, s.ask(10).size(), "then the next episode, no segment moves");
      assertEquals(List.of(), s.favourites(5));
    }
  }

  @Test
  void thePaperFaithfulStrategyOnlyMeasuresItsPolicysSamples() {
    try (HsdagStrategy s = new HsdagStrategy(perOp().paperFaithful().stepsPerUpdate(4).build())) {
      s.init(CHAIN.context(100, 11));
      for (int episode = 0; episode < 3; episode++) {
        List<Placement> samples = s.ask(10);
        assertEquals(4, samples.size());
        s.tell(samples, measure(samples));
      }
      assertEquals(List.of(), s.favourites(5), "no latency model of its own");
    }
  }

  /** After a planner phase the policy alone measures; without a cost model the same strategy makes segment moves. */
  @Test
  void onlyAColdStartMakesSegmentMoves() {
    OpGraph resnet = ModelCatalog.get("resnet50").build().graph();
    DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
    SimBackend exact = new SimBackend(DeviceProfile.load("paper"),
        SimOptions.exact());
    PlacementProxy proxy = PlacementProxy.ofSim(exact, resnet, devices);
    for (boolean warm : new boolean[] {true, false}) {
      SearchContext.Builder context = SearchContext.builder(resnet, devices,
          exact.supports(resnet, devices)).budget(200).seed(3);
      if (warm) {
        context.proxy(proxy);
      }
      PlannerStrategy planner = new PlannerStrategy("planner");
      try (HsdagStrategy hsdag = new HsdagStrategy(perOp().coarsening(CoarseningMode.HSDAG).build());
          WarmStartStrategy s = new WarmStartStrategy(planner, hsdag, 0)) {
        s.init(context.build());
        List<Integer> afterPlanner = new ArrayList<>();
        for (int batch = 0; batch < 40; batch++) {
          boolean planning = warm && !planner.finished();
          List<Placement> asked = s.ask(10);
          List<Measurement> results = new ArrayList<>();
          for (Placement p : asked) {
            results.add(exact.measure(resnet, p, MeasurementProtocol.PAPER));
          }
          s.tell(asked, results);
          if (!planning) {
            afterPlanner.add(asked.size());
          }
        }
        int measured = afterPlanner.stream().mapToInt(Integer::intValue).sum();
        if (warm) {
          // Policy samples only (the veto may keep some of an episode from being measured): no segment moves.
          assertTrue(measured <= hsdag.trainer().proposals(), "warm: " + afterPlanner);
        } else {
          assertTrue(afterPlanner.contains(HsdagConfig.DEFAULT_SEGMENT_MOVES), "cold: " + afterPlanner);
          assertTrue(afterPlanner.contains(4), "policy episodes");
          assertTrue(measured > hsdag.trainer().proposals(), "cold: segment moves beside the policy's samples");
        }
        assertEquals(warm, s.favourites(5).isEmpty(), "a latency model of its own only when cold");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The chain's nodes are numbered in order: the move puts one stretch of them on one device. */
  private static void assertOneRunChanged(Placement from, Placement to) {
    int first = -1;
    int last = -1;
    for (int v = 0; v < from.deviceOf().length; v++) {
      if (from.deviceOf(v) != to.deviceOf(v)) {
        first = first < 0 ? v : first;
        last = v;
      }
    }
    assertTrue(first >= 0, "the move changes something");
    for (int v = first; v <= last; v++) {
      assertEquals(to.deviceOf(first), to.deviceOf(v),
          "one contiguous stretch to one device: " + from + " -> " + to);
    }
  }
}
