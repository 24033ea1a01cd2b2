package org.hsdag.arch.planted.run;

import org.hsdag.sim.SimOptions;

/** A deliberate layer violation, for {@code BenchLayerRulesTest}: the experiment runner naming the simulator. */
public final class RunsOnTheSimulator {
  public boolean isSimulator(Object options) {
    return options instanceof SimOptions;
  }
}
