package org.hsdag.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.hsdag.strategy.AutoEmulationStrategy;
import org.hsdag.strategy.BrkgaStrategy;
import org.hsdag.strategy.Grouping;
import org.hsdag.strategy.LocalSearchStrategy;
import org.hsdag.strategy.SingleDeviceStrategy;
import org.hsdag.strategy.RandomSearchStrategy;
import org.hsdag.strategy.PlacetoStrategy;
import org.hsdag.strategy.RnnPlacerStrategy;
import org.hsdag.cli.UserInputException;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.features.FeatureConfig;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.strategy.HsdagStrategy;
import org.hsdag.search.SearchStrategy;

/**
 * The registry of placement methods {@code bench} can compare, by name: the paper's baselines, our
 * extra baselines, HSDAG and its ablations. This is the one place where a method name is wired to
 * an implementation.
 */
public final class Methods {
  /** Which table a method belongs to. */
  public enum Kind {
    /** Table 2 rows. */
    BASELINE,
    /** HSDAG itself (Tables 2 and 3). */
    HSDAG,
    /** Table 3 rows. */
    ABLATION
  }

  /**
   * One method.
   *
   * @param name the CLI name, e.g. {@code openvino-gpu}
   * @param label the row label in tables, e.g. {@code OpenVINO-GPU}
   * @param paperRow the row of the paper's Table 2/3 this corresponds to, or null (our extra baselines)
   * @param kind which table it belongs to
   * @param requiredDevice a device the method cannot run without, or null
   * @param factory makes a new, uninitialised strategy
   */
  public record Method(String name, String label, String paperRow, Kind kind, String requiredDevice, Supplier<SearchStrategy> factory) {
    public SearchStrategy create() {
      return factory.get();
    }
  }

  private static final Map<String, Method> METHODS = build();

  private Methods() {}

  private static Map<String, Method> build() {
    // Search baselines place every op (constants follow their consumer, as HETERO does); the
    // learned placers of Placeto and Mirhoseini et al. act on co-located groups, as in their papers.
    Grouping g = Grouping.colocation(CoarseningMode.NONE);
    Grouping grouped = Grouping.colocation(CoarseningMode.MIRHOSEINI);
    List<Method> l = new ArrayList<>();
    l.add(new Method("cpu", "CPU-only", "CPU-only", Kind.BASELINE, "CPU", () -> new SingleDeviceStrategy("cpu", "CPU")));
    l.add(new Method("gpu0", "GPU.0-only (iGPU)", null, Kind.BASELINE, "GPU.0", () -> new SingleDeviceStrategy("gpu0", "GPU.0")));
    l.add(new Method("gpu1", "GPU.1-only (dGPU)", "GPU-only", Kind.BASELINE, "GPU.1", () -> new SingleDeviceStrategy("gpu1", "GPU.1")));
    l.add(new Method("openvino-cpu", "OpenVINO-CPU", "OpenVINO-CPU", Kind.BASELINE, null,
        () -> new AutoEmulationStrategy("openvino-cpu", AutoEmulationStrategy.Preference.CPU)));
    l.add(new Method("openvino-gpu", "OpenVINO-GPU", "OpenVINO-GPU", Kind.BASELINE, null,
        () -> new AutoEmulationStrategy("openvino-gpu", AutoEmulationStrategy.Preference.GPU)));
    l.add(new Method("random", "Random search", null, Kind.BASELINE, null, RandomSearchStrategy::new));
    l.add(new Method("greedy", "Greedy (hill climbing)", null, Kind.BASELINE, null, () -> new LocalSearchStrategy(g)));
    l.add(new Method("brkga", "BRKGA", null, Kind.BASELINE, null, () -> new BrkgaStrategy("brkga", g, BrkgaStrategy.Config.REGAL)));
    l.add(new Method("placeto", "Placeto", "Placeto", Kind.BASELINE, null, () -> new PlacetoStrategy(grouped, PlacetoStrategy.Config.DEFAULT)));
    l.add(new Method("rnn", "RNN-based", "RNN-based", Kind.BASELINE, null, () -> new RnnPlacerStrategy(grouped, RnnPlacerStrategy.Config.DEFAULT)));
    l.add(new Method("hsdag", "HSDAG", "HSDAG", Kind.HSDAG, null, () -> hsdag("hsdag")));
    l.add(new Method("hsdag-no-shape", "w/o output shape", "w/o output shape", Kind.ABLATION, null, () -> hsdag("hsdag-no-shape")));
    l.add(new Method("hsdag-no-id", "w/o node ID", "w/o node ID", Kind.ABLATION, null, () -> hsdag("hsdag-no-id")));
    l.add(new Method("hsdag-no-structural", "w/o graph structural features", "w/o graph structural features", Kind.ABLATION, null,
        () -> hsdag("hsdag-no-structural")));
    Map<String, Method> m = new LinkedHashMap<>();
    for (Method x : l) {
      m.put(x.name(), x);
    }
    return m;
  }

  // The one place HSDAG and its ablations are wired in.
  private static SearchStrategy hsdag(String variant) {
    FeatureConfig f = FeatureConfig.DEFAULT;
    FeatureConfig features = switch (variant) {
      case "hsdag-no-shape" -> f.withoutOutputShape();
      case "hsdag-no-id" -> f.withoutNodeId();
      case "hsdag-no-structural" -> f.withoutStructural();
      default -> f;
    };
    return new HsdagStrategy(HsdagConfig.defaults().toBuilder().features(features).build());
  }

  /** Every method name, in table order. */
  public static List<String> names() {
    return List.copyOf(METHODS.keySet());
  }

  /** Every method, in table order. */
  public static List<Method> all() {
    return List.copyOf(METHODS.values());
  }

  /**
   * The method called {@code name} (case-insensitive).
   *
   * @throws UserInputException naming the known methods when there is none
   */
  public static Method get(String name) {
    Method m = METHODS.get(name.trim().toLowerCase(Locale.ROOT));
    if (m == null) {
      throw new UserInputException("unknown method '" + name + "' (known: " + String.join(", ", names()) + ")");
    }
    return m;
  }

  /** A new strategy for {@code name}. */
  public static SearchStrategy create(String name) {
    return get(name).create();
  }
}
