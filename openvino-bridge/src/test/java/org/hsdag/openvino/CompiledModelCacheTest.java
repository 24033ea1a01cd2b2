package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The least-recently-used bookkeeping under a byte budget, and the default budget's arithmetic (pure Java). */
class CompiledModelCacheTest {
  private final List<String> released = new ArrayList<>();

  private CompiledModelCache<String, String> cache(long budget) {
    return new CompiledModelCache<>(budget, released::add);
  }

  @Test
  void keepsWhatFitsAndCountsHits() {
    CompiledModelCache<String, String> c = cache(100);
    assertNull(c.get("a"), "nothing kept yet");
    assertTrue(c.put("a", "A", 40));
    assertTrue(c.put("b", "B", 40));
    assertEquals("A", c.get("a"));
    assertEquals("A", c.get("a"));
    assertEquals(2, c.hits(), "a miss is not a hit");
    assertEquals(80, c.bytes());
    assertEquals(0, c.evictions());
    assertTrue(released.isEmpty());
  }

  @Test
  void evictsTheLeastRecentlyUsedFirstUntilTheNewOneFits() {
    CompiledModelCache<String, String> c = cache(100);
    c.put("a", "A", 40);
    c.put("b", "B", 40);
    c.get("a"); // b is now the least recently used
    assertTrue(c.put("c", "C", 40));
    assertEquals(List.of("B"), released);
    assertNull(c.get("b"));
    assertEquals("A", c.get("a"));
    assertEquals(1, c.evictions());
    assertEquals(80, c.bytes());
    assertTrue(c.put("d", "D", 100), "evicts everything else to fit a value of the whole budget");
    assertEquals(List.of("B", "C", "A"), released, "least recently used first: c (put before a's last get), then a");
    assertEquals(1, c.size());
    assertEquals(100, c.peakBytes());
    assertEquals(2, c.peakEntries());
  }

  @Test
  void aValueLargerThanTheBudgetIsNotKeptAndReleasesNothing() {
    CompiledModelCache<String, String> c = cache(100);
    c.put("a", "A", 60);
    assertFalse(c.put("big", "BIG", 101));
    assertEquals("A", c.get("a"));
    assertTrue(released.isEmpty(), "the caller still owns what was not kept");
    assertEquals(0, c.evictions());
  }

  @Test
  void loweringTheBudgetToZeroReleasesEvenValuesChargedNothing() {
    CompiledModelCache<String, String> c = cache(100);
    assertTrue(c.put("a", "A", 0));
    assertTrue(c.put("b", "B", 0));
    c.budget(0);
    assertEquals(List.of("A", "B"), released);
    assertNull(c.get("a"));
    assertEquals(0, c.bytes());
  }

  @Test
  void aZeroBudgetKeepsNothing() {
    CompiledModelCache<String, String> c = cache(0);
    assertFalse(c.put("a", "A", 0));
    assertNull(c.get("a"));
    assertEquals(0, c.hits());
  }

  @Test
  void shrinkingTheBudgetReleasesAtOnceAndClearReleasesEverything() {
    CompiledModelCache<String, String> c = cache(100);
    c.put("a", "A", 30);
    c.put("b", "B", 30);
    c.put("c", "C", 30);
    c.budget(60);
    assertEquals(List.of("A"), released);
    assertEquals(1, c.evictions());
    c.remove("b");
    assertEquals(List.of("A", "B"), released);
    assertEquals(1, c.evictions(), "a removal (failed inference) is not an eviction");
    c.clear();
    assertEquals(List.of("A", "B", "C"), released);
    assertEquals(0, c.bytes());
    assertEquals(0, c.size());
    assertThrows(IllegalArgumentException.class, () -> c.budget(-1));
  }

  @Test
  void aKeyIsKeptOnce() {
    CompiledModelCache<String, String> c = cache(100);
    c.put("a", "A", 10);
    assertThrows(IllegalStateException.class, () -> c.put("a", "A2", 10));
  }

  @Test
  void theDefaultBudgetIsHalfOfTheFreeMemoryLessFourTimesTheWeights() {
    long mb = 1024L * 1024;
    CompileBudget b = CompileBudget.byDefault(OptionalLong.of(20_000 * mb), 100 * mb);
    assertEquals((10_000 - 400) * mb, b.bytes());
    assertTrue(b.source().contains("MemAvailable 20000 MB") && b.source().contains("100 MB"), b.source());
    assertEquals(0, CompileBudget.byDefault(OptionalLong.of(100 * mb), 100 * mb).bytes(), "never negative");
    assertEquals(1600 * mb, CompileBudget.byDefault(OptionalLong.empty(), 100 * mb).bytes());
  }

  @Test
  void aKeptModelIsChargedItsResidentGrowthAndAtLeastItsWeights() {
    assertEquals(300, CompileBudget.charge(1000, 1300, 100));
    assertEquals(100, CompileBudget.charge(1000, 1010, 100), "allocator reuse can hide growth: the weights at least");
    assertEquals(100, CompileBudget.charge(1000, 900, 100));
  }

  @Test
  void readsMemAvailableInBytes() {
    String meminfo = "MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   22353364 kB\n";
    assertEquals(OptionalLong.of(22353364L * 1024), CompileBudget.parseMemAvailable(meminfo));
    assertEquals(OptionalLong.empty(), CompileBudget.parseMemAvailable("MemTotal: 1 kB\n"));
    assertEquals(OptionalLong.empty(), CompileBudget.parseMemAvailable("MemAvailable: lots kB\n"));
  }
}
