package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.SimGraph;

/**
 * Measures {@link CalibrationRecords} on a real machine ({@code hsdag calibrate}): per device, the
 * median wall latency without profiling and per-layer records averaged over several profiled
 * inferences; then, per non-CPU device, a few HETERO runs splitting the model between CPU and
 * that device, for the link cost.
 *
 * @param runs timed inferences for each wall latency (after 3 warm-up runs)
 * @param profiledRuns profiled inferences averaged per device
 * @param splits split points per non-CPU device (evenly spaced over the kernels)
 * @param seed input data seed
 * @param inputShapes static shapes for dynamic inputs, by input name
 */
public record CalibrationRun(int runs, int profiledRuns, int splits, long seed, Map<String, long[]> inputShapes) {
  public CalibrationRun {
    if (runs < 1 || profiledRuns < 1 || splits < 0) {
      throw new IllegalArgumentException("Expected runs >= 1, profiledRuns >= 1, splits >= 0");
    }
    inputShapes = OpenVinoOptions.DEFAULT.withInputShapes(inputShapes).inputShapes();
  }

  /** Input shapes by name; the arrays are copies. */
  @Override
  public Map<String, long[]> inputShapes() {
    return OpenVinoOptions.DEFAULT.withInputShapes(inputShapes).inputShapes();
  }

  /** Measures {@code graph} (read from {@code xml}) on {@code devices}. */
  public CalibrationRecords measure(OpenVinoRuntime rt, OpGraph graph, Path xml, List<String> devices,
      DeviceProfile base,
      ShapeAssumption shapes) {
    Map<String, String> fullNames = new LinkedHashMap<>();
    for (DeviceInfo d : rt.devices()) {
      fullNames.put(d.name(), d.fullName());
    }
    for (String d : devices) {
      if (!fullNames.containsKey(d)) {
        throw new OpenVinoException(
            "device " + d + " is not available (available: " + String.join(",", fullNames.keySet()) + ")");
      }
    }
    List<CalibrationRecords.DeviceRun> runsOut = new ArrayList<>();
    List<CalibrationRecords.SplitRun> splitsOut = new ArrayList<>();
    try (OpenVinoRuntime.Model model = rt.readModel(xml)) {
      List<String> inputs = model.inputNames();
      Map<String, long[]> shapesByName = inputShapes();
      for (int i = 0; i < inputs.size(); i++) {
        long[] s = shapesByName.get(inputs.get(i));
        if (s != null) {
          model.setInputShape(i, s);
        }
      }
      model.clearAffinities();
      for (String d : devices) {
        double latency = medianLatency(model, d);
        runsOut.add(new CalibrationRecords.DeviceRun(d, fullNames.get(d), latency, profiled(model, d)));
      }
      if (devices.contains("CPU")) {
        SimGraph sg = SimGraph.build(graph, base, new CostModel(shapes));
        CalibrationFit helper = new CalibrationFit(graph, base, shapes);
        int kernels = sg.computeNodeCount();
        for (String d : devices) {
          if (d.equals("CPU")) {
            continue;
          }
          for (int k = 1; k <= splits; k++) {
            int prefix = (int) Math.round((double) kernels * k / (splits + 1));
            Placement p = helper.splitPlacement(sg, d, prefix);
            try {
              model.setAffinities(new HeteroAffinity(graph).nameMap(p));
              splitsOut.add(new CalibrationRecords.SplitRun(d, prefix, medianLatency(model, "HETERO:" + d + ",CPU")));
            } catch (OpenVinoException e) {
              // A split some plugin rejects is just not used for the fit.
            } finally {
              model.clearAffinities();
            }
          }
        }
      }
    }
    String source = "measured: " + OpenVinoBackend.describeMachine(rt.version(), rt.devices());
    return new CalibrationRecords(xml.getFileName().toString(), source, runsOut, splitsOut);
  }

  private double medianLatency(OpenVinoRuntime.Model model, String device) {
    try (OpenVinoRuntime.Compiled c = model.compile(device, null, false)) {
      c.fillInputs(seed);
      return SelfTest.median(c.inferTimed(3, runs));
    }
  }

  /** Per-layer records averaged over {@code profiledRuns} inferences (same records, same order each run). */
  private List<ProfilingRecord> profiled(OpenVinoRuntime.Model model, String device) {
    try (OpenVinoRuntime.Compiled c = model.compile(device, null, true)) {
      c.fillInputs(seed);
      c.inferTimed(3, 0);
      Map<String, long[]> sums = new LinkedHashMap<>();
      Map<String, ProfilingRecord> first = new LinkedHashMap<>();
      for (int r = 0; r < profiledRuns; r++) {
        c.inferTimed(0, 1);
        for (ProfilingRecord rec : c.profile()) {
          String key = rec.subgraph() + "\u0000" + rec.nodeName() + "\u0000" + rec.nodeType() + "\u0000"
              + rec.execType();
          first.putIfAbsent(key, rec);
          long[] s = sums.computeIfAbsent(key, x -> new long[3]);
          s[0] += rec.realTimeMicros();
          s[1] += rec.cpuTimeMicros();
          s[2]++;
        }
      }
      List<ProfilingRecord> out = new ArrayList<>();
      for (Map.Entry<String, ProfilingRecord> e : first.entrySet()) {
        ProfilingRecord f = e.getValue();
        long[] s = sums.get(e.getKey());
        out.add(new ProfilingRecord(f.subgraph(), f.nodeName(), f.nodeType(), f.execType(), f.status(),
            Math.round((double) s[0] / s[2]), Math.round((double) s[1] / s[2])));
      }
      return out;
    }
  }
}
