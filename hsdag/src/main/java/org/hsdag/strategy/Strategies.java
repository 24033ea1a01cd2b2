package org.hsdag.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.search.Finalist;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.features.FeatureConfig;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.search.SearchConfigException;
import org.hsdag.search.SearchStrategy;

/**
 * The one registry of search strategies, by name: {@code tune --strategy} and {@code bench --methods}
 * both choose from it. Each entry has a table label, a family (how {@code bench} groups it), the
 * device it cannot run without, and its default typed {@link StrategyConfig}; {@link #configure}
 * applies {@code key=value} options to that default, so what a run records is typed configuration,
 * never strings to parse again.
 */
public final class Strategies {
  /** The strategy used when none is named. */
  public static final String DEFAULT = "hsdag";

  /** How {@code bench} groups methods into the paper's tables. */
  public enum Family {
    /** Table 2 baselines: single devices, OpenVINO's own choice, classic search, earlier learned placers. */
    BASELINE,
    /** HSDAG itself (Tables 2 and 3). */
    HSDAG,
    /** Another way to train HSDAG (the paper-faithful variant), shown beside it in Table 2. */
    VARIANT,
    /** Table 3 feature ablations. */
    ABLATION,
    /** The search add-ons around another strategy ({@link ColdStartStrategy}); bench runs them only when named. */
    ADD_ON_ABLATION
  }

  /**
   * One registered strategy.
   *
   * @param name the name on the command line, e.g. {@code openvino-gpu}
   * @param label the row label in tables, e.g. {@code OpenVINO-GPU}
   * @param family how bench groups it
   * @param requiredDevice a device it cannot run without, or null
   * @param defaults its configuration when no option is given
   */
  public record Entry(String name, String label, Family family, String requiredDevice, StrategyConfig defaults) {
    /** A new strategy with the default configuration. */
    public SearchStrategy create() {
      return defaults.create(name);
    }
  }

  private static final Map<String, Entry> ENTRIES = build();
  private static final ObjectMapper JSON = new ObjectMapper();

  private Strategies() {}

  private static Map<String, Entry> build() {
    // Classic search baselines place every op (constants follow their consumer, as HETERO does); the
    // learned placers of Placeto and Mirhoseini et al. act on co-located groups, as in their papers.
    CoarseningMode perOp = CoarseningMode.NONE;
    CoarseningMode grouped = CoarseningMode.MIRHOSEINI;
    FeatureConfig f = FeatureConfig.DEFAULT;
    HsdagConfig hsdag = HsdagConfig.defaults();
    List<Entry> l = List.of(
        // The paper machine's devices keep a name of their own (--strategy gpu1); bench takes one per device of its set.
        singleDevice("CPU"),
        singleDevice("GPU.0"),
        singleDevice("GPU.1"),
        new Entry("openvino-cpu", "OpenVINO-CPU", Family.BASELINE, null,
            new StrategyConfig.AutoEmulation(AutoEmulationStrategy.Preference.CPU)),
        new Entry("openvino-gpu", "OpenVINO-GPU", Family.BASELINE, null,
            new StrategyConfig.AutoEmulation(AutoEmulationStrategy.Preference.GPU)),
        new Entry("openvino-pp", "OpenVINO HETERO pipeline-parallel", Family.BASELINE, null,
            new StrategyConfig.PipelineParallel()),
        new Entry("random", "Random search", Family.BASELINE, null, new StrategyConfig.Random()),
        new Entry("greedy", "Greedy (hill climbing)", Family.BASELINE, null, new StrategyConfig.Greedy(perOp)),
        new Entry("brkga", "BRKGA", Family.BASELINE, null, new StrategyConfig.Brkga(perOp, BrkgaStrategy.Config.REGAL)),
        new Entry("placeto", "Placeto", Family.BASELINE, null,
            new StrategyConfig.Placeto(grouped, PlacetoStrategy.Config.DEFAULT)),
        new Entry("rnn", "RNN-based", Family.BASELINE, null,
            new StrategyConfig.Rnn(grouped, RnnPlacerStrategy.Config.DEFAULT)),
        new Entry("planner", "Cost-model planner, corrected by measurements", Family.BASELINE, null,
            new StrategyConfig.Planner()),
        new Entry("hsdag", "HSDAG", Family.HSDAG, null, StrategyConfig.Hsdag.warm(hsdag)),
        new Entry("hsdag-paper", "HSDAG (paper-faithful training)", Family.VARIANT, null,
            new StrategyConfig.Hsdag(HsdagConfig.builder().paperFaithful().build())),
        new Entry("hsdag-no-shape", "w/o output shape", Family.ABLATION, null,
            StrategyConfig.Hsdag.warm(hsdag.toBuilder().features(f.withoutOutputShape()).build())),
        new Entry("hsdag-no-id", "w/o node ID", Family.ABLATION, null,
            StrategyConfig.Hsdag.warm(hsdag.toBuilder().features(f.withoutNodeId()).build())),
        new Entry("hsdag-no-structural", "w/o graph structural features", Family.ABLATION, null,
            StrategyConfig.Hsdag.warm(hsdag.toBuilder().features(f.withoutStructural()).build())),
        // The cold-start add-ons HSDAG runs between its episodes, around random search: what they add on their own.
        new Entry("random-cold-start", "Random search + cold-start add-ons", Family.ADD_ON_ABLATION, null,
            new StrategyConfig.ColdStart(new StrategyConfig.Random(), hsdag.coarsening(), hsdag.stepsPerUpdate(),
                hsdag.segmentMoves())));
    Map<String, Entry> m = new LinkedHashMap<>();
    for (Entry e : l) {
      m.put(e.name(), e);
    }
    return m;
  }

  /**
   * The single-device baseline on {@code device}: named by the device in lower case without dots
   * ({@code cpu}, {@code gpu1}, {@code npu}), labelled {@code <device>-only} with a GPU's kind.
   */
  public static Entry singleDevice(String device) {
    DeviceKind kind = DeviceKind.ofName(device);
    String label = Finalist.baselineLabel(device) + (kind.isGpu() ? " (" + kind.label() + ")" : "");
    return new Entry(device.toLowerCase(Locale.ROOT).replace(".", ""), label, Family.BASELINE, device,
        new StrategyConfig.SingleDevice(device));
  }

  /** True when {@code e} is a single-device baseline. */
  public static boolean isSingleDevice(Entry e) {
    return e.defaults() instanceof StrategyConfig.SingleDevice;
  }

  /**
   * The entries {@code names} name, with the single-device baselines replaced by one per device of
   * {@code devices} (in set order, where the first of them stood, else first): every device of a
   * set gets its baseline, and the speedup reference is always among them.
   */
  public static List<Entry> withSingleDeviceBaselines(List<String> names, DeviceSet devices) {
    List<Entry> out = new ArrayList<>();
    int at = -1;
    for (String n : names) {
      Entry e = get(n);
      if (isSingleDevice(e)) {
        at = at < 0 ? out.size() : at;
      } else {
        out.add(e);
      }
    }
    out.addAll(Math.max(at, 0), devices.names().stream().map(Strategies::singleDevice).toList());
    return out;
  }

  /** Every entry, in table order (baselines, HSDAG, its variant, the ablations). */
  public static List<Entry> all() {
    return List.copyOf(ENTRIES.values());
  }

  /** Every name, the default first, then table order. */
  public static List<String> names() {
    List<String> out = new ArrayList<>(List.of(DEFAULT));
    for (String n : ENTRIES.keySet()) {
      if (!n.equals(DEFAULT)) {
        out.add(n);
      }
    }
    return out;
  }

  /** True when {@code name} names a registered strategy (case-insensitive). */
  public static boolean exists(String name) {
    return ENTRIES.containsKey(normalize(name));
  }

  /**
   * The entry called {@code name} (case-insensitive, surrounding spaces ignored).
   *
   * @throws SearchConfigException naming the known strategies when there is none
   */
  public static Entry get(String name) {
    Entry e = ENTRIES.get(normalize(name));
    if (e == null) {
      throw new SearchConfigException("unknown strategy '" + name + "' (known: " + String.join(", ", names()) + ")");
    }
    return e;
  }

  /** A new strategy called {@code name} with the default configuration. */
  public static SearchStrategy create(String name) {
    return get(name).create();
  }

  /**
   * The configuration of {@code name} with {@code options} applied ({@code key=value} from the
   * command line: {@code coarsen} is the co-location mode, other keys are the settings' names in
   * kebab case, e.g. {@code population}, {@code elite-bias}; HSDAG has its own keys, {@link
   * #HSDAG_OPTIONS}).
   *
   * @throws SearchConfigException for an unknown strategy, an option it does not have, or a bad value
   */
  public static StrategyConfig configure(String name, Map<String, String> options) {
    Entry e = get(name);
    if (e.defaults() instanceof StrategyConfig.Hsdag h) {
      Map<String, String> rest = new java.util.LinkedHashMap<>(options);
      String warm = rest.remove("warm-start");
      String pretrain = rest.remove("pretrain");
      try {
        return new StrategyConfig.Hsdag(hsdagConfig(h.settings(), rest), warm == null ? h.warmStart() : bool(warm),
            pretrain == null ? h.pretrainEpisodes() : episodes(pretrain));
      } catch (IllegalArgumentException ex) {
        throw new SearchConfigException("strategy " + e.name() + ": " + ex.getMessage());
      }
    }
    if (options.isEmpty()) {
      return e.defaults();
    }
    ObjectNode tree = JSON.valueToTree(e.defaults());
    for (Map.Entry<String, String> o : options.entrySet()) {
      String key = o.getKey().trim();
      String field = key.equals("coarsen") ? "grouping" : camel(key);
      ObjectNode holder = holderOf(tree, field);
      if (holder == null || field.equals("type")) {
        List<String> known = optionKeys(tree);
        throw new SearchConfigException("strategy " + e.name() + " has no option '" + key + "'"
            + (known.isEmpty() ? " (it has none)" : " (it has: " + String.join(", ", known) + ")"));
      }
      holder.set(field, typed(e.name(), key, holder.get(field), o.getValue().trim()));
    }
    try {
      return JSON.treeToValue(tree, StrategyConfig.class);
    } catch (ValueInstantiationException ex) {
      Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
      throw new SearchConfigException("strategy " + e.name() + ": " + cause.getMessage());
    } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
      throw new SearchConfigException("strategy " + e.name() + ": " + ex.getOriginalMessage());
    }
  }

  private static List<String> optionKeys(JsonNode tree) {
    Set<String> out = new TreeSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> f = it.next();
      if (f.getValue().isObject()) {
        out.addAll(optionKeys(f.getValue()));
      } else if (!f.getKey().equals("type")) {
        out.add(f.getKey().equals("grouping") ? "coarsen" : kebab(f.getKey()));
      }
    }
    return List.copyOf(out);
  }

  /**
   * The settings of {@code config} that differ from the registry defaults of {@code name}, as
   * {@code key=value} in kebab case (empty when it is the default), for reports and logs.
   */
  public static List<String> differences(String name, StrategyConfig config) {
    List<String> out = new ArrayList<>();
    diff("", JSON.valueToTree(get(name).defaults()), JSON.valueToTree(config), out);
    return out;
  }

  private static void diff(String prefix, JsonNode base, JsonNode actual, List<String> out) {
    for (Iterator<Map.Entry<String, JsonNode>> it = actual.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> f = it.next();
      JsonNode b = base.get(f.getKey());
      if (f.getValue().isObject() && b != null && b.isObject()) {
        diff(prefix + (f.getKey().equals("settings") ? "" : kebab(f.getKey()) + "."), b, f.getValue(), out);
      } else if (!f.getValue().equals(b)) {
        String key = f.getKey().equals("grouping") ? "coarsen" : kebab(f.getKey());
        out.add(prefix + key + "="
            + (f.getValue().isTextual() ? f.getValue().asText().toLowerCase(Locale.ROOT) : f.getValue()));
      }
    }
  }

  /** The object node holding {@code field}: the tree itself or one of its nested settings. */
  private static ObjectNode holderOf(ObjectNode tree, String field) {
    if (tree.has(field) && !tree.get(field).isObject()) {
      return tree;
    }
    for (Iterator<JsonNode> it = tree.elements(); it.hasNext();) {
      JsonNode child = it.next();
      if (child.isObject() && child.has(field) && !child.get(field).isObject()) {
        return (ObjectNode) child;
      }
    }
    return null;
  }

  /** {@code value} as the JSON type of the default it replaces. */
  private static JsonNode typed(String strategy, String key, JsonNode current, String value) {
    try {
      if (current.isBoolean()) {
        return JSON.getNodeFactory().booleanNode(bool(value));
      }
      if (current.isIntegralNumber()) {
        return JSON.getNodeFactory().numberNode(Integer.parseInt(value));
      }
      if (current.isNumber()) {
        return JSON.getNodeFactory().numberNode(Double.parseDouble(value));
      }
    } catch (NumberFormatException ex) {
      throw new SearchConfigException("strategy " + strategy + " option " + key + "=" + value + " is not a number");
    } catch (IllegalArgumentException ex) {
      throw new SearchConfigException("strategy " + strategy + " option " + key + ": " + ex.getMessage());
    }
    if (key.equals("coarsen")) {
      return JSON.getNodeFactory().textNode(coarsening(value).name());
    }
    // Enum constants (the AUTO preference) and device names are upper case.
    return JSON.getNodeFactory().textNode(value.toUpperCase(Locale.ROOT));
  }

  /** A co-location mode by its name on the command line. */
  static CoarseningMode coarsening(String value) {
    for (CoarseningMode m : CoarseningMode.values()) {
      if (m.name().equalsIgnoreCase(value)) {
        return m;
      }
    }
    throw new SearchConfigException("coarsen '" + value + "' is not one of hsdag, mirhoseini, none");
  }

  private static String camel(String kebab) {
    StringBuilder sb = new StringBuilder();
    boolean up = false;
    for (int i = 0; i < kebab.length(); i++) {
      char c = kebab.charAt(i);
      if (c == '-' || c == '_') {
        up = true;
      } else {
        sb.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return sb.toString();
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }

  /** Option keys the HSDAG strategies understand. */
  public static final Set<String> HSDAG_OPTIONS = new TreeSet<>(List.of("steps", "coarsen", "warm-start", "pretrain",
      "features.output-shape", "features.node-id", "features.structural", "hidden", "gcn-layers", "learning-rate",
      "gamma", "baseline", "entropy-bonus", "entropy-weight", "imitation-weight", "segment-moves", "gradient-clip",
      "refinement-decay", "min-clusters",
      "torch-threads"));

  /** The HSDAG configuration from command-line options on top of the default (paper-faithful for {@code hsdag-paper}). */
  static HsdagConfig hsdagConfig(Map<String, String> options, boolean paper) {
    return hsdagConfig(paper ? HsdagConfig.builder().paperFaithful().build() : HsdagConfig.defaults(), options);
  }

  /** {@code base} with {@code options} applied. */
  static HsdagConfig hsdagConfig(HsdagConfig base, Map<String, String> options) {
    HsdagConfig.Builder b = base.toBuilder();
    FeatureConfig features = base.features();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String v = e.getValue().trim();
      try {
        switch (e.getKey()) {
          case "steps" -> b.stepsPerUpdate(Integer.parseInt(v));
          case "coarsen" -> b.coarsening(coarsening(v));
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
          case "imitation-weight" -> b.imitationWeight(Double.parseDouble(v));
          case "segment-moves" -> b.segmentMoves(Integer.parseInt(v));
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

  private static int episodes(String v) {
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("hsdag option pretrain=" + v + " is not a number of episodes");
    }
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
