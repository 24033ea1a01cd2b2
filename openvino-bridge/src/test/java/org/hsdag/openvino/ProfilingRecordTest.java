package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.hsdag.openvino.ProfilingRecord.Status;
import org.junit.jupiter.api.Test;

class ProfilingRecordTest {
  @Test
  void splitsTheHeteroSubgraphPrefixOffTheNodeName() {
    ProfilingRecord r = ProfilingRecord.fromRaw("subgraph1: /layer1/conv/Conv", "Convolution", "jit_avx2_FP32",
        Status.EXECUTED, 120, 118);
    assertEquals(1, r.subgraph());
    assertEquals("/layer1/conv/Conv", r.nodeName());
    assertEquals("Convolution", r.nodeType());
    assertEquals("jit_avx2_FP32", r.execType());
    assertEquals(120, r.realTimeMicros());
    assertEquals(118, r.cpuTimeMicros());
  }

  @Test
  void multiDigitIndicesAndColonsInsideNamesSurvive() {
    ProfilingRecord r = ProfilingRecord.fromRaw("subgraph12: a:b: c", "Eltwise", "ocl:ref", Status.EXECUTED, 5, 0);
    assertEquals(12, r.subgraph());
    assertEquals("a:b: c", r.nodeName());
  }

  @Test
  void singleDeviceRecordsHaveNoSubgraph() {
    ProfilingRecord r = ProfilingRecord.fromRaw("conv1", "Convolution", "", Status.EXECUTED, 1, 1);
    assertEquals(-1, r.subgraph());
    assertEquals("conv1", r.nodeName());
    // "subgraph" elsewhere in a name, or without the ": " form, is part of the name.
    assertEquals(-1, ProfilingRecord.fromRaw("my_subgraph0: x", "", "", Status.EXECUTED, 1, 1).subgraph());
    assertEquals(-1, ProfilingRecord.fromRaw("subgraphX: x", "", "", Status.EXECUTED, 1, 1).subgraph());
  }

  @Test
  void statusCodesFollowOpenVinosOrder() {
    assertEquals(Status.NOT_RUN, Status.ofCode(0));
    assertEquals(Status.OPTIMIZED_OUT, Status.ofCode(1));
    assertEquals(Status.EXECUTED, Status.ofCode(2));
    assertEquals(Status.OPTIMIZED_OUT, Status.parse("optimized_out"));
    assertEquals(Status.NOT_RUN, Status.parse("NOT_RUN"));
    assertThrows(IllegalArgumentException.class, () -> Status.parse("RUNNING"));
  }

  @Test
  void nullTypesBecomeEmptyAndNegativeSubgraphsAreRejected() {
    ProfilingRecord r = new ProfilingRecord(-1, "x", null, null, Status.NOT_RUN, 0, 0);
    assertEquals("", r.nodeType());
    assertEquals("", r.execType());
    assertThrows(IllegalArgumentException.class, () -> new ProfilingRecord(-2, "x", "", "", Status.NOT_RUN, 0, 0));
  }
}
