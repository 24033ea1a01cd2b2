package org.hsdag.bench.real;

import static org.hsdag.bench.real.RealRuntimeFigures.model;
import static org.hsdag.bench.real.RealRuntimeFigures.ok;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.bench.real.RealRuntimeFigures.Model;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * The isolation section of {@link RealRuntimeFigures}: what running the native runtime in a child
 * process costs per measurement. The same placements are measured through an in-process backend
 * and through the runtime child, interleaved, each kept compiled (as a tune re-measures). Per
 * measurement, hsdag's time outside the timed inferences is its wall time less the sum of its
 * samples (the samples are timed inside whichever process runs them, so this removes most of the
 * inference noise); the isolation cost is the difference of its medians, stated against the
 * median wall time of an in-process measurement.
 */
final class IsolationOverheadFigures {
  private final PrintWriter out;
  private final int rounds;

  IsolationOverheadFigures(PrintWriter out, int rounds) {
    this.out = out;
    this.rounds = rounds;
  }

  void print(OpenVinoOptions options, DeviceSet pair, String modelName) throws IOException {
    try (OpenVinoBackend inProcess = OpenVinoBackend.openInProcess(options, ShapeAssumption.DEFAULT);
        OpenVinoBackend child = OpenVinoBackend.open(options)) {
      Model m = model(inProcess, modelName);
      child.bind(m.graph(), m.xml());
      int n = m.graph().nodeCount();
      List<Placement> ps = List.of(Placement.allOn(pair, n, pair.name(0)), Placement.allOn(pair, n, pair.name(1)));
      MeasurementProtocol protocol = MeasurementProtocol.PAPER;
      for (Placement p : ps) { // compile once on each side, kept for the rounds
        ok(inProcess.measure(m.graph(), p, protocol), "in-process measurement");
        ok(child.measure(m.graph(), p, protocol), "isolated measurement");
      }
      List<Double> wallIn = new ArrayList<>();
      List<Double> outsideIn = new ArrayList<>();
      List<Double> outsideChild = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        for (Placement p : ps) {
          // Alternate which side goes first, so neither always follows the other.
          boolean childFirst = (r + ps.indexOf(p)) % 2 == 0;
          double[] a = childFirst ? timed(child, m, p, protocol) : timed(inProcess, m, p, protocol);
          double[] b = childFirst ? timed(inProcess, m, p, protocol) : timed(child, m, p, protocol);
          double[] in = childFirst ? b : a;
          double[] iso = childFirst ? a : b;
          wallIn.add(in[0]);
          outsideIn.add(in[0] - in[1]);
          outsideChild.add(iso[0] - iso[1]);
        }
      }
      double cost = median(outsideChild) - median(outsideIn);
      out.printf("## Isolation: the runtime in a child process vs in the tune's JVM (%s, %s, %d rounds x %d "
          + "placements, kept compiled)%n%n", m.label(), protocol.describe(), rounds, ps.size());
      out.printf("- in-process measurement: wall %.2f ms median [%.2f-%.2f]%n", median(wallIn), min(wallIn),
          max(wallIn));
      out.printf("- outside the timed inferences: in-process %.3f ms, child %.3f ms (medians)%n", median(outsideIn),
          median(outsideChild));
      out.printf(
          "- isolation cost per measurement: %.3f ms = %.2f %% of an in-process measurement (target <= 2 %%)%n%n",
          cost, 100 * cost / median(wallIn));
    }
  }

  /** Wall time and the sum of the samples of one measurement, ms. */
  private static double[] timed(OpenVinoBackend b, Model m, Placement p, MeasurementProtocol protocol) {
    long t = System.nanoTime();
    Measurement x = ok(b.measure(m.graph(), p, protocol), "measurement");
    double wall = (System.nanoTime() - t) / 1e6;
    return new double[] {wall, Arrays.stream(x.samplesMillis()).sum()};
  }

  private static double median(List<Double> xs) {
    double[] s = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static double min(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  private static double max(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }
}
