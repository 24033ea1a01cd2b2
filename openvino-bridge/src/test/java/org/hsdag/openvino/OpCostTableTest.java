package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OpCostTableTest {
  @Test
  void fusedKernelsAreChargedToTheirFirstOpAndPluginNodesApart() throws IOException {
    JsonNode fixture;
    try (InputStream in = getClass().getResourceAsStream("cpu-profile-fixture.json")) {
      fixture = new ObjectMapper().readTree(in);
    }
    List<ProfilingRecord> records = new ArrayList<>();
    for (JsonNode r : fixture.get("records")) {
      records.add(ProfilingRecord.fromRaw(r.get("name").asText(), r.get("type").asText(), r.get("exec").asText(),
          ProfilingRecord.Status.parse(r.get("status").asText()), r.get("real_us").asLong(), r.get("cpu_us").asLong()));
    }
    List<ExecutedNode> executed = new ArrayList<>();
    for (JsonNode e : fixture.get("executed")) {
      executed.add(ExecutedNode.of(e.get("name").asText(), e.get("original").asText()));
    }
    OpCostTable t = OpCostTable.of("CPU", records, executed, Set.of("conv1", "bias_add", "relu1", "flatten", "fc"));
    assertEquals(0.420, t.millisByOp().get("conv1"), 1e-12);
    assertEquals(0.0, t.millisByOp().get("bias_add"));
    assertEquals(0.0, t.millisByOp().get("relu1"));
    assertEquals(0.090, t.millisByOp().get("fc"), 1e-12);
    assertFalse(t.millisByOp().containsKey("flatten"), "optimized out: no kernel of its own");
    assertEquals(0.035, t.unattributedMillis(), 1e-12);
  }

  @Test
  void heteroSubgraphPrefixesAreStrippedBeforeMatching() {
    List<ProfilingRecord> records = List.of(
        ProfilingRecord.fromRaw("subgraph1: fc", "FullyConnected", "gemm", ProfilingRecord.Status.EXECUTED, 50, 50));
    OpCostTable t = OpCostTable.of("GPU.1", records, List.of(), Set.of("fc"));
    assertEquals(0.050, t.millisByOp().get("fc"), 1e-12);
  }

  @Test
  void theMedianOverRoundsIgnoresOneInflatedRecord() {
    List<OpCostTable> rounds = new ArrayList<>();
    for (int r = 0; r < 5; r++) {
      // Round 2: a load burst made conv 12x as long; fc is named from round 1 on only.
      Map<String, Double> ms = new java.util.LinkedHashMap<>(Map.of("conv", r == 2 ? 6.0 : 0.5 + 0.01 * r));
      if (r > 0) {
        ms.put("fc", 0.1 * r);
      }
      rounds.add(new OpCostTable("CPU", ms, r == 2 ? 9.0 : 0.03));
    }
    OpCostTable m = OpCostTable.median(rounds);
    assertEquals(0.53, m.millisByOp().get("conv"), 1e-12, "the middle of 0.50, 0.51, 0.53, 0.54 and 6.0");
    assertEquals(0.25, m.millisByOp().get("fc"), 1e-12, "the median of the four rounds that name it");
    assertEquals(0.03, m.unattributedMillis(), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> OpCostTable.median(List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> OpCostTable.median(List.of(rounds.get(0), new OpCostTable("CPU2", Map.of(), 0))));
  }
}
