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
 * of the graph, which ops each device lacks, and what was profiled, saved back: a device with every record is not
 * profiled, one lacking a few profiles only a part of the model around them ({@link SubModelSelection}), one lacking
 * most is profiled whole ({@link HeteroProfiling#kernels}) and its fresh times serve the model and refresh the
 * database. Records are per op signature; the fit
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
  private String bypassed = "";
  private final List<String> deviceLines = new ArrayList<>();

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
   * Fills {@code micros} with every record the database holds for the graph's ops on each device; returns per device
   * the nodes (but those another device runs in its profiling compile) that lack one: every node when fresh or when
   * the database cannot be read.
   */
  List<Set<Integer>> fill(OpGraph graph, HeteroCostModel skeleton, String[] signatures, double[][] micros) {
    List<Set<Integer>> lacking = new ArrayList<>();
    Set<Integer> all = new java.util.TreeSet<>();
    for (int v = 0; v < signatures.length; v++) {
      all.add(v);
    }
    for (int d = 0; d < contexts.size(); d++) {
      lacking.add(all);
    }
    if (fresh) {
      return lacking;
    }
    for (int d = 0; d < contexts.size(); d++) {
      Map<String, Double> known;
      try {
        known = db.records(contexts.get(d).key(), new HashSet<>(Arrays.asList(signatures)));
      } catch (IOException e) {
        trouble(e);
        return lacking;
      }
      Set<Integer> foreign = HeteroProfiling.foreign(graph, skeleton, contexts.size(), d);
      Set<Integer> missing = new java.util.TreeSet<>();
      for (int v = 0; v < signatures.length; v++) {
        Double t = known.get(signatures[v]);
        if (t != null) {
          micros[d][v] = t;
        } else if (!foreign.contains(v)) {
          missing.add(v);
        }
      }
      lacking.set(d, missing);
    }
    return lacking;
  }

  /**
   * Counts device {@code device}'s row: {@code profiledNodes} of the graph's {@code nodes} profiled now, the others read
   * from the database.
   */
  void counted(String device, int nodes, int profiledNodes) {
    reused += nodes - profiledNodes;
    profiled += profiledNodes;
    deviceLines.add(String.format(java.util.Locale.ROOT, "profiled %d of %d ops on %s (%d reused from the profile "
        + "database)", profiledNodes, nodes, device, nodes - profiledNodes));
  }

  /** Nothing is read or saved for this graph, for {@code why}: the summary says so instead of counting nothing. */
  void bypassed(String why) {
    bypassed = why;
  }

  /** Saves the wholly profiled rows ({@code rows[d]}) of {@code micros}: per signature, the median of its ops' times. */
  void profiled(OpGraph graph, HeteroCostModel skeleton, String[] signatures, double[][] micros, boolean[] rows) {
    for (int d = 0; d < contexts.size(); d++) {
      if (rows[d]) {
        Set<Integer> foreign = HeteroProfiling.foreign(graph, skeleton, contexts.size(), d);
        Set<Integer> nodes = new java.util.TreeSet<>();
        for (int v = 0; v < signatures.length; v++) {
          if (!foreign.contains(v)) {
            nodes.add(v);
          }
        }
        save(graph, signatures, d, micros[d], nodes);
      }
    }
  }

  /** Saves the records of {@code nodes} of device {@code d}'s row {@code row} (per signature, the median). */
  void save(OpGraph graph, String[] signatures, int d, double[] row, Set<Integer> nodes) {
    Map<String, List<Double>> bySignature = new LinkedHashMap<>();
    Map<String, String> types = new LinkedHashMap<>();
    for (int v : nodes) {
      bySignature.computeIfAbsent(signatures[v], s -> new ArrayList<>()).add(row[v]);
      types.putIfAbsent(signatures[v], graph.node(v).type());
    }
    List<ProfileDatabase.OpRecord> records = new ArrayList<>();
    bySignature.forEach((s, times) -> records.add(new ProfileDatabase.OpRecord(s, types.get(s), median(times))));
    try {
      db.put(contexts.get(d).key(), contexts.get(d).description(), records, graph.name());
    } catch (IOException e) {
      trouble(e);
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
    return new ProfileReuse(reused, profiled, fresh, db.file().toString(), deviceLines, bypassed);
  }
}
