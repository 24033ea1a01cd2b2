package org.hsdag.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hsdag.backend.Measurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class FinalistChoiceTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  /** Near-tie placements (one op moved off GPU.1 each), measured 1 % apart in step order; the truly fastest one measured 30 % slow. */
  private record Run(PlacementProxy model, SearchOutcome outcome, Placement trulyBest) {}

  private static Run run() {
    return run(0, false);
  }

  private static Run run(int repeats) {
    return run(repeats, false);
  }

  /**
   * As above, with {@code repeats} more proposals of the truly fastest answered from the cache, and
   * with {@code outlierRun} its slow measurement due to one outlier run (else each measurement is one run).
   */
  private static Run run(int repeats, boolean outlierRun) {
    OpGraph g = TinyGraphs.randomDag(60, 6, 3);
    PlacementProxy model = PlacementProxy.ofSim(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()), g,
        DEVICES);
    int ops = model.model().opCount();
    List<Placement> placements = new ArrayList<>();
    for (int i = 0; i < ops && placements.size() < 12; i++) {
      int[] d = new int[ops];
      java.util.Arrays.fill(d, 1);
      if (model.model().supported(i, 0)) {
        d[i] = 0;
        placements.add(model.placement(d));
      }
    }
    Placement best = placements.stream().min(java.util.Comparator.comparingDouble(model::latencyMicros)).orElseThrow();
    List<SearchStep> steps = new ArrayList<>();
    for (Placement p : placements) {
      double ms = p.equals(best) ? 1.3 * model.latencyMicros(p) / 1000
          : (1 + 0.01 * steps.size()) * model.latencyMicros(best) / 1000;
      // With an outlier run, the truly fastest's runs are its true latency but one, 2.5 times slower: their mean is 30 % slow.
      double t = model.latencyMicros(p) / 1000;
      double[] runs = outlierRun && p.equals(best) ? new double[] {t, t, t, t, 2.5 * t} : new double[] {ms};
      Measurement m = new Measurement(true, runs, ms, ms, ms, 1, null, "sim", "paper");
      steps.add(new SearchStep(steps.size(), p, m, false));
    }
    SearchStep bestStep = steps.stream().filter(s -> s.placement().equals(best)).findFirst().orElseThrow();
    for (int i = 0; i < repeats; i++) {
      steps.add(new SearchStep(steps.size(), best, bestStep.measurement(), true));
    }
    return new Run(model,
        new SearchOutcome(StopReason.BUDGET_SPENT, "", steps, steps.size() - repeats, repeats, 0, true), best);
  }

  @Test
  void withoutACostModelOrRepeatsTheFastestMeasuredGoOn() {
    Run r = run();
    List<SearchStep> chosen = FinalistChoice.choose(r.outcome(), 4, Set.of(), null);
    assertEquals(r.outcome().top(4, Set.of()), chosen);
    assertFalse(chosen.stream().anyMatch(s -> s.placement().equals(r.trulyBest())),
        "one unlucky measurement keeps the truly fastest out");
  }

  @Test
  void aPlacementTheSearchKeepsProposingGetsInWithoutACostModel() {
    Run r = run(3);
    List<SearchStep> chosen = FinalistChoice.choose(r.outcome(), 4, Set.of(), null);
    assertEquals(r.outcome().ranked().get(0), chosen.get(0), "the fastest measured comes first");
    assertEquals(r.outcome().ranked().get(1), chosen.get(1),
        "then the fastest by the median of its runs (one run each here)");
    assertEquals(r.trulyBest(), chosen.get(2).placement(), "then the most proposed");
    assertEquals(4, new HashSet<>(chosen.stream().map(SearchStep::placement).toList()).size(), "no placement twice");
  }

  @Test
  void theStrategysFavouritesGetInSecondAndUnmeasuredOnesAreSkipped() {
    Run r = run();
    Placement neverMeasured = new Placement(DEVICES, new int[r.trulyBest().deviceOf().length]);
    List<SearchStep> chosen = FinalistChoice.choose(r.outcome(), 4, Set.of(), null,
        List.of(neverMeasured, r.trulyBest()));
    assertEquals(r.outcome().ranked().get(0), chosen.get(0), "the fastest measured comes first");
    assertEquals(r.outcome().ranked().get(1), chosen.get(1),
        "then the fastest by the median of its runs (one run each here)");
    assertEquals(r.trulyBest(), chosen.get(2).placement(), "then the strategy's first measured favourite");
    assertEquals(r.outcome().ranked().get(2), chosen.get(3), "then the next fastest measured");
  }

  @Test
  void theCostModelNominatesTheUnluckilyMeasuredPlacement() {
    Run r = run();
    List<SearchStep> chosen = FinalistChoice.choose(r.outcome(), 4, Set.of(), r.model());
    assertEquals(4, chosen.size());
    assertEquals(r.outcome().ranked().get(0), chosen.get(0), "the fastest measured comes first");
    assertTrue(chosen.stream().anyMatch(s -> s.placement().equals(r.trulyBest())));
    assertEquals(4, new HashSet<>(chosen.stream().map(SearchStep::placement).toList()).size(), "no placement twice");
  }

  @Test
  void excludedPlacementsNeverGoOnAndKIsTheLimit() {
    Run r = run();
    Placement fastestMeasured = r.outcome().ranked().get(0).placement();
    List<SearchStep> chosen = FinalistChoice.choose(r.outcome(), 3, Set.of(fastestMeasured, r.trulyBest()), r.model());
    assertEquals(3, chosen.size());
    assertTrue(
        chosen.stream().noneMatch(s -> s.placement().equals(fastestMeasured) || s.placement().equals(r.trulyBest())));
    assertEquals(r.outcome().ranked().size(), FinalistChoice.choose(r.outcome(), 100, Set.of(), r.model()).size(),
        "k beyond the measured placements takes them all");
  }

  @Test
  void aPlacementMeasuredSlowByOneOutlierRunGetsInByTheMedianOfItsRuns() {
    Run r = run(0, true);
    List<SearchStep> chosen = FinalistChoice.choose(r.outcome(), 2, Set.of(), null);
    assertEquals(r.outcome().ranked().get(0), chosen.get(0), "the fastest measured comes first");
    assertEquals(r.trulyBest(), chosen.get(1).placement(), "then the fastest by the median of its runs");
  }
}
