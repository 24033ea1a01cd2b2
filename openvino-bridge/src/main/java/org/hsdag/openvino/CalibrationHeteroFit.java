package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.backend.CostModelSource;
import org.hsdag.cost.HeteroFit;
import org.hsdag.cost.SimGraph;
import org.hsdag.ir.OpGraph;

/**
 * The last step of {@link CalibrationFit}: what HETERO costs beyond the kernels, fitted ({@link
 * HeteroFit}) to the designed HETERO runs of the records. Per device the kernel scale goes into the
 * profile's launch overhead and efficiencies (kernel time x scale), and the fitted sub-model start,
 * copy latency and bandwidth replace the values derived from single-device runs; the per-request
 * overhead is fitted too. The fitted profile's own error on those runs is added to the notes, so
 * {@code calibrate} prints how well it reproduces its calibration measurements. Stateless.
 */
final class CalibrationHeteroFit {
  private CalibrationHeteroFit() {}

  static CalibrationFit.Result apply(CalibrationFit fit, OpGraph graph, CostModel costModel,
      List<CalibrationFit.DeviceFit> fits, CalibrationRecords records, List<String> notes) {
    List<String> names = fits.stream().map(CalibrationFit.DeviceFit::device).toList();
    DeviceProfile p = fit.toProfile("calibrating", "", List.of(), new CalibrationFit.Result(fits, notes));
    HeteroCostModel model = SimGraph.build(graph, p, costModel).costModel().withDevices(names);
    List<HeteroFit.Observation> obs = observations(records, names, model.opCount());
    if (obs.isEmpty()) {
      notes.add("no designed HETERO run matches these devices and this model; start and copy costs not fitted");
      return new CalibrationFit.Result(fits, dedup(notes));
    }
    HeteroFit.Result h = HeteroFit.fit(model, obs);
    notes.removeIf(n -> n.contains("no usable split run")); // the designed runs price the links now
    notes.addAll(h.notes());
    List<CalibrationFit.DeviceFit> out = new ArrayList<>();
    for (int d = 0; d < fits.size(); d++) {
      HeteroDevice c = h.costs().get(d);
      out.add(scaled(fits.get(d), h.kernelScale()[d], c, notes));
    }
    CalibrationFit.Result result = new CalibrationFit.Result(out, notes, h.requestMicros());
    notes.add(error(fit, graph, costModel, result, names, obs));
    return new CalibrationFit.Result(out, dedup(notes), h.requestMicros());
  }

  /** The designed runs as observations on the model's device indices (runs of other devices or ops left out). */
  private static List<HeteroFit.Observation> observations(CalibrationRecords records, List<String> names, int ops) {
    List<HeteroFit.Observation> obs = new ArrayList<>();
    for (CalibrationRecords.DesignedRun r : records.designed()) {
      int[] dc = r.deviceOfOp();
      if (dc.length != ops) {
        continue;
      }
      int[] mapped = new int[ops];
      boolean ok = true;
      for (int i = 0; i < ops && ok; i++) {
        int k = dc[i] >= 0 && dc[i] < r.deviceNames().size() ? names.indexOf(r.deviceNames().get(dc[i])) : -1;
        ok = k >= 0;
        mapped[i] = k;
      }
      if (ok) {
        obs.add(new HeteroFit.Observation(r.label(), mapped, r.latencyMillis() * 1000.0));
      }
    }
    return obs;
  }

  /** {@code f} with kernel times x {@code scale} (launch x scale, efficiencies / scale) and the fitted HETERO costs. */
  private static CalibrationFit.DeviceFit scaled(CalibrationFit.DeviceFit f, double scale, HeteroDevice c,
      List<String> notes) {
    Map<String, Double> eff = new LinkedHashMap<>();
    for (Map.Entry<String, Double> e : f.efficiency().entrySet()) {
      double v = e.getValue() / scale;
      if (v > 1) {
        notes.add(String.format(Locale.ROOT, "%s: %s efficiency %.3f / kernel scale %.3f exceeds 1; kept at %.3f",
            f.device(), e.getKey(), e.getValue(), scale, e.getValue()));
        v = e.getValue();
      }
      eff.put(e.getKey(), v);
    }
    double bandwidth = c.linkMicrosPerByte() > 0 ? 1.0 / (c.linkMicrosPerByte() * 1e3) : 0;
    return new CalibrationFit.DeviceFit(f.device(), f.fullName(), f.baseDevice(), f.launchOverheadUs() * scale,
        c.subModelOverheadUs(), eff, f.fittedClasses(), c.linkLatencyUs(), bandwidth, f.matchedRecords(),
        f.unmatchedRecords(), c.aloneScale());
  }

  /** The fitted profile's error on the designed runs, as a note. */
  private static String error(CalibrationFit fit, OpGraph graph, CostModel costModel, CalibrationFit.Result result,
      List<String> names, List<HeteroFit.Observation> obs) {
    DeviceProfile p = fit.toProfile("calibrated", "", List.of(), result);
    HeteroCostModel.Evaluator ev = SimGraph.build(graph, p, costModel).costModel().withDevices(names).evaluator();
    List<Double> errors = new ArrayList<>();
    for (HeteroFit.Observation o : obs) {
      errors.add(ev.micros(o.deviceOfOp()) / o.micros() - 1); // infinite where it predicts a refusal: counted apart
    }
    return "the calibrated profile's own error "
        + CostModelSource.FitError.of(errors).orElseThrow().describe("designed HETERO runs");
  }

  private static List<String> dedup(List<String> notes) {
    return List.copyOf(new LinkedHashSet<>(notes));
  }
}
