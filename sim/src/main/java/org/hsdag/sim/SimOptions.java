package org.hsdag.sim;

import java.util.Objects;
import org.hsdag.cost.ShapeAssumption;

/**
 * Settings of a {@link SimBackend} apart from its profile.
 *
 * @param seed seed of the noise generator (one seed makes a run reproducible)
 * @param noise the run-to-run noise; {@link NoiseModel#ZERO} for exact values
 * @param shapes sizes assumed for dynamic dimensions
 */
public record SimOptions(long seed, NoiseModel noise, ShapeAssumption shapes) {
  /** Seed 0, default noise, batch 1 / sequence 8. */
  public static final SimOptions DEFAULT = new SimOptions(0, NoiseModel.DEFAULT, ShapeAssumption.DEFAULT);

  public SimOptions {
    Objects.requireNonNull(noise);
    Objects.requireNonNull(shapes);
  }

  /** No noise, default shapes: every sample is the simulated latency. */
  public static SimOptions exact() {
    return new SimOptions(0, NoiseModel.ZERO, ShapeAssumption.DEFAULT);
  }

  public SimOptions withSeed(long newSeed) {
    return new SimOptions(newSeed, noise, shapes);
  }

  public SimOptions withShapes(ShapeAssumption newShapes) {
    return new SimOptions(seed, noise, newShapes);
  }
}
