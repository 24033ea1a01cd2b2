package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.hsdag.backend.CostModelSource.FitError;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.Plan;
import org.hsdag.plan.PlanCandidate;
import org.junit.jupiter.api.Test;

/** A split the cost model cannot back within its own error is not proposed; one it can back is. */
class PlanChoiceTest {
  private static final DeviceSet DS = DeviceSet.of("CPU", "CPU2");
  private static final PlanCandidate CPU = new PlanCandidate(Placement.allOn(DS, 4, "CPU"), 1000, 1, "single CPU");
  private static final PlanCandidate SPLIT = new PlanCandidate(new Placement(DS, new int[] {0, 0, 1, 1}), 800, 2,
      "cut CPU+CPU2");
  private static final Plan PLAN = new Plan(List.of(SPLIT, CPU), CPU, 10);

  @Test
  void aSplitWithinTheModelsErrorGivesWayToTheFastestSingleDevice() {
    PlanChoice c = PlanChoice.of(PLAN, FitError.of(List.of(0.05, -0.3, 0.1)));
    assertEquals(CPU, c.chosen());
    String note = c.note().orElseThrow();
    assertTrue(note.startsWith("no split beats CPU within the cost model's error and the profile's noise (±30.0 %)"),
        note);
    assertTrue(note.contains("20.0 % faster on the model") && note.contains("its 3 measured runs"), note);
  }

  @Test
  void aSplitBeyondTheModelsErrorIsProposed() {
    PlanChoice c = PlanChoice.of(PLAN, FitError.of(List.of(0.05, -0.1)));
    assertEquals(SPLIT, c.chosen());
    assertTrue(c.note().isEmpty());
  }

  @Test
  void aSplitWithinTheProfilesNoiseGivesWayEvenWhereTheFitIsClose() {
    // The fit is off by 10 % at most, but the repeats of one run differ by ±25 %: a 20 % gain is within that noise.
    PlanChoice c = PlanChoice.of(PLAN, FitError.of(List.of(0.05, -0.1), 0.25));
    assertEquals(CPU, c.chosen());
    String note = c.note().orElseThrow();
    assertTrue(note.contains("(±25.0 %)") && note.contains("the measurements' noise ±25.0 %"), note);
    assertEquals(SPLIT, PlanChoice.of(PLAN, FitError.of(List.of(0.05, -0.1), 0.02)).chosen());
  }

  @Test
  void withoutAMeasuredErrorThePlannersBestStands() {
    assertEquals(SPLIT, PlanChoice.of(PLAN, Optional.empty()).chosen());
    assertEquals(new FitError(3, 0.1, 0.3), FitError.of(List.of(0.1, -0.3, 0.05)).orElseThrow());
  }

  /** A measured run the model predicts refused has an infinite relative error: counted apart, never printed as one. */
  @Test
  void runsTheModelPredictsRefusedAreCountedApartNotAsAnInfiniteError() {
    FitError e = FitError.of(List.of(0.1, Double.POSITIVE_INFINITY, -0.3, 0.05), 0.02).orElseThrow();
    assertEquals(new FitError(3, 0.1, 0.3, 0.02, 1), e);
    assertEquals("on its 3 measured runs: median 10.0 %, max 30.0 %; 1 more measured run it predicts HETERO refuses",
        e.describe());
    assertEquals("on its 3 designed HETERO runs: median 10.0 %, max 30.0 %; 1 more designed HETERO run it predicts "
        + "HETERO refuses", e.describe("designed HETERO runs"), "calibrate's line, counted the same way");
    assertEquals(CPU, PlanChoice.of(PLAN, Optional.of(e)).chosen(), "the finite error still bounds the split's gain");
    FitError none = FitError.of(List.of(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY)).orElseThrow();
    assertFalse(none.describe().contains("Infinity") || none.describe().contains("NaN"), none.describe());
    PlanChoice unbacked = PlanChoice.of(PLAN, Optional.of(none));
    assertEquals(CPU, unbacked.chosen(), "a model that predicts nothing backs no split");
    assertFalse(unbacked.note().orElseThrow().contains("Infinity"), unbacked.note().orElseThrow());
  }
}
