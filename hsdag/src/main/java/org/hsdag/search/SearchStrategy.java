package org.hsdag.search;

import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;

/**
 * A placement search in batch ask–tell form, so {@code tune}, {@code bench} and {@code apply} drive
 * every method (HSDAG, random, greedy, BRKGA, Placeto, RNN, single-device, AUTO emulation) through
 * one {@link SearchEngine} and compare them at equal measurement budgets.
 *
 * <p>Protocol: {@link #init} once; then repeatedly {@link #ask} for a batch of placements and
 * {@link #tell} their measurements, in proposal order, until the engine stops (budget, time limit,
 * {@link #finished()}, convergence, ...). If the engine stops in the middle of a batch the rest is
 * never told and the strategy is not asked again.
 *
 * <p>Batches: a strategy proposes as many placements as it can decide without new results (HSDAG
 * an episode, BRKGA a generation, the RNN placer a sample batch; sequential strategies one), but
 * never more than {@code limit}: the number of new measurements the budget still allows, so a batch
 * never overruns the budget. Placements measured before are answered from the engine's cache for
 * free, so a strategy needs no cache of its own. The engine may measure a batch in any order.
 *
 * <p>Determinism: given the seed and the measurements told, the sequence of proposals is identical
 * however the engine cuts it into batches (a generation cut by the limit continues at the next
 * ask). This is what makes resume, replay and equal-budget comparisons exact.
 */
public interface SearchStrategy {
  /** Short method name for logs and tables, e.g. {@code hsdag}, {@code random}. */
  String name();

  void init(SearchContext context);

  /**
   * The next placements to measure (each on every node of the graph): at least one and at most
   * {@code limit}, or none when {@link #finished()}.
   *
   * @param limit at least 1
   */
  List<Placement> ask(int limit);

  /** The measurements of the batch last asked, in the same order (failed measurements included). */
  void tell(List<Placement> batch, List<Measurement> results);

  /**
   * Up to {@code k} placements it has measured that the strategy itself would return, best first,
   * judged on more than each one's own measurement (e.g. a latency model fitted to all of them); none
   * by default. They go to the final re-measurement beside the fastest measured.
   */
  default List<Placement> favourites(int k) {
    return List.of();
  }

  /** True when the strategy has nothing more to propose (e.g. a single-device baseline). */
  default boolean finished() {
    return false;
  }

  /** Why it {@link #finished()}, in words for the run's stop reason; "" when there is nothing to add. */
  default String finishedReason() {
    return "";
  }
}
