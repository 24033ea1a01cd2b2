package org.hsdag.tune;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.search.Candidate;
import org.hsdag.throughput.Objective;
import org.hsdag.throughput.ObjectiveFigures;
import org.hsdag.throughput.ThroughputMeasuring;

/**
 * What a run was tuned for, kept in its folder ({@value #FILE}) so a resume tunes for the same and
 * the report says it: the objective, the requests in flight asked for (0: the devices + 1) and,
 * once the run completed, both figures of its final candidates (simulated: only the simulator
 * measures throughput so far). A run folder without the file was tuned for latency.
 *
 * @param objectiveName {@code latency} or {@code throughput}
 * @param requested requests in flight asked for, 0 for the default
 * @param figures both figures of the final candidates (empty until the run completes, or when the backend cannot give them)
 */
public record RunObjective(@JsonProperty("objective") String objectiveName, @JsonProperty("requests") int requested,
    @JsonProperty("figures") List<Row> figures) {
  public static final String FILE = "objective.json";
  private static final ObjectMapper JSON = org.hsdag.io.JsonFiles.mapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * Both figures of one candidate.
   *
   * @param label the candidate's label (e.g. {@code CPU-only}, {@code search#3})
   * @param latencyMillis one inference alone, ms
   * @param inferencesPerSecond with {@code requests} in flight
   * @param requests inferences in flight
   * @param best whether it is the run's best
   */
  public record Row(@JsonProperty("label") String label, @JsonProperty("latency_ms") double latencyMillis,
      @JsonProperty("inferences_per_s") double inferencesPerSecond, @JsonProperty("requests") int requests,
      @JsonProperty("best") boolean best) {}

  public RunObjective {
    Objective.parse(objectiveName);
    figures = figures == null ? List.of() : List.copyOf(figures);
  }

  public static RunObjective of(Objective objective, int requested) {
    return new RunObjective(objective.label(), requested, List.of());
  }

  @JsonIgnore
  public Objective objective() {
    return Objective.parse(objectiveName);
  }

  /** The run's objective: from its file, latency when it has none (runs from before the option). */
  public static RunObjective read(Path runDir) throws IOException {
    Path file = runDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return of(Objective.LATENCY, 0);
    }
    try {
      return JSON.readValue(Files.readAllBytes(file), RunObjective.class);
    } catch (IOException | IllegalArgumentException e) {
      throw new DamagedRunFileException(file, "not a run objective (" + e.getMessage() + ")");
    }
  }

  public void write(Path runDir) throws IOException {
    org.hsdag.io.AtomicFiles.writeBytes(runDir.resolve(FILE), JSON.writeValueAsBytes(this));
  }

  /** How the objective reads in a line: {@code latency} or {@code throughput (3 requests in flight)}. */
  public String describe(int devices) {
    return objective() == Objective.THROUGHPUT ? "throughput (" + (requested > 0 ? requested : devices + 1)
        + " requests in flight)" : "latency";
  }

  /**
   * This objective with both noise-free figures of {@code candidates} on {@code backend} ({@link
   * ThroughputMeasuring#figuresOf}: the simulator so far); unchanged when the backend cannot give them.
   */
  public RunObjective withFigures(LatencyBackend backend, OpGraph graph, List<Candidate> candidates, Candidate best) {
    var source = ThroughputMeasuring.figuresOf(backend, requested);
    if (source.isEmpty()) {
      return this;
    }
    ThroughputMeasuring tb = source.get();
    List<Row> rows = new ArrayList<>();
    for (Candidate c : candidates) {
      ObjectiveFigures f = c.ok() ? tb.figures(graph, c.placement()) : null;
      if (f != null) {
        rows.add(new Row(c.label(), f.latencyMillis(), f.inferencesPerSecond(), f.requests(), c.equals(best)));
      }
    }
    return new RunObjective(objectiveName, requested, rows);
  }

  /** One line per row: label, latency, throughput. */
  public List<String> lines(String numbers) {
    List<String> out = new ArrayList<>();
    for (Row r : figures) {
      out.add(String.format(Locale.ROOT,
          "  %-12s latency %9.3f ms   throughput %9.1f inferences/s (%d in flight, %s)%s",
          r.label(), r.latencyMillis(), r.inferencesPerSecond(), r.requests(), numbers, r.best() ? "  <- best" : ""));
    }
    return out;
  }
}
