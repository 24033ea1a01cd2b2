package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SubModelCountTest {
  private static ProfilingRecord in(int subgraph) {
    return ProfilingRecord.fromRaw("subgraph" + subgraph + ": op" + subgraph, "Add", "ref",
        ProfilingRecord.Status.EXECUTED, 5, 5);
  }

  @Test
  void aPlausibleReportedCountIsKept() {
    assertEquals(3, SubModelCount.checked(3, 50, List.of()));
  }

  @Test
  void aWrappedOrOversizedCountIsNeverReported() {
    // size_t arithmetic below zero wraps to 2^64 - 1, which Java's long holds as -1.
    assertEquals(0, SubModelCount.checked(-1L, 50, List.of()));
    assertEquals(0, SubModelCount.checked(51, 50, List.of()));
    assertEquals(0, SubModelCount.checked(0, 50, List.of()));
  }

  @Test
  void profilingRecordsCountWhatRanAndWinOverTheProperty() {
    // A counter left high by automatic compiles on the same core makes the property too low.
    assertEquals(4, SubModelCount.checked(2, 50, List.of(in(0), in(3), in(1))));
    assertEquals(2, SubModelCount.checked(-1L, 50, List.of(in(0), in(1))));
  }
}
