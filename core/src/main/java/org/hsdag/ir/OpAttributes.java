package org.hsdag.ir;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code <data>} attributes the simulator's cost model and the model builders' shape
 * inference read, with the presence and form the OpenVINO opset specifications give them
 * ({@code docs/.../operation-specs}: "Required: yes" attributes must be present; optional ones,
 * when present, must parse). Attributes of other ops, and unknown attributes, are not checked:
 * hsdag keeps them verbatim and does not interpret them.
 *
 * <p>Convolution and pooling paddings are required only when {@code auto_pad} is explicit (the
 * default): the specifications say they are ignored otherwise. OpenVINO's own reader is more
 * lenient than its specification here (a missing attribute keeps the op's default: empty paddings
 * become zeros), but such an IR describes a different model than its port shapes.
 */
public final class OpAttributes {
  /** How an attribute value must read. */
  enum Form {
    ELEMENT_TYPE,
    /** A shape with {@code ?}, {@code -1}, intervals or a dynamic rank allowed. */
    PARTIAL_SHAPE,
    /** Non-negative dimensions only. */
    STATIC_SHAPE, NON_NEGATIVE_INT, INT,
    /** {@code true}, {@code false}, {@code 1} or {@code 0} in any case, as OpenVINO's reader accepts. */
    BOOLEAN,
    /** One positive integer per spatial axis. */
    POSITIVE_PER_AXIS,
    /** One non-negative integer per spatial axis. */
    NON_NEGATIVE_PER_AXIS
  }

  /** When an attribute must be present. */
  enum Need {
    REQUIRED, OPTIONAL,
    /** Required unless {@code auto_pad} is same_upper, same_lower or valid. */
    UNLESS_AUTO_PAD
  }

  record Rule(String name, Form form, Need need) {}

  private static final Map<String, List<Rule>> RULES;
  /** auto_pad values under which the specifications ignore pads_begin and pads_end. */
  private static final Set<String> PADS_IGNORED = Set.of("same_upper", "same_lower", "valid");

  static {
    Map<String, List<Rule>> rules = new HashMap<>();
    Rule elementType = new Rule("element_type", Form.ELEMENT_TYPE, Need.REQUIRED);
    rules(rules, List.of(elementType, new Rule("shape", Form.PARTIAL_SHAPE, Need.REQUIRED)), "Parameter");
    rules(rules, List.of(elementType, new Rule("shape", Form.STATIC_SHAPE, Need.REQUIRED),
        new Rule("offset", Form.NON_NEGATIVE_INT, Need.REQUIRED),
        new Rule("size", Form.NON_NEGATIVE_INT, Need.REQUIRED)),
        "Const", "Constant");
    rules(rules, List.of(new Rule("destination_type", Form.ELEMENT_TYPE, Need.REQUIRED)), "Convert");
    Rule padsBegin = new Rule("pads_begin", Form.NON_NEGATIVE_PER_AXIS, Need.UNLESS_AUTO_PAD);
    Rule padsEnd = new Rule("pads_end", Form.NON_NEGATIVE_PER_AXIS, Need.UNLESS_AUTO_PAD);
    Rule strides = new Rule("strides", Form.POSITIVE_PER_AXIS, Need.REQUIRED);
    rules(rules, List.of(strides, new Rule("dilations", Form.POSITIVE_PER_AXIS, Need.REQUIRED), padsBegin, padsEnd),
        "Convolution", "GroupConvolution");
    rules(rules, List.of(new Rule("kernel", Form.POSITIVE_PER_AXIS, Need.REQUIRED), strides, padsBegin, padsEnd,
        new Rule("dilations", Form.POSITIVE_PER_AXIS, Need.OPTIONAL)), "MaxPool", "AvgPool");
    rules(rules,
        List.of(new Rule("transpose_a", Form.BOOLEAN, Need.OPTIONAL),
            new Rule("transpose_b", Form.BOOLEAN, Need.OPTIONAL)),
        "MatMul");
    rules(rules, List.of(new Rule("axis", Form.INT, Need.OPTIONAL)), "SoftMax", "Softmax", "LogSoftmax");
    rules(rules, List.of(new Rule("axis", Form.INT, Need.REQUIRED)), "Concat");
    rules(rules, List.of(new Rule("special_zero", Form.BOOLEAN, Need.REQUIRED)), "Reshape");
    rules(rules, List.of(new Rule("keep_dims", Form.BOOLEAN, Need.OPTIONAL)), "ReduceMean", "ReduceSum", "ReduceMax",
        "ReduceMin",
        "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogicalAnd", "ReduceLogicalOr");
    rules(rules, List.of(new Rule("batch_dims", Form.INT, Need.OPTIONAL)), "Gather");
    RULES = Map.copyOf(rules);
  }

  private OpAttributes() {}

  private static void rules(Map<String, List<Rule>> into, List<Rule> rules, String... types) {
    for (String t : types) {
      into.put(t, rules);
    }
  }

  /** The checked attributes of {@code type}, empty when hsdag reads none of them. */
  static List<Rule> rulesFor(String type) {
    return RULES.getOrDefault(type, List.of());
  }

  /** Names of the attributes of {@code type} that the reader checks (empty for other op types). */
  public static Set<String> checkedAttributes(String type) {
    Set<String> names = new TreeSet<>();
    rulesFor(type).forEach(r -> names.add(r.name()));
    return names;
  }

  /** True for the spellings OpenVINO's reader takes as true ({@code true}, {@code 1}, any case). */
  public static boolean isTrue(String value) {
    if (value == null) {
      return false;
    }
    String v = value.trim().toLowerCase(Locale.ROOT);
    return v.equals("true") || v.equals("1");
  }

  /**
   * The first attribute of {@code node} that is missing or malformed, as "attribute 'x' ...", or
   * null when all are fine.
   */
  static String problem(OpNode node) {
    List<Rule> rules = rulesFor(node.type());
    if (rules.isEmpty()) {
      return null;
    }
    int spatialAxes = node.inputs().isEmpty() || node.inputs().get(0).rank() < 3 ? -1 : node.inputs().get(0).rank() - 2;
    String autoPad = node.attribute("auto_pad");
    boolean padsIgnored = autoPad != null && PADS_IGNORED.contains(autoPad.trim().toLowerCase(Locale.ROOT));
    for (Rule rule : rules) {
      String value = node.attribute(rule.name());
      if (value == null) {
        if (rule.need() == Need.REQUIRED || (rule.need() == Need.UNLESS_AUTO_PAD && !padsIgnored)) {
          return "attribute '" + rule.name() + "' is missing";
        }
        continue;
      }
      String bad = formProblem(rule.form(), value, spatialAxes);
      if (bad != null) {
        return "attribute " + rule.name() + "=\"" + value + "\" " + bad;
      }
    }
    return null;
  }

  private static String formProblem(Form form, String value, int spatialAxes) {
    switch (form) {
      case ELEMENT_TYPE -> {
        try {
          ElementType.parse(value);
          return null;
        } catch (IllegalArgumentException e) {
          return "is not an element type";
        }
      }
      case PARTIAL_SHAPE, STATIC_SHAPE -> {
        long[] dims;
        try {
          dims = Shapes.parseShape(value);
        } catch (IrException e) {
          return "is not a shape";
        }
        if (form == Form.STATIC_SHAPE) {
          if (dims == null) {
            return "is not a static shape";
          }
          for (long d : dims) {
            if (d < 0) {
              return "is not a static shape";
            }
          }
        }
        return dims == null ? null : Shapes.boundProblem(dims);
      }
      case NON_NEGATIVE_INT, INT -> {
        try {
          long v = Long.parseLong(value.trim());
          return form == Form.NON_NEGATIVE_INT && v < 0 ? "is negative" : null;
        } catch (NumberFormatException e) {
          return "is not an integer";
        }
      }
      case BOOLEAN -> {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return v.equals("true") || v.equals("false") || v.equals("1") || v.equals("0") ? null : "is not true or false";
      }
      case POSITIVE_PER_AXIS, NON_NEGATIVE_PER_AXIS -> {
        long[] values;
        try {
          values = Shapes.parseLongs(value);
        } catch (IrException e) {
          return "is not a list of integers";
        }
        long min = form == Form.POSITIVE_PER_AXIS ? 1 : 0;
        for (long v : values) {
          if (v < min) {
            return min == 1 ? "has a value below 1" : "has a negative value";
          }
        }
        if (spatialAxes >= 0 && values.length != spatialAxes) {
          return "has " + values.length + " values for " + spatialAxes + " spatial axes";
        }
        return null;
      }
      default -> throw new IllegalStateException(form.name());
    }
  }
}
