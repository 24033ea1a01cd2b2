package org.hsdag.placement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SplitPlacementsTest {
  @Test
  void flipsComeFirstAndPutExactlyOneOpOnTheOtherDevice() {
    List<int[]> ps = SplitPlacements.generate(200, 30, 6, 6, 7);
    for (int i = 0; i < 6; i++) {
      int[] counts = new int[2];
      for (int d : ps.get(i)) {
        counts[d]++;
      }
      assertEquals(1, Math.min(counts[0], counts[1]), "placement " + i + " is a single-op flip");
    }
  }

  @Test
  void theRestAreContiguousRunsCyclingThroughOneToMaxChanges() {
    List<int[]> ps = SplitPlacements.generate(200, 30, 6, 6, 7);
    for (int i = 6; i < 30; i++) {
      assertEquals(1 + (i - 6) % 6, SplitPlacements.changes(ps.get(i)), "placement " + i);
    }
  }

  @Test
  void placementsAreDistinctTwoDeviceAndSeeded() {
    List<int[]> a = SplitPlacements.generate(50, 30, 6, 6, 3);
    List<int[]> b = SplitPlacements.generate(50, 30, 6, 6, 3);
    Set<String> distinct = new HashSet<>();
    for (int i = 0; i < a.size(); i++) {
      assertArrayEquals(a.get(i), b.get(i));
      assertTrue(Arrays.stream(a.get(i)).allMatch(d -> d == 0 || d == 1));
      assertEquals(50, a.get(i).length);
      distinct.add(Arrays.toString(a.get(i)));
    }
    assertEquals(30, distinct.size());
    assertTrue(
        SplitPlacements.generate(50, 30, 6, 6, 4).stream().map(Arrays::toString).anyMatch(s -> !distinct.contains(s)),
        "another seed gives other placements");
  }

  @Test
  void tooFewOpsForTheRequestIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> SplitPlacements.generate(4, 10, 0, 6, 1));
    assertThrows(IllegalArgumentException.class, () -> SplitPlacements.generate(3, 30, 0, 2, 1),
        "only a few distinct runs exist");
  }

  @Test
  void changesCountsDeviceSwitchesAlongTheOrder() {
    assertEquals(0, SplitPlacements.changes(new int[] {1, 1, 1}));
    assertEquals(3, SplitPlacements.changes(new int[] {0, 1, 1, 0, 1}));
  }
}
