package org.hsdag.throughput;

import java.util.SplittableRandom;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.SimGraph;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A backend capability: what {@link ThroughputBackend} needs of a simulator to model HETERO's
 * pipeline — its evaluation of a placement, its cost model, its seeded noise. The simulator
 * ({@code org.hsdag.sim.SimBackend}) implements it, so this package does not depend on the simulator's.
 */
public interface PipelineSimulator extends KeyedMeasurement {
  /** The seed of the simulator's noise. */
  long noiseSeed();

  /** Fills {@code out} with noisy runs around {@code base} ms, the first {@code warmup} of them warm-up runs. */
  void sampleNoise(double base, int warmup, double[] out, SplittableRandom rng);

  /** The simulator's evaluation of {@code placement} (sub-models, failures). */
  SimGraph.Evaluation evaluate(OpGraph graph, Placement placement);

  /** The device of each operation of {@code graph} under {@code placement}. */
  int[] opDevices(OpGraph graph, Placement placement);

  /** The cost model the simulator uses for {@code graph}. */
  HeteroCostModel costModel(OpGraph graph);
}
