package org.hsdag.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.SimGraph;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.testkit.Samples;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** The split HETERO would compile: one device per sub-model, acyclic between sub-models, counted right. */
class SubModelSplitTest {
  @Test
  void randomPlacementsOnRandomDagsGiveValidSplits() {
    SimBackend sim = new SimBackend(TestProfiles.handy(false), SimOptions.exact());
    for (long seed = 0; seed < 20; seed++) {
      OpGraph g = TinyGraphs.randomDag(200, 16, seed);
      checkRandomPlacements(sim, g, seed, 20);
    }
  }

  @Test
  void randomPlacementsOnResNet50GiveValidSplits() {
    OpGraph g = new IrReader().read(Samples.irSample("resnet-50.xml"));
    checkRandomPlacements(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()), g, 99, 30);
  }

  private static void checkRandomPlacements(SimBackend sim, OpGraph g, long seed, int count) {
    SplittableRandom rnd = new SplittableRandom(seed);
    SimGraph sg = sim.simGraph(g);
    int devices = sim.deviceSet().size();
    int[] identity = new int[devices];
    for (int d = 0; d < devices; d++) {
      identity[d] = d;
    }
    for (int k = 0; k < count; k++) {
      int[] dev = new int[g.nodeCount()];
      // Mix of per-node random and blocky placements.
      int block = 1 + rnd.nextInt(k % 2 == 0 ? 1 : 40);
      int current = 0;
      for (int v = 0; v < dev.length; v++) {
        if (v % block == 0) {
          current = rnd.nextInt(devices);
        }
        dev[v] = current;
      }
      int[] sub = sg.subModelOf(dev, identity);
      int withKernels = checkSplit(g, sg, dev, sub);
      org.hsdag.placement.Placement p = new org.hsdag.placement.Placement(sim.deviceSet(), dev);
      // HETERO also compiles sub-models without a kernel (a Result cut from its producer).
      assertTrue(sim.evaluate(g, p).subModels() >= withKernels);
    }
  }

  /** Asserts the split's invariants and returns its number of sub-models. */
  private static int checkSplit(OpGraph g, SimGraph sg, int[] dev, int[] sub) {
    Set<Integer> roots = new HashSet<>();
    for (int v = 0; v < g.nodeCount(); v++) {
      if (sg.isCompute(v)) {
        roots.add(sub[v]);
        assertEquals(dev[sub[v]], dev[v], "a sub-model holds one device");
      } else {
        assertEquals(-1, sub[v]);
      }
    }
    // Not checked: that a sub-model's kernels are connected among themselves. HETERO's subgraphs
    // are connected over every node, so a shared Parameter or Constant can join two kernel groups.
    Map<Integer, Set<Integer>> out = new HashMap<>();
    for (int e = 0; e < g.edgeCount(); e++) {
      int s = g.edge(e).source();
      int t = g.edge(e).target();
      if (sub[s] >= 0 && sub[t] >= 0 && sub[s] != sub[t]) {
        out.computeIfAbsent(sub[s], x -> new HashSet<>()).add(sub[t]);
      }
    }
    // Acyclic quotient graph (Kahn).
    Map<Integer, Integer> indeg = new HashMap<>();
    roots.forEach(r -> indeg.put(r, 0));
    out.values().forEach(ts -> ts.forEach(t -> indeg.merge(t, 1, Integer::sum)));
    ArrayDeque<Integer> ready = new ArrayDeque<>();
    indeg.forEach((r, d) -> {
      if (d == 0) {
        ready.add(r);
      }
    });
    int seen = 0;
    while (!ready.isEmpty()) {
      int r = ready.poll();
      seen++;
      for (int t : out.getOrDefault(r, Set.of())) {
        if (indeg.merge(t, -1, Integer::sum) == 0) {
          ready.add(t);
        }
      }
    }
    assertEquals(roots.size(), seen, "the sub-model graph has a cycle");
    return roots.size();
  }

  @Test
  void contiguousBlocksGiveOneSubModelPerBlock() {
    OpGraph g = TinyGraphs.randomDag(100, 8, 5);
    SimBackend sim = new SimBackend(TestProfiles.handy(false), SimOptions.exact());
    DeviceSet ds = sim.deviceSet();
    int[] dev = new int[g.nodeCount()];
    int[] topo = g.topologicalOrder();
    for (int r = 0; r < topo.length; r++) {
      dev[topo[r]] = r < topo.length / 2 ? 0 : 1;
    }
    assertEquals(2, sim.evaluate(g, new org.hsdag.placement.Placement(ds, dev)).subModels());
  }
}
