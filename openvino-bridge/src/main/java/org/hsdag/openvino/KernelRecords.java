package org.hsdag.openvino;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.ir.OpGraph;

/**
 * One cost-model build's use of the {@link ProfileDatabase}: which devices' kernel times it already holds for every op
 * of the graph, and what was profiled, saved back. A device is profiled inside one HETERO compile of the whole model
 * ({@link HeteroProfiling#kernels}), so it is profiled when any op it runs lacks a record; its fresh times then serve
 * the model (measured in this model's own fusions) and refresh the database. Records are per op signature; the fit
 * to designed splits is the model's own and is not kept here.
 */
final class KernelRecords {
  private final ProfileDatabase db;
  private final boolean fresh;
  private final List<ProfileContext> contexts;
  private final Consumer<String> notices;
  private int reused;
  private int profiled;
  private String problem;

  /**
   * @param db the database
   * @param fresh whether to ignore what it holds (then refresh it)
   * @param contexts each device's context, in the backend's order
   * @param notices where a database that cannot be read or written is said (the build goes on without it)
   */
  KernelRecords(ProfileDatabase db, boolean fresh, List<ProfileContext> contexts, Consumer<String> notices) {
    this.db = db;
    this.fresh = fresh;
    this.contexts = List.copyOf(contexts);
    this.notices = notices;
  }

  /**
   * Fills the rows of {@code micros} of the devices whose every op (but those another device runs in its profiling
   * compile) has a record; returns which devices still need profiling.
   */
  boolean[] fill(OpGraph graph, HeteroCostModel skeleton, String[] signatures, double[][] micros) {
    boolean[] todo = new boolean[contexts.size()];
    Arrays.fill(todo, true);
    if (fresh) {
      return todo;
    }
    for (int d = 0; d < contexts.size(); d++) {
      Map<String, Double> known;
      try {
        known = db.records(contexts.get(d).key(), new HashSet<>(Arrays.asList(signatures)));
      } catch (IOException e) {
        trouble(e);
        return todo;
      }
      Set<Integer> foreign = HeteroProfiling.foreign(graph, skeleton, contexts.size(), d);
      boolean all = true;
      for (int v = 0; v < signatures.length && all; v++) {
        all = foreign.contains(v) || known.containsKey(signatures[v]);
      }
      if (all) {
        todo[d] = false;
        for (int v = 0; v < signatures.length; v++) {
          micros[d][v] = known.getOrDefault(signatures[v], 0.0);
        }
        reused += signatures.length;
      }
    }
    return todo;
  }

  /** Saves the profiled rows ({@code rows[d]}) of {@code micros}: per signature, the median of its ops' times. */
  void profiled(OpGraph graph, HeteroCostModel skeleton, String[] signatures, double[][] micros, boolean[] rows) {
    for (int d = 0; d < contexts.size(); d++) {
      if (!rows[d]) {
        continue;
      }
      Set<Integer> foreign = HeteroProfiling.foreign(graph, skeleton, contexts.size(), d);
      Map<String, List<Double>> bySignature = new LinkedHashMap<>();
      Map<String, String> types = new LinkedHashMap<>();
      for (int v = 0; v < signatures.length; v++) {
        if (!foreign.contains(v)) {
          bySignature.computeIfAbsent(signatures[v], s -> new ArrayList<>()).add(micros[d][v]);
          types.putIfAbsent(signatures[v], graph.node(v).type());
        }
      }
      profiled += signatures.length;
      List<ProfileDatabase.OpRecord> records = new ArrayList<>();
      bySignature.forEach((s, times) -> records.add(new ProfileDatabase.OpRecord(s, types.get(s), median(times))));
      try {
        db.put(contexts.get(d).key(), contexts.get(d).description(), records, graph.name());
      } catch (IOException e) {
        trouble(e);
      }
    }
  }

  private void trouble(IOException e) {
    if (problem == null) {
      problem = e.getMessage();
      notices.accept(problem + "; profiling without it");
    }
  }

  private static double median(List<Double> xs) {
    double[] v = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** What this build took from the database and profiled. */
  ProfileReuse reuse() {
    return new ProfileReuse(reused, profiled, fresh, db.file().toString());
  }
}
