package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hsdag.cost.CostModel;
import org.hsdag.cost.OpCost;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.TensorShapes;
import org.hsdag.ir.OpGraph;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A static model's tensors keep their IR shapes and its costs do not move: sizing tensors as
 * compiled changes only what the IR leaves dynamic.
 */
class StaticModelSizesTest {
  @ParameterizedTest
  @ValueSource(strings = {"bert_base", "resnet50"})
  void aStaticModelCostsAsItsIrSays(String name) {
    OpGraph g = ModelCatalog.get(name).build().graph();
    TensorShapes sized = TensorShapes.of(g, ShapeAssumption.DEFAULT);
    CostModel model = new CostModel(ShapeAssumption.DEFAULT);
    OpCost[] costs = model.costs(g);
    for (int v = 0; v < g.nodeCount(); v++) {
      for (int k = 0; k < g.node(v).outputs().size(); k++) {
        assertArrayEquals(g.node(v).outputs().get(k).dims(), sized.output(v, k), g.node(v).name());
      }
      OpCost fromIr = model.cost(g.node(v));
      if (costs[v].opClass().isCompute()) {
        assertEquals(fromIr, costs[v], g.node(v).name());
      }
    }
    assertEquals(0, sized.assumed().size());
  }
}
