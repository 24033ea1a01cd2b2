package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.placement.DeviceSet;
import org.hsdag.strategy.Strategies;
import org.hsdag.strategy.StrategyConfig;
import org.junit.jupiter.api.Test;

class TuneConfigTest {
  private static TuneConfig config(String strategy, StrategyConfig sc) {
    return new TuneConfig(DeviceSet.of("CPU", "GPU.1"), strategy, sc, 30, 0, 7, MeasurementProtocol.PAPER, 3, 2, 5, 0);
  }

  @Test
  void everyStrategysTypedConfigurationSurvivesTheManifest() throws Exception {
    for (Strategies.Entry e : Strategies.all()) {
      TuneConfig c = config(e.name(), e.defaults());
      String json = RunLog.JSON.writeValueAsString(c);
      assertEquals(c, RunLog.JSON.readValue(json, TuneConfig.class), e.name() + ": " + json);
    }
    TuneConfig custom = config("brkga", Strategies.configure("brkga", Map.of("population", "120", "coarsen", "hsdag")));
    assertEquals(custom, RunLog.JSON.readValue(RunLog.JSON.writeValueAsString(custom), TuneConfig.class));
    TuneConfig hsdag = config("hsdag", Strategies.configure("hsdag", Map.of("steps", "3", "features.node-id", "off")));
    assertEquals(hsdag, RunLog.JSON.readValue(RunLog.JSON.writeValueAsString(hsdag), TuneConfig.class));
  }
}
