package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;
import org.junit.jupiter.api.Test;

/** A {@link BoundaryOracle} replaces hsdag's rules wherever a split is judged, and its answers are cached by cut set. */
class BoundaryOracleTest {
  /** Says what it is told, and records every cut set it is asked about. */
  private static final class Scripted implements BoundaryOracle {
    final List<List<Cut>> asked = new ArrayList<>();
    final boolean refuse;

    Scripted(boolean refuse) {
      this.refuse = refuse;
    }

    @Override
    public Verdict judge(List<Cut> cuts) {
      asked.add(cuts);
      return refuse && !cuts.isEmpty() ? new Verdict(0, "[2,?]", 7) : new Verdict(-1, "", 7);
    }

    @Override
    public String source() {
      return "the scripted runtime";
    }
  }

  private static int[] placed(OpGraph g, Set<String> onSecond) {
    int[] d = new int[g.nodeCount()];
    for (String n : onSecond) {
      d[g.indexOf(n)] = 1;
    }
    return new HeteroRules(g).resolve(d);
  }

  @Test
  void theOraclesVerdictWinsOverTheRulesBothWaysAndSaysWhoJudged() {
    OpGraph g = ShapeBoundariesTest.priorBoxGraph();
    int[] refusedByRules = placed(g, Set.of("pb"));
    int[] fineByRules = placed(g, Set.of("t"));
    assertTrue(HeteroRefusal.check(g, refusedByRules).orElseThrow().endsWith("judged by " + BoundaryOracle.RULES));
    assertTrue(HeteroRefusal.check(g, refusedByRules, new Scripted(false)).isEmpty());
    String reason = HeteroRefusal.check(g, fineByRules, new Scripted(true)).orElseThrow();
    assertTrue(reason.startsWith(HeteroRefusal.PREFIX + " (infer request): "), reason);
    assertTrue(reason.endsWith("(shape [2,?]); judged by the scripted runtime"), reason);
  }

  @Test
  void theOracleIsAskedAboutTheBoundariesBetweenSubModelsOnly() {
    OpGraph g = ShapeBoundariesTest.priorBoxGraph();
    Scripted s = new Scripted(false);
    HeteroRefusal.check(g, placed(g, Set.of("t")), s);
    assertEquals(1, s.asked.size());
    // t on the second device: pb -> t and t -> out cross, and cycle splitting cuts bbr -> out; t's axes constant
    // is a boundary of its own. Nothing else is asked about.
    List<BoundaryOracle.Cut> cuts = s.asked.get(0);
    assertTrue(cuts.contains(new BoundaryOracle.Cut(g.indexOf("t"), 0)), cuts::toString);
    assertTrue(cuts.contains(new BoundaryOracle.Cut(g.indexOf("out"), 0)), cuts::toString);
    assertTrue(cuts.stream().allMatch(c -> c.consumer() == g.indexOf("t") || c.consumer() == g.indexOf("out")),
        cuts::toString);
    Scripted none = new Scripted(true);
    assertTrue(HeteroRefusal.check(g, new int[g.nodeCount()], none).isEmpty());
    assertEquals(List.of(List.of()), none.asked);
  }

  @Test
  void answersAreCachedPerCutSetAndBounded() {
    Scripted s = new Scripted(true);
    CachedBoundaryOracle c = new CachedBoundaryOracle(s, 2);
    List<BoundaryOracle.Cut> one = List.of(new BoundaryOracle.Cut(3, 0));
    List<BoundaryOracle.Cut> two = List.of(new BoundaryOracle.Cut(4, 1));
    List<BoundaryOracle.Cut> three = List.of(new BoundaryOracle.Cut(5, 0), new BoundaryOracle.Cut(6, 1));
    assertTrue(c.judge(one).refused());
    assertEquals(7, c.judge(new ArrayList<>(one)).subModels());
    c.judge(two);
    c.judge(three);
    c.judge(one);
    assertEquals(List.of(one, two, three, one), s.asked);
    assertEquals(1, c.hitsAndMisses()[0]);
    assertEquals(4, c.hitsAndMisses()[1]);
    assertEquals("the scripted runtime", c.source());
    assertThrows(IllegalArgumentException.class, () -> new CachedBoundaryOracle(s, 0));
    assertFalse(new BoundaryOracle.Verdict(-1, "", 1).refused());
  }
}
