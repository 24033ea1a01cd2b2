package org.hsdag.ir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable, array-backed operation graph: one node per IR layer, one edge per IR edge.
 *
 * <p>Nodes are dense indices 0..n-1 in document order. Adjacency is kept in compressed rows
 * (successors and predecessors, one entry per edge, so parallel edges repeat). The topological
 * order is computed once with a stable tie-break (lowest index first). Build with {@link
 * #builder()}; a cycle or a dangling edge is rejected there.
 *
 * <p>A graph read from a file remembers it ({@link #source()}): a backend that compiles the model
 * itself (the real runtime) finds the file, weights beside it, without being told. The file is
 * provenance, not content: it takes no part in {@link #equals}.
 */
public final class OpGraph {
  private final String name;
  private final int irVersion;
  private final OpNode[] nodes;
  private final Edge[] edges;
  private final List<String> modelInfoXml;
  private final int[] succStart;
  private final int[] succ;
  private final int[] succEdge;
  private final int[] predStart;
  private final int[] pred;
  private final int[] predEdge;
  private final int[] topoOrder;
  private final int[] topoRank;
  private final Map<String, Integer> byName;
  private final Path source;

  private OpGraph(Builder b) {
    this.source = null;
    this.name = b.name;
    this.irVersion = b.irVersion;
    this.nodes = b.nodes.toArray(new OpNode[0]);
    this.edges = b.edges.toArray(new Edge[0]);
    this.modelInfoXml = List.copyOf(b.modelInfoXml);
    int n = nodes.length;
    int m = edges.length;
    succStart = new int[n + 1];
    predStart = new int[n + 1];
    for (Edge e : edges) {
      succStart[e.source() + 1]++;
      predStart[e.target() + 1]++;
    }
    for (int i = 0; i < n; i++) {
      succStart[i + 1] += succStart[i];
      predStart[i + 1] += predStart[i];
    }
    succ = new int[m];
    succEdge = new int[m];
    pred = new int[m];
    predEdge = new int[m];
    int[] sFill = Arrays.copyOf(succStart, n);
    int[] pFill = Arrays.copyOf(predStart, n);
    for (int k = 0; k < m; k++) {
      Edge e = edges[k];
      succEdge[sFill[e.source()]] = k;
      succ[sFill[e.source()]++] = e.target();
      predEdge[pFill[e.target()]] = k;
      pred[pFill[e.target()]++] = e.source();
    }
    topoOrder = topologicalSort();
    topoRank = new int[n];
    for (int r = 0; r < n; r++) {
      topoRank[topoOrder[r]] = r;
    }
    Map<String, Integer> names = new HashMap<>(n * 2);
    for (OpNode node : nodes) {
      names.putIfAbsent(node.name(), node.index());
    }
    byName = Collections.unmodifiableMap(names);
  }

  /** {@code g} as read from {@code source}: the same arrays, shared (both are immutable). */
  private OpGraph(OpGraph g, Path source) {
    this.name = g.name;
    this.irVersion = g.irVersion;
    this.nodes = g.nodes;
    this.edges = g.edges;
    this.modelInfoXml = g.modelInfoXml;
    this.succStart = g.succStart;
    this.succ = g.succ;
    this.succEdge = g.succEdge;
    this.predStart = g.predStart;
    this.pred = g.pred;
    this.predEdge = g.predEdge;
    this.topoOrder = g.topoOrder;
    this.topoRank = g.topoRank;
    this.byName = g.byName;
    this.source = source;
  }

  /** This graph recorded as read from the IR file {@code xml} (made absolute), its weights in the {@code .bin} beside it. */
  public OpGraph readFrom(Path xml) {
    return new OpGraph(this, xml.toAbsolutePath().normalize());
  }

  /** The IR file this graph was read from ({@link IrReader#read(Path)}), empty for a graph built in memory. */
  public Optional<Path> source() {
    return Optional.ofNullable(source);
  }

  private int[] topologicalSort() {
    int n = nodes.length;
    int[] order = TopologicalOrder.kahn(n, succStart, succ, TopologicalOrder.TieBreak.FIRST_READY);
    if (order.length < n) {
      boolean[] placed = new boolean[n];
      for (int v : order) {
        placed[v] = true;
      }
      for (int i = 0; i < n; i++) {
        if (!placed[i]) {
          OpNode bad = nodes[i];
          throw new IrException(
              "graph has a cycle through layer id=" + bad.id() + " name='" + bad.name() + "'");
        }
      }
    }
    return order;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The model's friendly name ({@code <net name>}), possibly empty. */
  public String name() {
    return name;
  }

  public int irVersion() {
    return irVersion;
  }

  public int nodeCount() {
    return nodes.length;
  }

  public int edgeCount() {
    return edges.length;
  }

  public OpNode node(int index) {
    return nodes[index];
  }

  /** All nodes in index order (a read-only view). */
  public List<OpNode> nodes() {
    return Collections.unmodifiableList(Arrays.asList(nodes));
  }

  public Edge edge(int k) {
    return edges[k];
  }

  /** All edges in document order (a read-only view). */
  public List<Edge> edges() {
    return Collections.unmodifiableList(Arrays.asList(edges));
  }

  /** Model-level {@code <rt_info>}, {@code <meta_data>} and similar blocks, verbatim. */
  public List<String> modelInfoXml() {
    return modelInfoXml;
  }

  public int outDegree(int v) {
    return succStart[v + 1] - succStart[v];
  }

  public int inDegree(int v) {
    return predStart[v + 1] - predStart[v];
  }

  /** Successor of {@code v} number {@code j} (0 ≤ j < outDegree), one per edge. */
  public int successor(int v, int j) {
    return succ[succStart[v] + j];
  }

  public int predecessor(int v, int j) {
    return pred[predStart[v] + j];
  }

  /** Edge index of the j-th outgoing edge of v. */
  public int outEdge(int v, int j) {
    return succEdge[succStart[v] + j];
  }

  /** Edge index of the j-th incoming edge of v. */
  public int inEdge(int v, int j) {
    return predEdge[predStart[v] + j];
  }

  /** Edge index into input port {@code k} of v, or -1 when the port is unconnected. */
  public int inputEdge(int v, int k) {
    for (int j = predStart[v]; j < predStart[v + 1]; j++) {
      if (edges[predEdge[j]].targetInput() == k) {
        return predEdge[j];
      }
    }
    return -1;
  }

  public int[] successors(int v) {
    return Arrays.copyOfRange(succ, succStart[v], succStart[v + 1]);
  }

  public int[] predecessors(int v) {
    return Arrays.copyOfRange(pred, predStart[v], predStart[v + 1]);
  }

  /** Node indices in a topological order (stable: lowest ready index first). */
  public int[] topologicalOrder() {
    return topoOrder.clone();
  }

  /** Position of node v in {@link #topologicalOrder()}. */
  public int topologicalRank(int v) {
    return topoRank[v];
  }

  /** Index of the first node with this friendly name, or -1. */
  public int indexOf(String friendlyName) {
    Integer i = byName.get(friendlyName);
    return i == null ? -1 : i;
  }

  /** The tensor carried by edge k (the producer's output port). */
  public Port edgeTensor(int k) {
    Edge e = edges[k];
    return nodes[e.source()].outputs().get(e.sourceOutput());
  }

  @Override
  public boolean equals(Object o) {
    return this == o || (o instanceof OpGraph g
        && irVersion == g.irVersion
        && Objects.equals(name, g.name)
        && Arrays.equals(nodes, g.nodes)
        && Arrays.equals(edges, g.edges)
        && modelInfoXml.equals(g.modelInfoXml));
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, irVersion, nodes.length, edges.length);
  }

  @Override
  public String toString() {
    return "OpGraph[" + name + ", v" + irVersion + ", " + nodes.length + " nodes, " + edges.length + " edges]";
  }

  /** Collects nodes and edges; {@link #build()} validates and freezes them. */
  public static final class Builder {
    private String name = "";
    private int irVersion = 11;
    private final List<OpNode> nodes = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private final List<String> modelInfoXml = new ArrayList<>();

    private Builder() {}

    public Builder setName(String name) {
      this.name = Objects.requireNonNull(name);
      return this;
    }

    public Builder setIrVersion(int irVersion) {
      this.irVersion = irVersion;
      return this;
    }

    /** Adds a node; its index must equal the number of nodes added so far. */
    public Builder addNode(OpNode node) {
      if (node.index() != nodes.size()) {
        throw new IllegalArgumentException(
            "Expected node index " + nodes.size() + " (got " + node.index() + ")");
      }
      nodes.add(node);
      return this;
    }

    public int nodeCount() {
      return nodes.size();
    }

    public Builder addEdge(Edge edge) {
      edges.add(edge);
      return this;
    }

    public Builder addModelInfoXml(String xml) {
      modelInfoXml.add(xml);
      return this;
    }

    /**
     * Validates edge ends and acyclicity and freezes the graph.
     *
     * @throws IrException on a dangling edge or a cycle
     */
    public OpGraph build() {
      for (Edge e : edges) {
        if (e.source() < 0 || e.source() >= nodes.size() || e.target() < 0 || e.target() >= nodes.size()) {
          throw new IrException("edge " + e + " refers to a missing layer");
        }
        if (e.sourceOutput() < 0 || e.sourceOutput() >= nodes.get(e.source()).outputs().size()) {
          throw new IrException("edge from layer id=" + nodes.get(e.source()).id() + " uses a missing output port");
        }
        if (e.targetInput() < 0 || e.targetInput() >= nodes.get(e.target()).inputs().size()) {
          throw new IrException("edge to layer id=" + nodes.get(e.target()).id() + " uses a missing input port");
        }
      }
      return new OpGraph(this);
    }
  }
}
