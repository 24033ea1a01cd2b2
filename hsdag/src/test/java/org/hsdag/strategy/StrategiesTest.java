package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.policy.HsdagConfig;
import org.junit.jupiter.api.Test;

class StrategiesTest {
  @Test
  void namesMapToImplementationsAndTheDefaultIsListedFirst() {
    assertEquals(Strategies.DEFAULT, Strategies.names().get(0));
    assertInstanceOf(RandomSearchStrategy.class, Strategies.create("random", Map.of()));
    assertInstanceOf(HsdagStrategy.class, Strategies.create("HSDAG", Map.of()));
    assertTrue(((HsdagStrategy) Strategies.create("hsdag-paper", Map.of())).config().paperFaithful());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Strategies.create("genetic", Map.of()));
    assertTrue(e.getMessage().contains("known: hsdag"), e.getMessage());
  }

  @Test
  void commandLineOptionsReachTheHsdagConfiguration() {
    HsdagConfig c = Strategies.hsdagConfig(Map.of("coarsen", "mirhoseini", "steps", "7", "features.output-shape", "false",
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
