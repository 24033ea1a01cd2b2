package org.hsdag.ir;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything hsdag knows about the shapes of one op type, side by side, registered once by the
 * class that holds the rules ({@link ElementShapes}, {@link LayoutShapes}, {@link SizedShapes}).
 * Users ask {@link OpShapes}, which reads this table.
 *
 * @param valueInputs bit k set when the value (not only the shape) of input k shapes the output
 * @param keepsValues the output holds input 0's values (a shape vector passes through unchanged)
 * @param forward output shapes from input dims and integer values; null when hsdag has none
 * @param concrete output dims from concrete input shapes and the IR's own port dims; null when
 *     the output's size is data (only {@code forward} on values sizes it)
 * @param backward what each shape-like input must hold for the port dims the IR records; null when none
 */
record OpRule(int valueInputs, boolean keepsValues, Forward forward, Concrete concrete, Backward backward) {
  /** {@link OpShapes#infer}'s rule. */
  interface Forward {
    List<OpShapes.Output> infer(String type, Map<String, String> attrs, List<OpShapes.Input> in);
  }

  /** {@link OpShapes#concrete}'s rule. */
  interface Concrete {
    long[] dims(OpNode node, int port, long[][] in, long[] ir);
  }

  /** Adds to {@code out} what the shape-like inputs of {@code n} must hold for its port dims {@code in}, {@code o}. */
  interface Backward {
    void needs(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out);
  }

  /**
   * No rule: no input's value matters; the output's dynamic axes take input 0's in order when both
   * have as many (a Transpose keeps their order among the dynamic ones in every IR hsdag has met).
   */
  static final OpRule NONE = new OpRule(0, false, null,
      (node, port, in, ir) -> ShapeMath.inOrder(in[0], node.inputs().get(0).dims(), ir), null);

  private static final Map<String, OpRule> RULES = register();

  /** The rule of {@code type} (IR spelling), {@link #NONE} when hsdag has none. */
  static OpRule of(String type) {
    return RULES.getOrDefault(type, NONE);
  }

  /** The op types with a forward rule. */
  static List<String> forwardTypes() {
    return RULES.entrySet().stream().filter(e -> e.getValue().forward() != null).map(Map.Entry::getKey).sorted()
        .toList();
  }

  /** {@link #NONE} whose values on {@code inputs} shape the output. */
  static OpRule values(int... inputs) {
    int m = 0;
    for (int k : inputs) {
      m |= 1 << k;
    }
    return new OpRule(m, false, null, NONE.concrete(), null);
  }

  OpRule withForward(Forward f) {
    return new OpRule(valueInputs, keepsValues, f, concrete, backward);
  }

  OpRule withConcrete(Concrete c) {
    return new OpRule(valueInputs, keepsValues, forward, c, backward);
  }

  OpRule withBackward(Backward b) {
    return new OpRule(valueInputs, keepsValues, forward, concrete, b);
  }

  OpRule keepingValues() {
    return new OpRule(valueInputs, true, forward, concrete, backward);
  }

  /** The output's size is data: only the forward rule on the inputs' values sizes it. */
  OpRule sizedByValues() {
    return new OpRule(valueInputs, keepsValues, forward, null, backward);
  }

  /** Registers {@code rule} for {@code types}; an op type has one place. */
  static void add(Map<String, OpRule> table, OpRule rule, String... types) {
    for (String t : types) {
      if (table.putIfAbsent(t, rule) != null) {
        throw new IllegalStateException("two shape rules for op type " + t);
      }
    }
  }

  private static Map<String, OpRule> register() {
    Map<String, OpRule> m = new HashMap<>();
    ElementShapes.register(m);
    LayoutShapes.register(m);
    SizedShapes.register(m);
    return Map.copyOf(m);
  }
}
