package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.cost.HeteroFit;
import org.hsdag.cost.HeteroSplitDesign;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** The designed splits measured in interleaved rounds, a placement's fastest round counting. */
class HeteroProfilingTest {
  private static final MeasurementProtocol ONE = new MeasurementProtocol(0, 1, Statistic.MEDIAN, 1, 0);

  @Test
  void roundsSlowedByLoadDoNotReachTheFitAndARefusalIsNotRetried() {
    OpGraph g = TinyGraphs.randomDag(40, 2, 3);
    HeteroCostModel base = HeteroCostModel.forProfile(g, DeviceProfile.load("paper"),
        new CostModel(ShapeAssumption.DEFAULT)).withDevices(List.of("CPU", "GPU.1"));
    HeteroCostModel truth = HeteroFit.apply(base, new double[] {1.2, 0.9},
        List.of(new HeteroDevice("CPU", 20, 0, 300), new HeteroDevice("GPU.1", 40, 0, 150)), 50);
    DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
    int designed = HeteroSplitDesign.placements(base).size();
    int[] first = HeteroSplitDesign.placements(base).get(0).deviceOfOp();
    int[] refused = HeteroSplitDesign.placements(base).get(designed - 1).deviceOfOp();
    List<Integer> calls = new ArrayList<>();
    int[] round = {-1};
    HeteroFit.Result fit = HeteroProfiling.fitCosts(g, base, devices, p -> {
      int[] dc = deviceOfOp(base, p);
      if (Arrays.equals(dc, first)) {
        round[0]++; // each round starts with the first designed placement
      }
      calls.add(round[0]);
      if (Arrays.equals(dc, refused)) {
        return Measurement.failed("HETERO refuses this split", "scripted", "x");
      }
      // Two of three rounds slowed, as a burst on a shared machine does: a median would be the 2x round.
      double ms = truth.evaluate(dc).micros() / 1000 * (round[0] == 1 ? 3 : round[0] == 2 ? 2 : 1);
      return Measurement.of(new double[] {ms}, ONE, 2, "scripted", "x");
    });
    assertEquals(designed - 1, fit.observations().size(), "the refused placement is left out");
    assertEquals(HeteroProfiling.DESIGN_ROUNDS * designed - (HeteroProfiling.DESIGN_ROUNDS - 1), calls.size(),
        "every placement once a round, the refused one only once");
    for (int k = 0; k < fit.observations().size(); k++) {
      HeteroFit.Observation o = fit.observations().get(k);
      assertEquals(truth.evaluate(o.deviceOfOp()).micros(), o.micros(), 1e-6 * o.micros(),
          "the fastest of (t, 3t, 2t): " + o.label());
    }
    assertTrue(fit.maxAbsError() < 0.02, "the slowed rounds do not reach the fit: " + fit.maxAbsError());
  }

  @Test
  void aFitStoppedMidwayContinuesFromWhatItHandedOverAndMeasuresOnlyTheRest() {
    OpGraph g = TinyGraphs.randomDag(40, 2, 3);
    HeteroCostModel base = HeteroCostModel.forProfile(g, DeviceProfile.load("paper"),
        new CostModel(ShapeAssumption.DEFAULT)).withDevices(List.of("CPU", "GPU.1"));
    DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
    int[] refused = HeteroSplitDesign.placements(base).get(1).deviceOfOp();
    List<int[]> measured = new ArrayList<>();
    java.util.function.Function<Placement, Measurement> measure = p -> {
      int[] dc = deviceOfOp(base, p);
      measured.add(dc);
      if (Arrays.equals(dc, refused)) {
        return Measurement.failed("HETERO refuses this split", "scripted", "x");
      }
      return Measurement.of(new double[] {base.evaluate(dc).micros() / 1000 * (1 + 0.01 * measured.size())}, ONE, 2,
          "scripted", "x");
    };
    List<DesignSamples> handed = new ArrayList<>();
    HeteroFit.Result whole = HeteroProfiling.fitCosts(g, base, devices, measure, DesignSamples.NONE, handed::add);
    int all = measured.size();
    assertEquals(all, handed.size(), "each measurement handed over as it is taken");
    for (int k = 0; k < all; k++) {
      assertEquals(k + 1, handed.get(k).measurements());
    }
    for (int stop : new int[] {1, 2, all / 2, all - 1, all}) {
      measured.clear();
      List<DesignSamples> again = new ArrayList<>();
      HeteroFit.Result resumed = HeteroProfiling.fitCosts(g, base, devices, measure, handed.get(stop - 1), again::add);
      assertEquals(all - stop, measured.size(), "after " + stop + " saved measurements only the rest is measured");
      DesignSamples last = again.isEmpty() ? handed.get(stop - 1) : again.get(again.size() - 1);
      assertEquals(all, last.measurements());
      for (DesignSamples.Sampled kept : handed.get(stop - 1).placements()) {
        DesignSamples.Sampled now = last.of(kept.label(), kept.deviceOfOp()).orElseThrow();
        assertEquals(kept.micros(), now.micros().subList(0, kept.micros().size()), "saved samples are kept");
        assertEquals(kept.failed(), now.failed());
      }
      assertEquals(whole.observations().size(), resumed.observations().size(), "the refusal is not retried");
    }
  }

  private static int[] deviceOfOp(HeteroCostModel model, Placement p) {
    int[] dc = new int[model.opCount()];
    for (int i = 0; i < dc.length; i++) {
      dc[i] = p.deviceOf(model.node(i));
    }
    return dc;
  }
}
