package org.hsdag.strategy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.features.FeatureConfig;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.search.SearchStrategy;

/**
 * The registry of search strategies selectable by name ({@code --strategy}). This is the one place
 * where a name is wired to an implementation; {@code options} are the {@code key=value} pairs from
 * the command line (feature ablations, coarsening, episodes, steps, ...), which each strategy reads
 * as it needs and otherwise ignores.
 */
public final class Strategies {
  /** The strategy used when none is named. */
  public static final String DEFAULT = "hsdag";

  private Strategies() {}

  /** Names accepted by {@link #create}, the default first. */
  public static List<String> names() {
    return List.of("hsdag", "hsdag-paper", "random");
  }

  /** True when {@code name} names a strategy of this build. */
  public static boolean exists(String name) {
    return names().contains(normalize(name));
  }

  /**
   * A new, uninitialised strategy.
   *
   * @throws IllegalArgumentException for an unknown name (the message lists the known ones)
   */
  public static SearchStrategy create(String name, Map<String, String> options) {
    String n = normalize(name);
    switch (n) {
      case "random":
        // Uniform random search has no knobs; options meant for learned strategies are ignored.
        return new RandomSearchStrategy();
      case "hsdag":
        return new HsdagStrategy(hsdagConfig(options, false));
      case "hsdag-paper":
        return new HsdagStrategy(hsdagConfig(options, true));
      default:
        throw new IllegalArgumentException("unknown strategy '" + name + "' (known: " + String.join(", ", names()) + ")");
    }
  }

  /** Option keys the HSDAG strategy understands. */
  public static final Set<String> HSDAG_OPTIONS = new TreeSet<>(List.of("episodes", "steps", "coarsen",
      "features.output-shape", "features.node-id", "features.structural", "hidden", "gcn-layers", "learning-rate",
      "gamma", "baseline", "entropy-bonus", "entropy-weight", "gradient-clip", "refinement-decay", "min-clusters",
      "torch-threads"));

  /** The HSDAG configuration from command-line options (paper-faithful training for {@code hsdag-paper}). */
  static HsdagConfig hsdagConfig(Map<String, String> options, boolean paper) {
    HsdagConfig.Builder b = HsdagConfig.builder();
    if (paper) {
      b.paperFaithful();
    }
    FeatureConfig features = FeatureConfig.DEFAULT;
    for (Map.Entry<String, String> e : options.entrySet()) {
      String v = e.getValue().trim();
      try {
        switch (e.getKey()) {
          case "episodes" -> { } // the tuner turns episodes x steps into the budget
          case "steps" -> b.stepsPerUpdate(Integer.parseInt(v));
          case "coarsen" -> b.coarsening(CoarseningMode.valueOf(v.toUpperCase(Locale.ROOT)));
          case "features.output-shape" -> features = bool(v) ? features : features.withoutOutputShape();
          case "features.node-id" -> features = bool(v) ? features : features.withoutNodeId();
          case "features.structural" -> features = bool(v) ? features : features.withoutStructural();
          case "hidden" -> b.hidden(Integer.parseInt(v)).placerHidden(Integer.parseInt(v));
          case "gcn-layers" -> b.gcnLayers(Integer.parseInt(v));
          case "learning-rate" -> b.learningRate(Double.parseDouble(v));
          case "gamma" -> b.gamma(Double.parseDouble(v));
          case "baseline" -> b.baseline(bool(v));
          case "entropy-bonus" -> b.entropyBonus(bool(v));
          case "entropy-weight" -> b.entropyWeight(Double.parseDouble(v));
          case "gradient-clip" -> b.gradientClip(bool(v));
          case "refinement-decay" -> b.refinementDecay(Double.parseDouble(v));
          case "min-clusters" -> b.minClusters(Integer.parseInt(v));
          case "torch-threads" -> b.torchThreads(Integer.parseInt(v));
          default -> throw new IllegalArgumentException("unknown hsdag option '" + e.getKey() + "' (known: "
              + String.join(", ", HSDAG_OPTIONS) + ")");
        }
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException("hsdag option " + e.getKey() + "=" + v + " is not a number");
      }
    }
    return b.features(features).build();
  }

  private static boolean bool(String v) {
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on", "1" -> true;
      case "false", "no", "off", "0" -> false;
      default -> throw new IllegalArgumentException("'" + v + "' is not true or false");
    };
  }

  private static String normalize(String name) {
    return name == null ? DEFAULT : name.trim().toLowerCase(Locale.ROOT);
  }
}
