package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.Port;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.OpClass;
import org.hsdag.cost.OpCost;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.TensorShapes;
import org.hsdag.cost.SimGraph;

/**
 * Fits simulator device parameters to {@link CalibrationRecords} measured on a real machine, so
 * users can tune offline on the simulator and verify on hardware.
 *
 * <p>Per device, from its single-device run (records matched to IR nodes by friendly name):
 *
 * <ul>
 *   <li><b>launch overhead</b>: the 10th percentile of executed kernel times (the cheapest
 *       kernels are almost pure launch cost);
 *   <li><b>efficiency per op class</b> (only classes with at least {@value #MIN_RECORDS_PER_CLASS}
 *       records and FLOPs): Σ FLOPs / (peak · Σ (time − launch)), clamped to (0.001, 1]; other
 *       classes keep the base profile's value;
 *   <li><b>sub-model overhead</b>: whatever the per-layer records do not explain — measured wall
 *       latency minus the simulator's prediction with the fitted values (plugin reorders, request
 *       set-up), so a single-device run is reproduced exactly;
 * </ul>
 *
 * and from the two-device HETERO split runs, the <b>link cost</b> of the non-CPU device: the part
 * of each split's latency the fitted single-device values do not explain, regressed on the number
 * and bytes of boundary tensors (latency per copy, bandwidth). Peak FLOP/s and memory bandwidth
 * cannot be measured by profiling and come from the base profile's matching device. Stateless.
 */
public final class CalibrationFit {
  /** Fewest records of one class that give it its own efficiency. */
  public static final int MIN_RECORDS_PER_CLASS = 2;
  /** Below this a fitted efficiency is not believed (the clamp floor of earlier versions). */
  static final double MIN_EFFICIENCY = 0.001;

  private final OpGraph graph;
  private final DeviceProfile base;
  private final CostModel costModel;
  /** The tensors' sizes as compiled (boundary copies). */
  private final TensorShapes sized;

  /**
   * @param graph the model the records were measured on
   * @param base profile providing peak FLOP/s, bandwidth, request overhead and unfitted values
   * @param shapes sizes for dynamic dimensions (as the simulator will use them)
   */
  public CalibrationFit(OpGraph graph, DeviceProfile base, ShapeAssumption shapes) {
    this.graph = graph;
    this.base = base;
    this.costModel = new CostModel(shapes);
    this.sized = TensorShapes.of(graph, shapes);
  }

  /**
   * The fitted values of one device: the intermediate record between measurements and the
   * simulator's {@link DeviceModel}.
   *
   * @param device OpenVINO device name
   * @param fullName its full name
   * @param baseDevice the base-profile device peak and bandwidth came from
   * @param launchOverheadUs fitted per-kernel overhead
   * @param subModelOverheadUs fitted per-sub-model overhead
   * @param efficiency efficiency per op class (base values where not fitted)
   * @param fittedClasses the classes fitted from records
   * @param linkLatencyUs per-copy latency (base value when no split run was usable)
   * @param linkBandwidthGBs copy bandwidth (base value when not fitted)
   * @param matchedRecords executed records matched to a kernel of the graph
   * @param unmatchedRecords executed records with no matching node (plugin-internal nodes)
   * @param aloneScale the factor on the kernels when the device runs the model alone (1: as inside a split)
   */
  public record DeviceFit(
      String device,
      String fullName,
      String baseDevice,
      double launchOverheadUs,
      double subModelOverheadUs,
      Map<String, Double> efficiency,
      List<String> fittedClasses,
      double linkLatencyUs,
      double linkBandwidthGBs,
      int matchedRecords,
      int unmatchedRecords,
      double aloneScale) {
    public DeviceFit {
      efficiency = Map.copyOf(efficiency);
      fittedClasses = List.copyOf(fittedClasses);
      aloneScale = aloneScale == 0 ? 1.0 : aloneScale;
    }

    /** A device whose kernels run alone as inside a split. */
    public DeviceFit(String device, String fullName, String baseDevice, double launchOverheadUs,
        double subModelOverheadUs, Map<String, Double> efficiency, List<String> fittedClasses, double linkLatencyUs,
        double linkBandwidthGBs, int matchedRecords, int unmatchedRecords) {
      this(device, fullName, baseDevice, launchOverheadUs, subModelOverheadUs, efficiency, fittedClasses,
          linkLatencyUs, linkBandwidthGBs, matchedRecords, unmatchedRecords, 1.0);
    }
  }

  /**
   * All fitted devices plus human-readable notes on what could not be fitted.
   *
   * @param requestOverheadUs the fitted per-request overhead, NaN when not fitted (the base profile's)
   */
  public record Result(List<DeviceFit> devices, List<String> notes, double requestOverheadUs) {
    public Result {
      devices = List.copyOf(devices);
      notes = List.copyOf(notes);
    }

    public Result(List<DeviceFit> devices, List<String> notes) {
      this(devices, notes, Double.NaN);
    }
  }

  /**
   * Fits every device of {@code records}.
   *
   * @throws IllegalArgumentException when the records have no device run
   */
  public Result fit(CalibrationRecords records) {
    if (records.devices().isEmpty()) {
      throw new IllegalArgumentException("calibration records of " + records.model() + " have no device run");
    }
    List<String> notes = new ArrayList<>();
    List<DeviceFit> fits = new ArrayList<>();
    for (CalibrationRecords.DeviceRun run : records.devices()) {
      fits.add(fitKernels(run, notes, Double.NaN));
    }
    // Sub-model overheads need the whole intermediate profile (the simulator evaluates it); they
    // are fitted again after the links, since a device's link also prices its model inputs/outputs.
    List<DeviceFit> withOverheads = withOverheads(fits, records, notes);
    DeviceProfile p1 = toProfile("calibrating", "", List.of(), new Result(withOverheads, notes));
    List<DeviceFit> withLinks = new ArrayList<>();
    for (DeviceFit f : withOverheads) {
      withLinks.add(fitLink(f, p1, records, notes));
    }
    List<DeviceFit> done = withOverheads(withLinks, records, notes);
    if (!records.designed().isEmpty()) {
      return CalibrationHeteroFit.apply(this, graph, costModel, done, records, notes);
    }
    return new Result(done, List.copyOf(new java.util.LinkedHashSet<>(notes)));
  }

  /**
   * Sets each device's sub-model overhead to what its single-device wall latency leaves after the
   * simulated kernels. When the kernels alone already exceed it (the plugin fused or skipped more
   * kernels than the simulator assumes), the launch overhead — the least determined parameter —
   * is lowered by bisection until they fit, and efficiencies are refitted with it.
   */
  private List<DeviceFit> withOverheads(List<DeviceFit> fits, CalibrationRecords records, List<String> notes) {
    List<DeviceFit> out = new ArrayList<>(fits);
    for (int d = 0; d < out.size(); d++) {
      CalibrationRecords.DeviceRun run = records.devices().get(d);
      double measured = run.latencyMillis() * 1000.0;
      DeviceFit f = out.get(d);
      double excess = kernelsOnly(out, d, f) - measured;
      if (excess > 0 && f.matchedRecords() > 0) {
        List<String> scratch = new ArrayList<>();
        DeviceFit atZero = relink(fitKernels(run, scratch, 0.0), f);
        if (kernelsOnly(out, d, atZero) > measured) {
          notes.add(f.device() + ": the simulator's kernels exceed the wall latency even without launch overhead ("
              + fmt(kernelsOnly(out, d, atZero)) + " > " + fmt(measured) + " us); launch overhead set to 0");
          f = atZero;
        } else {
          double lo = 0;
          double hi = f.launchOverheadUs();
          for (int i = 0; i < 40; i++) {
            double mid = (lo + hi) / 2;
            if (kernelsOnly(out, d, relink(fitKernels(run, scratch, mid), f)) > measured) {
              hi = mid;
            } else {
              lo = mid;
            }
          }
          notes.add(f.device() + ": launch overhead lowered from " + fmt(f.launchOverheadUs()) + " to " + fmt(lo)
              + " us so the simulated kernels fit the wall latency (the plugin fused or skipped kernels)");
          f = relink(fitKernels(run, scratch, lo), f);
        }
      }
      double overhead = Math.max(0, measured - kernelsOnly(out, d, f));
      out.set(d, new DeviceFit(f.device(), f.fullName(), f.baseDevice(), f.launchOverheadUs(), overhead,
          f.efficiency(), f.fittedClasses(), f.linkLatencyUs(), f.linkBandwidthGBs(), f.matchedRecords(),
          f.unmatchedRecords()));
    }
    return out;
  }

  /** Simulated all-on-device latency of device {@code d} with {@code candidate} in place and no sub-model overhead. */
  private double kernelsOnly(List<DeviceFit> fits, int d, DeviceFit candidate) {
    List<DeviceFit> trial = new ArrayList<>(fits);
    trial.set(d, new DeviceFit(candidate.device(), candidate.fullName(), candidate.baseDevice(),
        candidate.launchOverheadUs(), 0, candidate.efficiency(), candidate.fittedClasses(), candidate.linkLatencyUs(),
        candidate.linkBandwidthGBs(), candidate.matchedRecords(), candidate.unmatchedRecords()));
    DeviceProfile p = toProfile("calibrating", "", List.of(), new Result(trial, List.of()));
    return evaluateAllOn(SimGraph.build(graph, p, costModel), p, candidate.device());
  }

  /** {@code fitted} with the link values of {@code linked}. */
  private static DeviceFit relink(DeviceFit fitted, DeviceFit linked) {
    return withLink(fitted, linked.linkLatencyUs(), linked.linkBandwidthGBs());
  }

  /** Launch overhead ({@code launchOverride}, or the 10th percentile when NaN) and class efficiencies. */
  private DeviceFit fitKernels(CalibrationRecords.DeviceRun run, List<String> notes, double launchOverride) {
    DeviceModel baseDevice = baseDeviceFor(run.device(), notes);
    SimGraph sg = SimGraph.build(graph, base, costModel);
    List<Double> times = new ArrayList<>();
    List<OpCost> costs = new ArrayList<>();
    int unmatched = 0;
    // Several records may name one node (e.g. a HETERO run's sub-models): sum them per node.
    Map<Integer, Double> perNode = new LinkedHashMap<>();
    for (ProfilingRecord r : run.records()) {
      if (!r.executed() || r.realTimeMicros() <= 0) {
        continue;
      }
      int v = graph.indexOf(r.nodeName());
      if (v < 0 || !sg.isCompute(v)) {
        unmatched++;
        continue;
      }
      perNode.merge(v, (double) r.realTimeMicros(), Double::sum);
    }
    for (Map.Entry<Integer, Double> e : perNode.entrySet()) {
      times.add(e.getValue());
      costs.add(sg.cost(e.getKey()));
    }
    double launch;
    if (times.isEmpty()) {
      launch = baseDevice.launchOverheadUs();
      notes.add(run.device() + ": no profiling record matches a node of the model; launch overhead and "
          + "efficiencies kept from " + base.name() + "/" + baseDevice.name());
    } else {
      double[] t = times.stream().mapToDouble(Double::doubleValue).toArray();
      launch = Double.isNaN(launchOverride) ? percentile(t, 0.10) : launchOverride;
    }
    Map<String, Double> efficiency = new LinkedHashMap<>(baseDevice.efficiency());
    List<String> fitted = new ArrayList<>();
    Map<OpClass, double[]> sums = new LinkedHashMap<>();
    for (int i = 0; i < times.size(); i++) {
      OpCost c = costs.get(i);
      if (c.flops() <= 0) {
        continue;
      }
      double[] s = sums.computeIfAbsent(c.opClass(), k -> new double[3]);
      s[0] += c.flops();
      s[1] += Math.max(times.get(i) - launch, 0.05 * times.get(i));
      s[2]++;
    }
    for (Map.Entry<OpClass, double[]> e : sums.entrySet()) {
      double[] s = e.getValue();
      if (s[2] < MIN_RECORDS_PER_CLASS) {
        continue;
      }
      double eff = s[0] / (baseDevice.peakGflops() * 1e3 * s[1]);
      if (!(eff >= MIN_EFFICIENCY && eff <= 1.0)) {
        // At a clamp the number says nothing about the class (memory-bound ops, or records covering fused
        // kernels whose FLOPs the class does not see): keep the base value and say so.
        notes.add(String.format(Locale.ROOT,
            "%s: %s efficiency %.4f from the records is outside [%.3f, 1]; kept %s's %.3f",
            run.device(), e.getKey().name(), eff, MIN_EFFICIENCY, base.name(), baseDevice.efficiencyOf(e.getKey())));
        continue;
      }
      efficiency.put(e.getKey().name(), eff);
      fitted.add(e.getKey().name());
    }
    return new DeviceFit(run.device(), run.fullName(), baseDevice.name(), launch, 0, efficiency, fitted,
        baseDevice.linkLatencyUs(), baseDevice.linkBandwidthGBs(), times.size(), unmatched);
  }

  private DeviceFit fitLink(DeviceFit f, DeviceProfile p1, CalibrationRecords records, List<String> notes) {
    if (f.device().equals("CPU")) {
      return withLink(f, 0, 0);
    }
    List<double[]> rows = new ArrayList<>();
    SimGraph sg = SimGraph.build(graph, p1, costModel);
    for (CalibrationRecords.SplitRun s : records.splits()) {
      if (!s.device().equals(f.device()) || p1.indexOf("CPU") < 0) {
        continue;
      }
      Placement split = splitPlacement(sg, s.device(), s.prefixKernels());
      double[] boundary = boundaryTensors(split);
      if (boundary[0] == 0) {
        continue;
      }
      double predicted = sg.evaluate(split.deviceOf(), deviceMap(p1, split.devices())).micros();
      // The profile still carries the base link cost: take it out to get the link-free prediction.
      DeviceModel cur = p1.device(f.device());
      double linkFree = predicted - (boundary[0] * cur.linkLatencyUs()
          + (cur.linkBandwidthGBs() > 0 ? boundary[1] / (cur.linkBandwidthGBs() * 1e3) : 0));
      rows.add(new double[] {boundary[0], boundary[1], s.latencyMillis() * 1000.0 - linkFree});
    }
    if (rows.isEmpty()) {
      notes.add(f.device() + ": no usable split run; link cost kept from " + base.name() + "/" + f.baseDevice());
      return f;
    }
    // Least squares without intercept: extra = count · latency + bytes · (1 / bandwidth).
    double cc = 0, cb = 0, bb = 0, ce = 0, be = 0;
    for (double[] r : rows) {
      cc += r[0] * r[0];
      cb += r[0] * r[1];
      bb += r[1] * r[1];
      ce += r[0] * r[2];
      be += r[1] * r[2];
    }
    double det = cc * bb - cb * cb;
    double latency;
    double inverseBandwidth;
    if (rows.size() >= 2 && Math.abs(det) > 1e-12 * cc * bb) {
      latency = (ce * bb - be * cb) / det;
      inverseBandwidth = (cc * be - cb * ce) / det;
    } else {
      latency = Double.NaN;
      inverseBandwidth = Double.NaN;
    }
    if (!(inverseBandwidth > 0) || !(latency >= 0)) {
      // Too few or too collinear splits: keep the base bandwidth and fit the latency alone.
      double bw = f.linkBandwidthGBs();
      double inv = bw > 0 ? 1.0 / (bw * 1e3) : 0;
      latency = Math.max(0, (ce - inv * cb) / cc);
      notes.add(f.device() + ": link bandwidth kept from " + base.name() + "/" + f.baseDevice()
          + " (split runs do not separate latency from bandwidth); latency fitted from " + rows.size() + " run(s)");
      return withLink(f, latency, bw);
    }
    return withLink(f, latency, 1.0 / (inverseBandwidth * 1e3));
  }

  private static DeviceFit withLink(DeviceFit f, double latencyUs, double bandwidthGBs) {
    return new DeviceFit(f.device(), f.fullName(), f.baseDevice(), f.launchOverheadUs(), f.subModelOverheadUs(),
        f.efficiency(), f.fittedClasses(), latencyUs, bandwidthGBs, f.matchedRecords(), f.unmatchedRecords());
  }

  /** The first {@code prefixKernels} kernels (topological order) on CPU, all else on {@code device}. */
  Placement splitPlacement(SimGraph sg, String device, int prefixKernels) {
    DeviceSet ds = DeviceSet.of("CPU", device);
    int[] d = new int[graph.nodeCount()];
    Arrays.fill(d, 1);
    int seen = 0;
    for (int v : graph.topologicalOrder()) {
      if (sg.isCompute(v)) {
        d[v] = seen++ < prefixKernels ? 0 : 1;
      }
    }
    return new HeteroAffinity(graph).resolvedPlacement(new Placement(ds, d));
  }

  /** {count, bytes} of distinct tensors crossing a device boundary (per producer output and target device). */
  double[] boundaryTensors(Placement p) {
    Set<String> seen = new HashSet<>();
    double count = 0;
    double bytes = 0;
    for (int k = 0; k < graph.edgeCount(); k++) {
      Edge e = graph.edge(k);
      int from = p.deviceOf(e.source());
      int to = p.deviceOf(e.target());
      if (from == to || !seen.add(e.source() + ":" + e.sourceOutput() + ":" + to)) {
        continue;
      }
      Port t = graph.edgeTensor(k);
      ElementType type = t.elementType() == null || t.elementType().bitWidth() == 0 ? ElementType.F32 : t.elementType();
      count++;
      bytes += type.byteSize(sized.edgeElements(k));
    }
    return new double[] {count, bytes};
  }

  private static double evaluateAllOn(SimGraph sg, DeviceProfile p, String device) {
    int[] deviceOf = new int[sg.graph().nodeCount()];
    return sg.evaluate(deviceOf, new int[] {p.indexOf(device)}).micros();
  }

  private static int[] deviceMap(DeviceProfile p, DeviceSet ds) {
    int[] m = new int[ds.size()];
    for (int i = 0; i < m.length; i++) {
      m[i] = p.indexOf(ds.name(i));
    }
    return m;
  }

  private DeviceModel baseDeviceFor(String device, List<String> notes) {
    int i = base.indexOf(device);
    if (i >= 0) {
      return base.devices().get(i);
    }
    String family = device.contains(".") ? device.substring(0, device.indexOf('.')) : device;
    for (DeviceModel d : base.devices()) {
      if (d.name().toUpperCase(Locale.ROOT).startsWith(family.toUpperCase(Locale.ROOT))) {
        notes.add(device + ": peak FLOP/s and bandwidth taken from " + base.name() + "/" + d.name());
        return d;
      }
    }
    DeviceModel d = base.devices().get(0);
    notes.add(device + ": no similar device in " + base.name() + "; peak FLOP/s and bandwidth taken from " + d.name());
    return d;
  }

  /**
   * The one conversion from fitted values to the simulator's profile format: fitted devices in
   * record order, everything not fitted (peak, bandwidth, unsupported ops, dynamic-shape support,
   * fusion, request overhead) from the base profile.
   */
  public DeviceProfile toProfile(String name, String description, List<String> sources, Result fit) {
    List<DeviceModel> devices = new ArrayList<>();
    Map<String, DeviceModel> byName = new HashMap<>();
    for (DeviceModel d : base.devices()) {
      byName.put(d.name(), d);
    }
    for (DeviceFit f : fit.devices()) {
      DeviceModel b = byName.getOrDefault(f.device(), byName.get(f.baseDevice()));
      devices.add(new DeviceModel(f.device(), f.fullName(), b.kind(), b.peakGflops(), b.memoryBandwidthGBs(),
          f.launchOverheadUs(), f.subModelOverheadUs(), f.linkLatencyUs(), f.linkBandwidthGBs(), f.efficiency(),
          b.unsupportedOps(), b.dynamicShapes(), b.fusion()).withMemory(b.memory()).withAloneScale(f.aloneScale()));
    }
    double request = Double.isNaN(fit.requestOverheadUs()) ? base.requestOverheadUs() : fit.requestOverheadUs();
    return new DeviceProfile(name, description, sources, request, devices);
  }

  private static double percentile(double[] x, double q) {
    double[] c = x.clone();
    Arrays.sort(c);
    int i = (int) Math.floor(q * (c.length - 1));
    return c[i];
  }

  private static String fmt(double us) {
    return String.format(Locale.ROOT, "%.1f", us);
  }
}
