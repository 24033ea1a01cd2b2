package org.hsdag.throughput;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import org.hsdag.cost.CostTerms;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.ThroughputGain;

/**
 * One inference of a placement as the stages HETERO's asynchronous request runs: one stage per
 * sub-model, in topological order, each on its device and taking its kernels (fusion inside the
 * sub-model), its start cost and the boundary copies over its device's link (copies out of the
 * sub-model and into it), plus a per-request host overhead that occupies no device.
 *
 * <p>OpenVINO's HETERO request keeps one sub-request per compiled sub-model, orders sub-models
 * topologically and chains them into an asynchronous pipeline, each stage starting its sub-request
 * and continuing in its callback; the tensors between sub-models are host tensors shared by the
 * producing and consuming sub-requests (openvinotoolkit/openvino, src/plugins/hetero/src/
 * async_infer_request.cpp, sync_infer_request.cpp and compiled_model.cpp "Get subgraphs sorted
 * topologically", read at commits 5a50d5d0 and 061aae26). So a copy is part of the sub-request of
 * the device it leaves or enters, and the same stage costs as {@link HeteroCostModel#evaluate} adds
 * up, grouped by sub-model: the stages and the overhead sum to its latency.
 *
 * <p>A stage's device is the hardware that runs it: a test device (the CPU plugin registered again
 * under a name such as {@code CPU2}, {@code org.hsdag.backend.TestDevice}) runs on the CPU's own
 * cores, so its stages queue on the CPU. Measured (docs/real-throughput.md): a CPU/CPU2 split of
 * resnet50 did not pipeline; its throughput stayed at or below its latency's inverse, where two
 * independent servers had predicted almost twice that. The runtime's reason: HETERO compiles every
 * sub-model of a split with {@code ov::internal::exclusive_async_requests} (src/plugins/hetero/src/
 * compiled_model.cpp, {@code compile_model}), and the CPU plugin then runs all its requests on the one
 * process-wide executor named {@code "CPU"} (src/plugins/intel_cpu/src/compiled_model.cpp; src/inference/
 * src/dev/threading/executor_manager.cpp {@code get_executor}) — one queue for the CPU's and every CPU
 * twin's sub-requests, and no streams inside a split.
 *
 * <p>A placement that is not split (one stage) is what the device's plugin compiles alone: with the
 * throughput hint the CPU plugin runs several streams, so the stage carries its device's measured
 * {@linkplain #gain gain from requests in flight} ({@link ThroughputGain}), empty when the
 * profile has none.
 */
public final class PipelineStages {
  private final int[] device;
  private final double[] micros;
  private final double requestMicros;
  private final List<Double> gain;

  /** Stages without a gain from requests in flight (each device one request at a time). */
  public PipelineStages(int[] device, double[] micros, double requestMicros) {
    this(device, micros, requestMicros, List.of());
  }

  /**
   * @param device model device of each stage, in run order
   * @param micros time of each stage, µs
   * @param requestMicros the per-request overhead (host side), µs
   * @param gain the device's gain from requests in flight when there is one stage ({@link
   *     org.hsdag.cost.ThroughputGain}); empty: none (and always for a split)
   */
  public PipelineStages(int[] device, double[] micros, double requestMicros, List<Double> gain) {
    device = device.clone();
    micros = micros.clone();
    if (device.length != micros.length) {
      throw new IllegalArgumentException(device.length + " stage devices for " + micros.length + " stage times");
    }
    for (double m : micros) {
      if (!(m >= 0) || Double.isInfinite(m)) {
        throw new IllegalArgumentException("stage times must be finite and >= 0 (got " + m + ")");
      }
    }
    if (!(requestMicros >= 0) || Double.isInfinite(requestMicros)) {
      throw new IllegalArgumentException("request overhead must be finite and >= 0 (got " + requestMicros + ")");
    }
    gain = ThroughputGain.checked("of the stage", gain);
    if (!gain.isEmpty() && device.length != 1) {
      throw new IllegalArgumentException("a gain from requests in flight applies to one stage (got " + device.length
          + ")");
    }
    this.device = device;
    this.micros = micros;
    this.requestMicros = requestMicros;
    this.gain = gain;
  }

  /**
   * The gain from requests in flight of the one device that runs an unsplit placement, as its profile
   * measured it; empty for a split or when not measured.
   */
  public List<Double> gain() {
    return gain;
  }

  public int[] device() {
    return device.clone();
  }

  public double[] micros() {
    return micros.clone();
  }

  public int size() {
    return device.length;
  }

  public int device(int stage) {
    return device[stage];
  }

  public double micros(int stage) {
    return micros[stage];
  }

  /** One inference alone: every stage one after another, plus the request overhead, µs. */
  public double latencyMicros() {
    double total = requestMicros;
    for (double m : micros) {
      total += m;
    }
    return total;
  }

  /** Busy time per device of one inference, µs, indexed by model device ({@code devices} entries). */
  public double[] deviceLoads(int devices) {
    double[] load = new double[devices];
    for (int s = 0; s < device.length; s++) {
      load[device[s]] += micros[s];
    }
    return load;
  }

  /** The stages of {@code deviceOfOp} on {@code model} (device support is not checked). */
  public static PipelineStages of(HeteroCostModel model, int[] deviceOfOp) {
    int nc = model.opCount();
    int[] root = new int[nc];
    model.subModels(deviceOfOp, root);
    CostTerms terms = model.terms(deviceOfOp);
    // Stage index of each sub-model root, in HETERO's (topological) order.
    int[] stageOfRoot = order(model, root);
    int stages = 0;
    for (int s : stageOfRoot) {
      stages = Math.max(stages, s + 1);
    }
    int[] dev = new int[stages];
    double[] time = new double[stages];
    int[] server = servers(model.deviceNames());
    int[] kernelSubModels = new int[model.deviceCount()];
    for (int i = 0; i < nc; i++) {
      int s = stageOfRoot[root[i]];
      time[s] += terms.opMicros(i);
      if (root[i] == i) {
        dev[s] = server[deviceOfOp[i]];
        time[s] += model.subModelOverhead(deviceOfOp[i]);
        kernelSubModels[deviceOfOp[i]]++;
      }
    }
    addCopies(model, deviceOfOp, root, stageOfRoot, time);
    // Sub-models without a kernel (a Result cut from its producer) come last: they only pay their start.
    List<int[]> extraDev = new ArrayList<>();
    for (int d = 0; d < kernelSubModels.length; d++) {
      for (int k = kernelSubModels[d]; k < terms.subModels(d); k++) {
        extraDev.add(new int[] {d});
      }
    }
    int[] allDev = Arrays.copyOf(dev, stages + extraDev.size());
    double[] allTime = Arrays.copyOf(time, stages + extraDev.size());
    for (int k = 0; k < extraDev.size(); k++) {
      allDev[stages + k] = server[extraDev.get(k)[0]];
      allTime[stages + k] = model.subModelOverhead(extraDev.get(k)[0]);
    }
    List<Double> gain = List.of();
    if (allDev.length == 1 && nc > 0) {
      // Unsplit: the stage's own device (not the server it queues on) compiled alone, with its streams.
      gain = model.device(deviceOfOp[0]).throughputGain();
    }
    return new PipelineStages(allDev, allTime, terms.requestMicros(), gain);
  }

  /**
   * The device whose hardware runs each device: itself, or for a test device (a name that contains
   * {@code CPU} and is not {@code CPU}, the only names OpenVINO's CPU plugin can be registered under
   * again) the {@code CPU} when the model has one.
   */
  static int[] servers(List<String> names) {
    int cpu = names.indexOf("CPU");
    int[] server = new int[names.size()];
    for (int d = 0; d < server.length; d++) {
      String n = names.get(d);
      server[d] = cpu >= 0 && !n.equals("CPU") && n.contains("CPU") && !n.contains(".") ? cpu : d;
    }
    return server;
  }

  /** Stage number per op index that is a sub-model root (others -1): sub-models in topological order, earliest root first. */
  private static int[] order(HeteroCostModel model, int[] root) {
    int nc = root.length;
    int[] indegree = new int[nc];
    List<List<Integer>> next = new ArrayList<>(nc);
    for (int i = 0; i < nc; i++) {
      next.add(null);
    }
    for (int i = 0; i < nc; i++) {
      for (int k = 0; k < model.predecessorCount(i); k++) {
        int from = root[model.predecessor(i, k)];
        int to = root[i];
        if (from != to) {
          if (next.get(from) == null) {
            next.set(from, new ArrayList<>());
          }
          next.get(from).add(to);
          indegree[to]++;
        }
      }
    }
    int[] stage = new int[nc];
    Arrays.fill(stage, -1);
    PriorityQueue<Integer> ready = new PriorityQueue<>();
    for (int i = 0; i < nc; i++) {
      if (root[i] == i && indegree[i] == 0) {
        ready.add(i);
      }
    }
    int count = 0;
    while (!ready.isEmpty()) {
      int r = ready.poll();
      stage[r] = count++;
      if (next.get(r) != null) {
        for (int to : next.get(r)) {
          if (--indegree[to] == 0) {
            ready.add(to);
          }
        }
      }
    }
    return stage;
  }

  /**
   * Boundary copies by sub-model, as {@link HeteroCostModel#evaluate} charges them: a tensor leaves
   * its producer's sub-model once when another sub-model or a Result needs it, and enters each
   * other consumer sub-model once.
   */
  private static void addCopies(HeteroCostModel model, int[] dc, int[] root, int[] stageOfRoot, double[] time) {
    int[] stamp = new int[root.length];
    for (int t = 0; t < model.tensorCount(); t++) {
      int p = model.tensorProducer(t);
      int pr = p >= 0 ? root[p] : -1;
      double bytes = model.tensorBytes(t);
      boolean crossed = false;
      for (int k = 0; k < model.tensorConsumerCount(t); k++) {
        int c = model.tensorConsumer(t, k);
        int cr = root[c];
        if (cr != pr && stamp[cr] != t + 1) {
          stamp[cr] = t + 1;
          time[stageOfRoot[cr]] += model.copyMicros(dc[c], bytes);
          crossed = true;
        }
      }
      if (p >= 0 && (crossed || model.tensorResults(t) > 0)) {
        time[stageOfRoot[pr]] += model.copyMicros(dc[p], bytes);
      }
    }
  }

  public double requestMicros() {
    return requestMicros;
  }
}
