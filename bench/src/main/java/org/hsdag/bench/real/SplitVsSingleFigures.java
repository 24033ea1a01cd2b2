package org.hsdag.bench.real;

import static org.hsdag.bench.real.RealRuntimeFigures.model;
import static org.hsdag.bench.real.RealRuntimeFigures.ok;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsdag.backend.ConfidenceInterval;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.hsdag.tune.Tuner;
import org.hsdag.bench.real.RealRuntimeFigures.Model;

/**
 * The split section of {@link RealRuntimeFigures}: a finished tune's best split placement against
 * its best single device, from the tune's own final rounds and re-measured here in alternating rounds.
 */
final class SplitVsSingleFigures {
  private final PrintWriter out;
  private final int rounds;
  private final int splitRuns;
  private final MeasurementProtocol splitProtocol;

  /** The fastest split and the fastest single-device candidate of a tune's result.json. */
  private record Best(JsonNode split, JsonNode single) {}

  SplitVsSingleFigures(PrintWriter out, int rounds, int splitRuns, MeasurementProtocol splitProtocol) {
    this.out = out;
    this.rounds = rounds;
    this.splitRuns = splitRuns;
    this.splitProtocol = splitProtocol;
  }

  void print(OpenVinoBackend backend, DeviceSet pair, Path tuneOut, String tuneModel) throws IOException {
    Model m = model(backend, tuneModel);
    JsonNode result = new ObjectMapper().readTree(tuneOut.resolve("result.json").toFile());
    out.printf("## Tuned %s placement vs the best single device (%s, tune run %s)%n%n", String.join("/", pair.names()),
        m.label(), tuneOut);
    out.printf("tune's decision: %s. Its own final re-measurement (interleaved rounds, median, 95 %% interval):%n%n",
        result.path("decision").asText());
    out.println("| candidate | ops per device | latency ms | 95 % interval | sub-models |");
    out.println("|---|---|---|---|---|");
    Best best = printCandidates(result);
    JsonNode bestSplit = best.split();
    JsonNode bestSingle = best.single();
    out.println();
    if (bestSplit == null || bestSingle == null) {
      out.println("(the tune has no split or no single-device candidate to compare)");
      out.println();
      return;
    }
    Placement split = null;
    Placement single = null;
    for (LogRecord r : RunLog.read(tuneOut.resolve(Tuner.LOG_FILE)).records()) {
      if (r.hasMeasurement() && r.assignment() != null) {
        if (r.placement().equals(bestSplit.path("placement").asText())) {
          split = r.toPlacement(pair);
        }
        if (r.placement().equals(bestSingle.path("placement").asText())) {
          single = r.toPlacement(pair);
        }
      }
    }
    if (split == null || single == null) {
      throw new IllegalStateException(
          "the tune's log has no assignment for " + bestSplit.path("placement").asText() + " or "
              + bestSingle.path("placement").asText());
    }
    remeasure(backend, m, split, single, bestSplit, bestSingle);
  }

  /** The tune's candidates as a table; returns the fastest split and single-device ones. */
  private Best printCandidates(JsonNode result) {
    JsonNode bestSplit = null;
    JsonNode bestSingle = null;
    for (JsonNode c : result.path("candidates")) {
      out.printf(Locale.ROOT, "| %s | %s | %.3f | %.3f-%.3f | %d |%n", c.path("label").asText(),
          c.path("ops_per_device").toString(),
          c.path("latency_ms").asDouble(), c.path("ci95_low_ms").asDouble(), c.path("ci95_high_ms").asDouble(),
          c.path("sub_models").asInt());
      JsonNode counts = c.path("ops_per_device");
      boolean single = false;
      for (JsonNode v : counts) {
        single |= v.asInt() == 0;
      }
      if (single
          && (bestSingle == null || c.path("latency_ms").asDouble() < bestSingle.path("latency_ms").asDouble())) {
        bestSingle = c;
      }
      if (!single && (bestSplit == null || c.path("latency_ms").asDouble() < bestSplit.path("latency_ms").asDouble())) {
        bestSplit = c;
      }
    }
    return new Best(bestSplit, bestSingle);
  }

  /** Split and single device re-measured here in alternating rounds, with the pooled samples' intervals. */
  private void remeasure(OpenVinoBackend backend, Model m, Placement split, Placement single, JsonNode bestSplit,
      JsonNode bestSingle) {
    String singleLabel = bestSingle.path("label").asText();
    List<Double> ratio = new ArrayList<>();
    List<Double> splitSamples = new ArrayList<>();
    List<Double> singleSamples = new ArrayList<>();
    double[] splitMs = new double[rounds];
    double[] singleMs = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      boolean splitFirst = r % 2 == 0;
      Measurement a = ok(backend.measure(m.graph(), splitFirst ? split : single, splitProtocol), "re-measurement");
      Measurement b = ok(backend.measure(m.graph(), splitFirst ? single : split, splitProtocol), "re-measurement");
      Measurement s = splitFirst ? a : b;
      Measurement o = splitFirst ? b : a;
      splitMs[r] = s.latencyMillis();
      singleMs[r] = o.latencyMillis();
      ratio.add(splitMs[r] / singleMs[r]);
      for (double x : s.samplesMillis()) {
        splitSamples.add(x);
      }
      for (double x : o.samplesMillis()) {
        singleSamples.add(x);
      }
    }
    double[] ciSplit = ConfidenceInterval.ofMedian(splitSamples.stream().mapToDouble(Double::doubleValue).toArray(),
        0.95);
    double[] ciSingle = ConfidenceInterval.ofMedian(singleSamples.stream().mapToDouble(Double::doubleValue).toArray(),
        0.95);
    Spread rs = Spread.of(ratio);
    out.printf(Locale.ROOT,
        "Independent re-measurement here: %d interleaved rounds of '%s' each (order alternating); per-round medians, "
            + "and the 95 %% interval of the median of all %d pooled samples:%n%n",
        rounds, splitProtocol.describe(), rounds * splitRuns);
    out.println("| placement | ms per round: median [min-max] | pooled median 95 % interval |");
    out.println("|---|---|---|");
    out.printf(Locale.ROOT, "| tuned split (%s) | %s | %.3f-%.3f |%n", bestSplit.path("label").asText(),
        Spread.of(splitMs).format(3), ciSplit[0], ciSplit[1]);
    out.printf(Locale.ROOT, "| best single device (%s) | %s | %.3f-%.3f |%n%n", singleLabel,
        Spread.of(singleMs).format(3), ciSingle[0], ciSingle[1]);
    out.printf(Locale.ROOT, "split / %s per round: %s -> %s%n%n", singleLabel, rs.format(3),
        ciSplit[1] < ciSingle[0] ? "the split is faster (intervals apart)"
            : ciSingle[1] < ciSplit[0] ? "the single device is faster (intervals apart)"
            : "no difference the intervals can resolve");
  }
}
