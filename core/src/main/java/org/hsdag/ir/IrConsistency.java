package org.hsdag.ir;

/**
 * How an IR's redundant descriptions of one tensor disagree: an attribute against its own output
 * port, or an edge's producer port against its consumer port. Null from each check means they agree.
 */
final class IrConsistency {
  private IrConsistency() {}

  /** Null, or how a Const, Parameter or Convert attribute contradicts the output port it describes. */
  static String disagreement(OpNode node, long[] declaredShape) {
    if (node.outputs().isEmpty()) {
      return null;
    }
    Port out = node.outputs().get(0);
    String typeKey = node.isConstant() || node.isParameter() ? "element_type"
        : "Convert".equals(node.type()) ? "destination_type" : null;
    if (typeKey == null) {
      return null;
    }
    ElementType declared = ElementType.parse(node.attribute(typeKey));
    if (out.elementType() != null && out.elementType().bitWidth() > 0 && declared.bitWidth() > 0
        && out.elementType() != declared) {
      return "attribute " + typeKey + "=\"" + node.attribute(typeKey) + "\" does not match its output port's precision "
          + out.elementType().precision();
    }
    if (declaredShape != null && !out.shapeCompatible(new Port(out.id(), null, declaredShape, null, null))) {
      return "attribute shape=\"" + node.attribute("shape") + "\" does not match its output port ["
          + Shapes.format(out.dims()) + "]";
    }
    return null;
  }

  /** Null when an edge's two ends describe one tensor (OpenVINO's serializer writes both from it), else how not. */
  static String tensorMismatch(OpNode from, int out, OpNode to, int in) {
    Port produced = from.outputs().get(out);
    Port consumed = to.inputs().get(in);
    String what;
    String other;
    ElementType a = produced.elementType();
    ElementType b = consumed.elementType();
    if (!produced.shapeCompatible(consumed)) {
      what = "[" + Shapes.format(produced.dims()) + "]";
      other = "[" + Shapes.format(consumed.dims()) + "]";
    } else if (a != null && b != null && a.bitWidth() > 0 && b.bitWidth() > 0 && a != b) {
      what = a.precision();
      other = b.precision();
    } else {
      return null;
    }
    return "layer id=" + from.id() + " '" + from.name() + "' outputs " + what + " but input port " + consumed.id()
        + " of layer id=" + to.id() + " '" + to.name() + "' takes " + other;
  }
}
