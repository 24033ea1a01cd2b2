package org.hsdag.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.junit.jupiter.api.Test;

/** The per-step breakdown of the HSDAG strategy runs and names every part of a step. */
class HsdagStepBreakdownTest {
  @Test
  void printsEveryPartOfAStepPerStep() {
    OpGraph g = ModelCatalog.get("tiny_transformer").build().graph();
    String out = HsdagStepBreakdown.run(g, 6);
    assertTrue(out.startsWith(g.name() + ": " + g.nodeCount() + " nodes"), out);
    for (String part : new String[] {"encoder forward", "pooling (scores, parse)", "placer + sampling",
        "lift to a placement", "REINFORCE update", "cost-model correction", "placement evaluation",
        "total (no measurement)", "mean of 6 steps"}) {
      assertTrue(out.contains(part), part + " in:\n" + out);
    }
  }
}
