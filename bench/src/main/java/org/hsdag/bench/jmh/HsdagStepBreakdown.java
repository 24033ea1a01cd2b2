package org.hsdag.bench.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.CostCorrection;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.policy.HsdagPolicy;
import org.hsdag.search.SearchContext;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.HsdagStrategy;

/**
 * Where one step of the HSDAG strategy's learned phase goes on a real model, as a warm-started
 * {@code tune} runs it (to see what grows with the model or the run): the policy's forward pass split into
 * the GCN encoder, pooling (edge scores, graph parsing, cluster pooling) and the placer (masked
 * log-probabilities, sampling), lifting the coarse decision to a placement, the veto's evaluation
 * of it on the corrected cost model (HETERO's split, kernels, copies), the cost-model correction
 * refitted to one more measurement, and the REINFORCE update (backward and Adam, once per episode,
 * shown per step). The measurement itself is the simulator's (sim/paper, noise-free) and is not
 * counted. Prints milliseconds per step, the mean over the steps after a warm-up episode.
 *
 * <pre>
 * ./hsdag.sh run-class org.hsdag.bench.jmh.HsdagStepBreakdown MODEL.xml|NAME [steps]
 * </pre>
 *
 * (e.g. {@code bert_base}, 989 nodes, or {@code ../shared/ir-samples/ssd-inception-v2.xml}.) A
 * plain main, as {@link PolicyStepBenchmark}: the figure is a per-step split, which JMH does not give.
 */
public final class HsdagStepBreakdown {
  private HsdagStepBreakdown() {}

  /** Nanoseconds per part, summed over the counted steps. */
  private static final class Parts {
    long lift;
    long evaluate;
    long correct;
    long update;
    long total;
    int vetoed;
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: HsdagStepBreakdown MODEL.xml|NAME [steps]");
      System.exit(2);
    }
    OpGraph graph = args[0].endsWith(".xml") ? new IrReader().read(Path.of(args[0]))
        : ModelCatalog.get(args[0]).build().graph();
    System.out.print(run(graph, args.length > 1 ? Integer.parseInt(args[1]) : 100));
  }

  /** The breakdown of {@code steps} steps on {@code graph}, as printed. */
  static String run(OpGraph graph, int steps) {
    StringBuilder out = new StringBuilder();
    DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    PlacementProxy proxy = PlacementProxy.ofSim(sim, graph, devices);
    SearchContext context = SearchContext.builder(graph, devices, sim.supports(graph, devices)).budget(1_000_000)
        .seed(1).proxy(proxy).build();
    CostCorrection correction = new CostCorrection(proxy);
    PlacementProxy corrected = correction.corrected();
    java.util.Set<Placement> measured = new java.util.LinkedHashSet<>();
    try (HsdagStrategy strategy = new HsdagStrategy()) {
      long t0 = System.nanoTime();
      strategy.init(context, false);
      double initMs = (System.nanoTime() - t0) / 1e6;
      HsdagPolicy policy = strategy.trainer().policy();
      int warmup = strategy.config().stepsPerUpdate();
      Parts p = new Parts();
      HsdagPolicy.ForwardTimes before = policy.forwardTimes();
      for (int s = 0; s < warmup + steps; s++) {
        if (s == warmup) {
          p = new Parts();
          before = policy.forwardTimes();
        }
        long a = System.nanoTime();
        double forwardBefore = total(policy.forwardTimes());
        List<Placement> batch = strategy.ask(1);
        long b = System.nanoTime();
        p.lift += b - a - Math.round((total(policy.forwardTimes()) - forwardBefore) * 1e6);
        Placement placement = batch.get(0);
        // The veto: the proposal against the best measured placement, both on the corrected model.
        double reference = Double.POSITIVE_INFINITY;
        for (Placement q : measured) {
          reference = Math.min(reference, corrected.latencyMicros(q));
        }
        boolean vetoed = corrected.latencyMicros(placement) > 1.05 * reference;
        long c = System.nanoTime();
        p.evaluate += c - b;
        Measurement m = sim.measure(graph, placement, MeasurementProtocol.PAPER);
        long d = System.nanoTime();
        if (m.ok()) {
          correction.observe(placement, m.latencyMillis());
          measured.add(placement);
        }
        corrected = correction.corrected();
        long e = System.nanoTime();
        p.correct += e - d;
        strategy.tell(batch, List.of(m));
        long f = System.nanoTime();
        p.update += f - e;
        p.total += f - a - (d - c);
        p.vetoed += vetoed ? 1 : 0;
      }
      HsdagPolicy.ForwardTimes after = policy.forwardTimes();
      double enc = (after.encoderMillis() - before.encoderMillis()) / steps;
      double pool = (after.poolingMillis() - before.poolingMillis()) / steps;
      double place = (after.placerMillis() - before.placerMillis()) / steps;
      out.append(String.format(Locale.ROOT,
          "%s: %d nodes -> %d coarse nodes, %d devices (sim/paper, noise-free); policy built "
              + "in %.0f ms (libtorch load, coarsening, features, network)%n",
          graph.name(), graph.nodeCount(),
          strategy.coarsening().clusterCount(), devices.size(), initMs));
      out.append(String.format(Locale.ROOT, "ms per step, mean of %d steps after a %d-step warm-up episode:%n", steps,
          warmup));
      out.append(String.format(Locale.ROOT, "  encoder forward          %8.2f%n", enc));
      out.append(String.format(Locale.ROOT, "  pooling (scores, parse)  %8.2f%n", pool));
      out.append(String.format(Locale.ROOT, "  placer + sampling        %8.2f%n", place));
      out.append(String.format(Locale.ROOT, "  lift to a placement      %8.2f%n", p.lift / 1e6 / steps));
      out.append(String.format(Locale.ROOT, "  REINFORCE update         %8.2f%n", p.update / 1e6 / steps));
      out.append(String.format(Locale.ROOT, "  cost-model correction    %8.2f%n", p.correct / 1e6 / steps));
      out.append(String.format(Locale.ROOT, "  placement evaluation     %8.2f%n", p.evaluate / 1e6 / steps));
      out.append(String.format(Locale.ROOT,
          "  total (no measurement)   %8.2f   (%d of the %d proposals the veto would skip)%n",
          p.total / 1e6 / steps, p.vetoed, steps));
    }
    return out.toString();
  }

  private static double total(HsdagPolicy.ForwardTimes t) {
    return t.encoderMillis() + t.poolingMillis() + t.placerMillis();
  }
}
