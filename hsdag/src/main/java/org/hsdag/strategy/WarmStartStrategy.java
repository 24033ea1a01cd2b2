package org.hsdag.strategy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.io.AtomicFiles;
import org.hsdag.placement.Placement;
import org.hsdag.search.Checkpointable;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchStrategy;

/**
 * A learned search warm-started on the cost model: the {@link PlannerStrategy} spends the first
 * measurements (the planner's candidates, then the corrected model's best guesses) until it has
 * nothing new worth measuring, and the learned strategy continues with the rest of the budget;
 * with {@code pretrainEpisodes > 0} an HSDAG policy is first trained on the cost model's latency
 * ({@link HsdagStrategy#pretrainOnProxy}, no measurements). After the planner an HSDAG policy
 * makes no segment moves: the planner has placed the run boundaries on the cost model already. The
 * engine keeps the best of both, so the result is never worse than the planner's. Without a cost
 * model ({@code --proxy none}, or a backend that has none) it is the learned strategy alone, cold
 * as published.
 */
public final class WarmStartStrategy implements SearchStrategy, Checkpointable, AutoCloseable {
  private static final String PLANNER_FILE = "planner-phase.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PlannerStrategy planner;
  private final SearchStrategy then;
  private boolean warm;

  private final int pretrainEpisodes;

  /** {@code then} after {@code planner}; an HSDAG {@code then} is first trained {@code pretrainEpisodes} episodes on the cost model. */
  public WarmStartStrategy(PlannerStrategy planner, SearchStrategy then, int pretrainEpisodes) {
    this.planner = planner;
    this.then = then;
    this.pretrainEpisodes = pretrainEpisodes;
  }

  @Override
  public String name() {
    return then.name();
  }

  @Override
  public void init(SearchContext context) {
    warm = context.proxy().isPresent();
    if (warm) {
      planner.init(context);
    }
    // Segment moves around the planner's best made the final race pick a lucky neighbour under a
    // mismatched cost model (issue 13 note); the planner has placed the run boundaries already.
    if (then instanceof HsdagStrategy h) {
      h.init(context, !warm);
    } else {
      then.init(context);
    }
    // A restored run overwrites this training with its saved state, so a resume stays identical.
    if (warm && then instanceof HsdagStrategy h && pretrainEpisodes > 0) {
      h.pretrainOnProxy(context.proxy().get(), pretrainEpisodes);
    }
  }

  private boolean inPlannerPhase() {
    return warm && !planner.finished();
  }

  @Override
  public List<Placement> ask(int limit) {
    if (inPlannerPhase()) {
      List<Placement> batch = planner.ask(limit);
      if (!batch.isEmpty()) {
        return batch;
      }
    }
    return then.ask(limit);
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    // A batch comes from one phase: the planner's while it still proposes, then the learned strategy's.
    if (inPlannerPhase()) {
      planner.tell(batch, results);
    } else {
      then.tell(batch, results);
    }
  }

  @Override
  public boolean finished() {
    return !inPlannerPhase() && then.finished();
  }

  @Override
  public List<Placement> favourites(int k) {
    return then.favourites(k);
  }

  /** The planner phase's batches (it is rebuilt by replaying them) and the learned strategy's own state. */
  @Override
  public void saveState(Path dir) throws IOException {
    Files.createDirectories(dir);
    AtomicFiles.writeBytes(dir.resolve(PLANNER_FILE), JSON.writeValueAsBytes(warm ? planner.history() : List.of()));
    if (then instanceof Checkpointable c) {
      c.saveState(dir);
    }
  }

  @Override
  public void restoreState(Path dir) throws IOException {
    if (!(then instanceof Checkpointable c)) {
      throw new IOException(then.name() + " keeps no checkpoint");
    }
    List<PlannerStrategy.Told> told = JSON.readValue(Files.readAllBytes(dir.resolve(PLANNER_FILE)),
        new TypeReference<List<PlannerStrategy.Told>>() {});
    if (warm) {
      try {
        planner.replay(told);
      } catch (IllegalStateException e) {
        throw new IOException(e.getMessage(), e);
      }
    }
    c.restoreState(dir);
  }

  @Override
  public void close() throws Exception {
    if (then instanceof AutoCloseable c) {
      c.close();
    }
  }
}
