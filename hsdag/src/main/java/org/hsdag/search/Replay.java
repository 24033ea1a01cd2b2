package org.hsdag.search;

import java.util.List;

/**
 * The logged steps of a run being resumed. The engine takes the first {@code strategyAt} as they
 * are (the strategy was restored from a checkpoint taken there) and feeds the rest to the strategy
 * again, checking that it proposes exactly the logged placements; then the search goes on.
 *
 * @param logged the logged search steps, in order
 * @param strategyAt how many of them the restored strategy state already includes (0 = fresh state)
 */
public record Replay(List<SearchStep> logged, int strategyAt) {
  /** Nothing to replay: a new run. */
  public static final Replay NONE = new Replay(List.of(), 0);

  public Replay {
    logged = List.copyOf(logged);
    if (strategyAt < 0 || strategyAt > logged.size()) {
      throw new IllegalArgumentException("strategyAt " + strategyAt + " outside 0.." + logged.size());
    }
    for (int i = 0; i < logged.size(); i++) {
      if (logged.get(i).index() != i) {
        throw new IllegalArgumentException("logged step " + logged.get(i).index() + " at position " + i);
      }
    }
  }
}
