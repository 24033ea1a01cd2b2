package org.hsdag.cost;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.OpShapes;
import org.hsdag.ir.Port;

/**
 * The concrete shape of every tensor of one graph as the model is compiled: each dynamic input at
 * the static shape {@link ShapeAssumption#inputs()} gives it (what the real backend reshapes it
 * to), propagated in topological order to the tensors it feeds where the IR leaves a dim dynamic
 * ({@link OpShapes#concrete}, hsdag's one shape inference). A dim no rule sizes
 * takes the {@link ShapeAssumption}'s batch or sequence; {@link #assumed()} counts those tensors.
 * Static IR dims are kept as written: they are OpenVINO's own inference and do not depend on the
 * dynamic inputs. Computed once per graph by the cost model, the simulator and the boundary copies.
 */
public final class TensorShapes {
  private final OpGraph g;
  private final ShapeAssumption shapes;
  private final long[][][] out;
  private final List<String> assumed = new ArrayList<>();
  /** Derived once, on the first data-sized op with a dynamic output. */
  private OpShapes.Values values;

  private TensorShapes(OpGraph g, ShapeAssumption shapes) {
    this.g = g;
    this.shapes = shapes;
    out = new long[g.nodeCount()][][];
  }

  /** The shapes of {@code g}'s tensors with its dynamic inputs at {@code shapes}. */
  public static TensorShapes of(OpGraph g, ShapeAssumption shapes) {
    TensorShapes t = new TensorShapes(g, shapes);
    for (int v : g.topologicalOrder()) {
      t.resolve(v);
    }
    return t;
  }

  private void resolve(int v) {
    OpNode node = g.node(v);
    List<Port> ports = node.outputs();
    out[v] = new long[ports.size()][];
    long[][] in = null;
    for (int p = 0; p < ports.size(); p++) {
      long[] ir = ports.get(p).dims();
      if (!ports.get(p).isDynamic()) {
        out[v][p] = ir;
        continue;
      }
      long[] known = node.isParameter() ? given(node, ir) : null;
      if (known == null && !node.isParameter()) {
        in = in != null ? in : inputs(v);
        known = OpShapes.isDataSized(node) ? dataSized(v, in) : OpShapes.concrete(node, p, in, ir);
      }
      out[v][p] = fill(ir, known, node, p);
    }
  }

  /** A Range, Broadcast or Tile sized by the values of its shape inputs under the concrete input sizes. */
  private long[] dataSized(int v, long[][] in) {
    if (values == null) {
      values = OpShapes.values(g);
    }
    return OpShapes.dataSized(g.node(v), in, k -> {
      int e = g.inputEdge(v, k);
      return e < 0 || g.edge(e).sourceOutput() != 0 ? null : values.value(g.edge(e).source(), s -> input(s, 0));
    });
  }

  /** The size given for Parameter {@code node} by its friendly name or a tensor name, when it has {@code ir}'s rank. */
  private long[] given(OpNode node, long[] ir) {
    List<String> names = new ArrayList<>();
    names.add(node.name());
    String tensors = node.outputs().get(0).names();
    if (tensors != null) {
      for (String t : tensors.split(",", -1)) {
        names.add(t.trim());
      }
    }
    for (String name : names) {
      long[] s = shapes.inputSize(name);
      if (s != null && s.length == ir.length) {
        return s;
      }
    }
    return null;
  }

  /** {@code ir} with each dynamic dim from {@code known}, or from the assumption (noted) where unknown. */
  private long[] fill(long[] ir, long[] known, OpNode node, int port) {
    long[] dims = ir.clone();
    boolean guessed = false;
    for (int a = 0; a < dims.length; a++) {
      if (dims[a] >= 0) {
        continue;
      }
      if (known != null && a < known.length && known[a] >= 0) {
        dims[a] = known[a];
      } else {
        dims[a] = shapes.resolve(-1, a);
        guessed = true;
      }
    }
    if (guessed) {
      assumed.add(node.type() + " '" + node.name() + "'" + (port == 0 ? "" : " output " + port));
    }
    return dims;
  }

  private long[][] inputs(int v) {
    long[][] in = new long[g.node(v).inputs().size()][];
    for (int k = 0; k < in.length; k++) {
      in[k] = input(v, k);
    }
    return in;
  }

  /** The shape of output {@code port} of {@code node}. */
  public long[] output(int node, int port) {
    return out[node][port].clone();
  }

  /** The shape of the tensor on input {@code k} of {@code node} (its producer's output; the IR port under the assumption when unconnected). */
  public long[] input(int node, int k) {
    int e = g.inputEdge(node, k);
    long[][] produced = e < 0 ? null : out[g.edge(e).source()];
    if (produced != null && g.edge(e).sourceOutput() < produced.length) {
      return produced[g.edge(e).sourceOutput()].clone();
    }
    long[] ir = g.node(node).inputs().get(k).dims();
    for (int a = 0; a < ir.length; a++) {
      ir[a] = shapes.resolve(ir[a], a);
    }
    return ir;
  }

  /** Elements of output {@code port} of {@code node}. */
  public long outputElements(int node, int port) {
    return product(out[node][port]);
  }

  /** Elements of the tensor edge {@code k} carries. */
  public long edgeElements(int k) {
    Edge e = g.edge(k);
    return outputElements(e.source(), e.sourceOutput());
  }

  /** The tensors (their producers) with a dim no rule sized, which took the assumption's batch or sequence. */
  public List<String> assumed() {
    return List.copyOf(assumed);
  }

  /** What sized the dynamic tensors, for a note; null for a static graph. */
  public String note() {
    if (assumed.isEmpty()) {
      return null;
    }
    return assumed.size() + " dynamic tensor" + (assumed.size() == 1 ? "" : "s") + " no shape rule reaches costed at "
        + shapes + " (first: " + assumed.get(0) + ")";
  }

  private static long product(long[] dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }
}
