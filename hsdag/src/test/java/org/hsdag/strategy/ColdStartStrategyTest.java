package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchStrategy;
import org.junit.jupiter.api.Test;

/** The cold-start decorator changes what a plain strategy proposes, and only as described. */
class ColdStartStrategyTest {
  private static final MeasurementProtocol ONE_RUN = new MeasurementProtocol(0, 1, Statistic.MEDIAN, 1, 0);
  private static final int ROUND = 4;
  private static final int MOVES = 2;

  /** Random search that records what it proposed and what it was told. */
  private static final class Recording implements SearchStrategy {
    final RandomSearchStrategy random = new RandomSearchStrategy();
    final List<Placement> proposed = new ArrayList<>();
    final List<Placement> told = new ArrayList<>();

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public void init(SearchContext context) {
      random.init(context);
    }

    @Override
    public List<Placement> ask(int limit) {
      List<Placement> batch = random.ask(limit);
      proposed.addAll(batch);
      return batch;
    }

    @Override
    public void tell(List<Placement> batch, List<Measurement> results) {
      told.addAll(batch);
      random.tell(batch, results);
    }
  }

  private static List<Placement> measure(TinyGraphs.Instance t, SearchStrategy s, List<Placement> batch) {
    List<Measurement> results = new ArrayList<>();
    for (Placement p : batch) {
      results.add(t.backend().measure(t.graph(), p, ONE_RUN));
    }
    s.tell(batch, results);
    return batch;
  }

  @Test
  void singleDevicesFirstThenTheWrappedStrategyThenSegmentMovesAfterEachRound() {
    TinyGraphs.Instance t = TinyGraphs.medium();
    Recording inner = new Recording();
    ColdStartStrategy s = new ColdStartStrategy(inner, CoarseningMode.NONE, ROUND, MOVES);
    s.init(SearchContext.builder(t.graph(), t.devices(), t.backend().supports(t.graph(), t.devices()))
        .budget(100).seed(5).backendName("fake").build());
    assertEquals("recording+cold-start", s.name());

    List<Placement> first = measure(t, s, s.ask(10));
    assertEquals(t.devices().size(), first.size(), "one placement per device, before the wrapped strategy");
    Set<String> mostly = new HashSet<>();
    for (Placement p : first) {
      int[] count = new int[t.devices().size()];
      for (int v = 0; v < t.graph().nodeCount(); v++) {
        count[p.deviceOf(v)]++;
      }
      for (int d = 0; d < count.length; d++) {
        if (count[d] >= t.graph().nodeCount() - 2) {
          mostly.add(t.devices().name(d)); // the CPU-only op and its constant stay on CPU
        }
      }
    }
    assertEquals(Set.copyOf(t.devices().names()), mostly);
    assertTrue(inner.proposed.isEmpty() && inner.told.isEmpty(), "the wrapped strategy neither asked nor told yet");

    List<Placement> innerBatch = new ArrayList<>();
    while (innerBatch.size() < ROUND) {
      innerBatch.addAll(measure(t, s, s.ask(ROUND - innerBatch.size())));
      assertEquals(inner.proposed, innerBatch, "then the wrapped strategy proposes");
      assertEquals(inner.proposed, inner.told, "and is told about its own placements only");
    }

    List<Placement> moves = measure(t, s, s.ask(10));
    assertTrue(!moves.isEmpty() && moves.size() <= MOVES,
        "after a round of the wrapped strategy: the segment moves " + moves);
    assertEquals(ROUND, inner.proposed.size(), "which the wrapped strategy did not propose");
    Set<Placement> before = new HashSet<>(first);
    before.addAll(innerBatch);
    for (Placement m : moves) {
      assertFalse(before.contains(m), "a segment move is a placement never asked before");
    }
    assertEquals(ROUND, inner.told.size());

    List<Placement> measured = new ArrayList<>(first);
    measured.addAll(innerBatch);
    measured.addAll(moves);
    List<Placement> favourites = s.favourites(3);
    assertEquals(3, favourites.size());
    assertTrue(measured.containsAll(favourites), "favourites are measured placements ranked by the latency model");
  }

  @Test
  void theRegistryHasARandomSearchAblationWithTheAddOns() {
    SearchStrategy s = Strategies.create("random-cold-start");
    assertEquals("random+cold-start", s.name());
    assertTrue(Strategies.get("random-cold-start").defaults() instanceof StrategyConfig.ColdStart c
        && c.inner() instanceof StrategyConfig.Random);
  }
}
