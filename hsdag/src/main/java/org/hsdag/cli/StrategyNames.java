package org.hsdag.cli;

import java.util.ArrayList;
import org.hsdag.strategy.Strategies;

/** Strategy names for the help text of {@code tune --strategy}. */
final class StrategyNames extends ArrayList<String> {
  private static final long serialVersionUID = 1L;

  StrategyNames() {
    super(Strategies.names());
  }
}
