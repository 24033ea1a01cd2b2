package org.hsdag.arch.layered.cli;

import org.hsdag.sim.SimBackend;

/** A deliberate layer violation, for {@code LayerRulesTest} to see the rule fail: a command asking for the simulator. */
public final class OpensTheSimulator {
  public boolean isSimulator(Object backend) {
    return backend instanceof SimBackend;
  }
}
