package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
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
}
