package org.hsdag.bench.real;

import static org.hsdag.bench.real.RealRuntimeFigures.model;
import static org.hsdag.bench.real.RealRuntimeFigures.ok;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.openvino.MeasurementCost;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.placement.SplitPlacements;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.bench.real.RealRuntimeFigures.Model;

/**
 * The measure-cost section of {@link RealRuntimeFigures}: what one real measurement costs (compile
 * vs inference), without and with OpenVINO's model cache. One instance per section run.
 */
final class MeasurementCostFigures {
  private final PrintWriter out;
  private final int rounds;
  private final long seed;
  private final List<Double> prep = new ArrayList<>();
  private final List<Double> compile = new ArrayList<>();
  private final List<Double> infer = new ArrayList<>();
  private final List<Double> total = new ArrayList<>();
  private final List<Double> release = new ArrayList<>();
  private final List<Double> miss = new ArrayList<>();
  private final List<Double> hit = new ArrayList<>();
  private final List<Double> hitTotal = new ArrayList<>();
  private final List<Double> missInfer = new ArrayList<>();
  private final List<Double> hitInfer = new ArrayList<>();
  private int subModelMismatches;

  MeasurementCostFigures(PrintWriter out, int rounds, long seed) {
    this.out = out;
    this.rounds = rounds;
    this.seed = seed;
  }

  void print(OpenVinoOptions options, DeviceSet pair, String costModelName) throws IOException {
    Path cache = Files.createTempDirectory("hsdag-ov-cache-");
    try (OpenVinoBackend plain = OpenVinoBackend.open(options);
        OpenVinoBackend cached = OpenVinoBackend.open(options.withCacheDir(cache))) {
      Model m = model(plain, costModelName);
      cached.bind(m.graph(), m.xml());
      PlacementProxy proxy = PlacementProxy.of(m.graph(), plain.costModel(m.graph()), pair);
      List<Placement> ps = new ArrayList<>();
      ps.add(Placement.allOn(pair, m.graph().nodeCount(), "CPU"));
      for (int[] p : SplitPlacements.generate(proxy.model().opCount(), 5, 0, 6, seed + 1)) {
        ps.add(proxy.placement(p));
      }
      measure(plain, cached, m, ps);
      printTable(m, ps, pair, cache);
      printCacheFolder(cache);
    } finally {
      deleteTree(cache);
    }
  }

  /** Every placement, {@code rounds} times, without and then with the cache. */
  private void measure(OpenVinoBackend plain, OpenVinoBackend cached, Model m, List<Placement> ps) {
    for (int r = 0; r < rounds; r++) {
      for (Placement p : ps) {
        long t = System.nanoTime();
        MeasurementCost a = plain.measureWithCost(m.graph(), p, MeasurementProtocol.PAPER);
        double aWall = (System.nanoTime() - t) / 1e6;
        t = System.nanoTime();
        MeasurementCost b = cached.measureWithCost(m.graph(), p, MeasurementProtocol.PAPER);
        double bWall = (System.nanoTime() - t) / 1e6;
        ok(a.measurement(), "no-cache measurement");
        ok(b.measurement(), "cached measurement");
        if (a.measurement().subModels() != b.measurement().subModels()) {
          subModelMismatches++;
        }
        if (r > 0 || ps.indexOf(p) > 0) { // the very first compile also loads the plugins: not a per-measurement cost
          prep.add(a.prepareMillis());
          compile.add(a.compileMillis());
          infer.add(a.inferMillis());
          total.add(aWall);
          release.add(aWall - a.prepareMillis() - a.compileMillis() - a.inferMillis());
        }
        (r == 0 ? miss : hit).add(b.compileMillis());
        (r == 0 ? missInfer : hitInfer).add(b.inferMillis());
        if (r > 0) {
          hitTotal.add(bWall);
        }
      }
    }
  }

  private void printTable(Model m, List<Placement> ps, DeviceSet pair, Path cache) {
    out.printf(
        "## Cost of one real measurement (%s, %d placements: CPU-only and %d CPU/%s splits; protocol '%s', as tune)%n%n",
        m.label(), ps.size(), ps.size() - 1, pair.name(1), MeasurementProtocol.PAPER.describe());
    out.printf(
        "%d rounds; in each, every placement measured without and then with OpenVINO's model cache (CACHE_DIR %s, empty at the "
            + "start: round 1 writes it, later rounds read it). ms per measurement, median [min-max]%n%n",
        rounds, cache);
    out.println("| part | no cache | cache, first compile (miss, writes) | cache, later compiles (hit) |");
    out.println("|---|---|---|---|");
    out.printf("| hsdag prepare (placement, names, affinities) | %s | | |%n", Spread.of(prep).format(1));
    out.printf("| OpenVINO compile_model + infer request | %s | %s | %s |%n", Spread.of(compile).format(1),
        Spread.of(miss).format(1),
        hit.isEmpty() ? "-" : Spread.of(hit).format(1));
    out.printf("| inputs + 10 inferences | %s | %s | %s |%n", Spread.of(infer).format(1),
        Spread.of(missInfer).format(1),
        hitInfer.isEmpty() ? "-" : Spread.of(hitInfer).format(1));
    out.printf("| releasing the compiled model (the rest of the call) | %s | | |%n", Spread.of(release).format(1));
    out.printf("| whole measure call | %s | | %s |%n%n", Spread.of(total).format(1),
        hitTotal.isEmpty() ? "-" : Spread.of(hitTotal).format(1));
    double[] share = new double[compile.size()];
    for (int i = 0; i < share.length; i++) {
      share[i] = compile.get(i) / total.get(i);
    }
    out.printf(Locale.ROOT,
        "compile share of a measurement without cache: %s; cache hit / no-cache compile time: %.2f (medians); "
            + "sub-model count differed between cached and uncached compiles of the same placement %d times of %d%n%n",
        Spread.of(share).format(2),
        hit.isEmpty() ? Double.NaN : Spread.of(hit).median() / Spread.of(compile).median(),
        subModelMismatches, rounds * ps.size());
  }

  private void printCacheFolder(Path cache) throws IOException {
    try (var files = Files.walk(cache)) {
      List<Path> blobs = files.filter(Files::isRegularFile).toList();
      long bytes = 0;
      for (Path f : blobs) {
        bytes += Files.size(f);
      }
      out.printf(Locale.ROOT,
          "the cache folder held %d files, %.1f MB, at the end (what OpenVINO wrote for these compiles)%n%n",
          blobs.size(), bytes / 1e6);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
