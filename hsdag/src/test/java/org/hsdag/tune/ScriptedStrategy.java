package org.hsdag.tune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;
import org.hsdag.search.Checkpointable;
import org.hsdag.search.SequentialStrategy;
import org.hsdag.search.SearchContext;

/** Proposes a fixed list of placements in a cycle (built from the context once init is called). */
final class ScriptedStrategy implements SequentialStrategy, Checkpointable {
  private final Function<SearchContext, List<Placement>> script;
  private List<Placement> placements;
  private int next;
  final List<Measurement> observed = new ArrayList<>();

  ScriptedStrategy(Function<SearchContext, List<Placement>> script) {
    this.script = script;
  }

  @Override
  public String name() {
    return "scripted";
  }

  @Override
  public void init(SearchContext context) {
    placements = List.copyOf(script.apply(context));
    next = 0;
  }

  @Override
  public Placement propose() {
    return placements.get(next++ % placements.size());
  }

  @Override
  public void observe(Placement placement, Measurement measurement) {
    observed.add(measurement);
  }

  @Override
  public void saveState(Path dir) throws IOException {
    Files.writeString(dir.resolve("next.txt"), Integer.toString(next));
  }

  @Override
  public void restoreState(Path dir) throws IOException {
    next = Integer.parseInt(Files.readString(dir.resolve("next.txt")).trim());
  }
}
