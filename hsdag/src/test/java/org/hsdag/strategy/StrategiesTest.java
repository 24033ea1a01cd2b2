package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.search.SearchConfigException;
import org.hsdag.search.SearchStrategy;
import org.junit.jupiter.api.Test;

class StrategiesTest {
  @Test
  void namesMapToImplementationsAndTheDefaultIsListedFirst() {
    assertEquals(Strategies.DEFAULT, Strategies.names().get(0));
    assertInstanceOf(RandomSearchStrategy.class, Strategies.create("random"));
    assertInstanceOf(WarmStartStrategy.class, Strategies.create("HSDAG"), "the default HSDAG is warm-started");
    assertInstanceOf(PlannerStrategy.class, Strategies.create("planner"));
    assertTrue(((HsdagStrategy) Strategies.create("hsdag-paper")).config().paperFaithful());
    SearchConfigException e = assertThrows(SearchConfigException.class, () -> Strategies.create("genetic"));
    assertTrue(e.getMessage().contains("known: hsdag"), e.getMessage());
  }

  @Test
  void everyMethodIsRegisteredInTableOrder() {
    assertEquals(List.of("cpu", "gpu0", "gpu1", "openvino-cpu", "openvino-gpu", "openvino-pp", "random", "greedy",
        "brkga", "placeto", "rnn",
        "planner", "hsdag", "hsdag-paper", "hsdag-no-shape", "hsdag-no-id", "hsdag-no-structural", "random-cold-start"),
        Strategies.all().stream().map(Strategies.Entry::name).toList());
  }

  @Test
  void baselinesCreateStrategiesWithTheirName() throws Exception {
    for (String n : List.of("cpu", "gpu0", "gpu1", "openvino-cpu", "openvino-gpu", "random", "greedy", "brkga",
        "placeto", "rnn")) {
      SearchStrategy s = Strategies.create(n);
      assertEquals(n, s.name());
      if (s instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  @Test
  void lookupIsCaseInsensitiveAndUnknownNamesListTheKnownOnes() {
    assertEquals("brkga", Strategies.get(" BRKGA ").name());
    SearchConfigException e = assertThrows(SearchConfigException.class, () -> Strategies.get("scotch"));
    assertTrue(e.getMessage().contains("placeto"), e.getMessage());
  }

  @Test
  void entriesKnowTheirFamilyAndTheDeviceTheyNeed() {
    assertEquals(Strategies.Family.ABLATION, Strategies.get("hsdag-no-id").family());
    assertEquals(Strategies.Family.VARIANT, Strategies.get("hsdag-paper").family());
    assertEquals("GPU.1", Strategies.get("gpu1").requiredDevice());
    assertEquals(null, Strategies.get("brkga").requiredDevice());
    assertFalse(
        ((StrategyConfig.Hsdag) Strategies.get("hsdag-no-shape").defaults()).settings().features().outputShape());
  }

  @Test
  void optionsBecomeTypedConfiguration() {
    StrategyConfig.Brkga b = (StrategyConfig.Brkga) Strategies.configure("brkga",
        Map.of("population", "50", "elites", "5", "children", "40", "elite-bias", "0.8", "coarsen", "MirHoseini"));
    assertEquals(new StrategyConfig.Brkga(CoarseningMode.MIRHOSEINI, new BrkgaStrategy.Config(50, 5, 40, 0.8, false)),
        b);
    StrategyConfig.Placeto p = (StrategyConfig.Placeto) Strategies.configure("placeto",
        Map.of("start-from-best", "no", "hidden", "16"));
    assertFalse(p.settings().startFromBest());
    assertEquals(16, p.settings().hidden());
    assertEquals(Strategies.get("rnn").defaults(), Strategies.configure("rnn", Map.of()));
    StrategyConfig.Hsdag h = (StrategyConfig.Hsdag) Strategies.configure("hsdag-paper", Map.of("steps", "7"));
    assertTrue(h.settings().paperFaithful());
    assertEquals(7, h.settings().stepsPerUpdate());
    assertEquals(List.of("coarsen=mirhoseini", "population=50", "elites=5", "children=40", "elite-bias=0.8"),
        Strategies.differences("brkga", b));
    assertEquals(List.of(), Strategies.differences("rnn", Strategies.configure("rnn", Map.of())));
  }

  @Test
  void optionsAStrategyDoesNotHaveOrCannotTakeAreRejectedWithOneLine() {
    SearchConfigException none = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("random", Map.of("steps", "4")));
    assertEquals("strategy random has no option 'steps' (it has none)", none.getMessage());
    SearchConfigException unknown = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("brkga", Map.of("populaton", "4")));
    assertTrue(
        unknown.getMessage().contains("it has: children, coarsen, elite-bias, elites, population, seed-single-device"),
        unknown.getMessage());
    SearchConfigException notNumber = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("rnn", Map.of("hidden", "wide")));
    assertTrue(notNumber.getMessage().contains("hidden=wide is not a number"), notNumber.getMessage());
    SearchConfigException invalid = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("brkga", Map.of("elite-bias", "0.2")));
    assertTrue(invalid.getMessage().contains("elite bias"), invalid.getMessage());
    SearchConfigException mode = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("greedy", Map.of("coarsen", "tight")));
    assertTrue(mode.getMessage().contains("not one of hsdag, mirhoseini, none"), mode.getMessage());
    assertThrows(SearchConfigException.class, () -> Strategies.configure("hsdag", Map.of("hiddn", "3")));
  }

  @Test
  void commandLineOptionsReachTheHsdagConfiguration() {
    HsdagConfig c = Strategies
        .hsdagConfig(Map.of("coarsen", "mirhoseini", "steps", "7", "features.output-shape", "false",
            "features.node-id", "false", "entropy-bonus", "off"), false);
    assertEquals(CoarseningMode.MIRHOSEINI, c.coarsening());
    assertEquals(7, c.stepsPerUpdate());
    assertFalse(c.features().outputShape());
    assertFalse(c.features().nodeId());
    assertTrue(c.features().fractalDimension());
    assertFalse(c.entropyBonus());
  }

  @Test
  void unknownOrMalformedHsdagOptionsAreRejectedWithTheKnownKeys() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> Strategies.hsdagConfig(Map.of("hiddn", "3"), false));
    assertTrue(unknown.getMessage().contains("hidden"), unknown.getMessage());
    IllegalArgumentException notNumber = assertThrows(IllegalArgumentException.class,
        () -> Strategies.hsdagConfig(Map.of("steps", "ten"), false));
    assertTrue(notNumber.getMessage().contains("not a number"), notNumber.getMessage());
  }
}
