package org.hsdag.strategy;

import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.coarsen.Coarsening;
import org.hsdag.coarsen.ColocationCoarsener;
import org.hsdag.coarsen.Quotients;
import org.hsdag.features.FeatureExtractor;
import org.hsdag.features.FeatureMatrix;
import org.hsdag.io.AtomicFiles;
import org.hsdag.io.DataArrays;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.policy.HsdagPolicy;
import org.hsdag.train.ReinforceTrainer;
import org.hsdag.search.Checkpointable;
import org.hsdag.search.FailurePenalty;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HSDAG as an ask–tell {@link SearchStrategy}: co-location coarsening and features once per
 * graph, then an {@link HsdagPolicy} trained online by {@link ReinforceTrainer} from each
 * observed measurement. A batch is the rest of the current episode (up to the limit): the state
 * refinement does not depend on rewards, so an episode can be proposed before it is measured. Proposals place every op through coarse node → parsed cluster → device.
 * Devices the backend cannot run an op on are never proposed when the op can run elsewhere: the
 * policy masks each cluster to its members' common devices, and an op whose cluster had none in
 * common is moved to its own first supported device (in device priority order). In a cold start,
 * the {@link ColdStartMoves} run between episodes: each single-device placement first, then after
 * each episode {@link HsdagConfig#segmentMoves()} segment moves around the placement a latency model
 * fitted to the run's measurements ranks fastest; they do not train the policy, whose REINFORCE
 * updates stay on its own samples, and the model's ranking names the strategy's {@link
 * #favourites}. Close the strategy to free its native memory.
 */
public final class HsdagStrategy implements SearchStrategy, Checkpointable, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HsdagStrategy.class);
  // Names the source of pre-training "measurements", which are cost-model estimates.
  private static final String PROXY_BACKEND = "proxy";
  private static final String SEGMENT_FILE = "hsdag-segments.bin";
  private static final int SEGMENT_FORMAT = 2;

  private final HsdagConfig config;
  private SearchContext context;
  private Coarsening coarsening;
  private NDManager manager;
  private HsdagPolicy policy;
  private ReinforceTrainer trainer;
  private final ArrayDeque<Placement> proposed = new ArrayDeque<>();
  private int lastClusterCount;
  // Coarse placements asked and not yet told, oldest first; the policy's own and segment moves.
  private final ArrayDeque<Asked> asked = new ArrayDeque<>();
  // Null in a warm start, without segment moves or for a graph too large for a latency model.
  private ColdStartMoves cold;
  private long seed;

  private static final class Asked {
    private final int[] deviceOf;
    private final boolean fromPolicy;

    Asked(int[] deviceOf, boolean fromPolicy) {
      this.deviceOf = deviceOf;
      this.fromPolicy = fromPolicy;
    }
  }

  public HsdagStrategy(HsdagConfig config) {
    this.config = config;
  }

  public HsdagStrategy() {
    this(HsdagConfig.defaults());
  }

  @Override
  public String name() {
    return config.paperFaithful() ? "hsdag-paper" : "hsdag";
  }

  public HsdagConfig config() {
    return config;
  }

  @Override
  public void init(SearchContext context) {
    init(context, true);
  }

  /**
   * {@link #init(SearchContext)}, with segment moves only when {@code segmentMoves} (and the
   * configuration has them): a warm start turns them off, because its planner has already placed
   * the run boundaries on the cost model.
   */
  public void init(SearchContext context, boolean segmentMoves) {
    close();
    this.context = context;
    proposed.clear();
    asked.clear();
    if (config.torchThreads() > 0) {
      ai.djl.engine.Engine.getInstance(); // loads libtorch, which the JNI call needs
      JniUtils.setNumThreads(config.torchThreads());
    }
    seed = config.seed() != null ? config.seed() : context.seed();
    coarsening = new ColocationCoarsener(config.coarsening()).coarsen(context.graph());
    FeatureMatrix features = new FeatureExtractor(config.features()).extract(context.graph(), coarsening);
    long[] masks = coarseMasks(coarsening, context.support(), context.devices().size());
    int[] order = Quotients.orderCyclesLast(coarsening.quotient());
    int[] clusterOf = new int[coarsening.nodeCount()];
    Arrays.setAll(clusterOf, coarsening::clusterOf);
    cold = segmentMoves && config.segmentMoves() > 0 ? ColdStartMoves.create(coarsening.quotient(), order, masks,
        context.devices().size(), clusterOf, config.segmentMoves(), seed) : null;
    manager = NDManager.newBaseManager();
    policy = new HsdagPolicy(manager, config, coarsening.quotient(), features.values(), features.columns().size(),
        masks, context.devices().size(), seed);
    trainer = new ReinforceTrainer(manager, policy, config, seed);
    LOG.info("hsdag policy: {} ops -> {} coarse nodes ({}), {} features, {} parameters, seed {}",
        context.graph().nodeCount(), coarsening.clusterCount(), config.coarsening(), features.columns().size(),
        policy.parameters().size(), seed);
  }

  /** Per coarse node, the devices its ops may use ({@link SupportMatrix#groupMasks}). */
  public static long[] coarseMasks(Coarsening c, SupportMatrix support, int deviceCount) {
    int[] clusterOf = new int[c.nodeCount()];
    Arrays.setAll(clusterOf, c::clusterOf);
    return SupportMatrix.foldMasks(support.allowedMask(), clusterOf, c.clusterCount(), deviceCount);
  }

  private void requireInit() {
    if (trainer == null) {
      throw new IllegalStateException("init() first");
    }
  }

  @Override
  public List<Placement> ask(int limit) {
    requireInit();
    List<Placement> batch = new ArrayList<>();
    int[] move;
    while (cold != null && batch.size() < limit && (move = cold.poll()) != null) {
      asked.addLast(new Asked(move, false));
      batch.add(lift(move));
    }
    if (!batch.isEmpty()) {
      return batch;
    }
    int n = Math.min(limit, trainer.openSteps());
    for (int i = 0; i < n; i++) {
      int[] perCoarse = sample();
      asked.addLast(new Asked(perCoarse, true));
      if (cold != null) {
        cold.asked(perCoarse);
      }
      batch.add(proposed.peekLast());
    }
    return batch;
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    for (int i = 0; i < batch.size(); i++) {
      Asked a = asked.pollFirst();
      Measurement m = results.get(i);
      if (a == null) {
        throw new IllegalStateException("told more placements than were asked");
      }
      if (cold != null && FailurePenalty.usable(m)) {
        cold.observe(a.deviceOf, m.latencySeconds() * 1000);
      }
      if (a.fromPolicy) {
        observe(batch.get(i), m);
        if (cold != null && trainer.openSteps() == config.stepsPerUpdate() && proposed.isEmpty()) {
          cold.queueSegmentMoves(); // after an episode
        }
      }
    }
  }

  /** In a cold start, the measured placements the latency model fitted to all measurements ranks fastest. */
  @Override
  public List<Placement> favourites(int k) {
    requireInit();
    List<Placement> out = new ArrayList<>();
    if (cold != null) {
      for (int[] perCoarse : cold.favourites(k)) {
        out.add(lift(perCoarse));
      }
    }
    return out;
  }

  private Placement lift(int[] perCoarse) {
    return repair(coarsening.lift(context.devices(), perCoarse), context.support());
  }

  /** One proposal (the next step of the episode). */
  public Placement propose() {
    requireInit();
    sample();
    return proposed.peekLast();
  }

  /** Samples the next step of the episode, queues its placement in {@code proposed} and returns its device per coarse node. */
  private int[] sample() {
    HsdagPolicy.Decision d = trainer.propose();
    lastClusterCount = d.clusterCount();
    int[] perCoarse = new int[coarsening.clusterCount()];
    int[] clusterOf = d.clusterOf();
    int[] devices = d.devicePerCluster();
    for (int v = 0; v < perCoarse.length; v++) {
      perCoarse[v] = devices[clusterOf[v]];
    }
    proposed.addLast(lift(perCoarse));
    return perCoarse;
  }

  /**
   * Trains the policy for {@code episodes} episodes against {@code proxy}'s latency instead of
   * measurements (the paper's REINFORCE, reward 1/latency): the measured phase then starts from a
   * policy that already prefers what the cost model ranks well, and only corrects its errors.
   *
   * @return the proxy latency in ms of the last episode's best sample (NaN when none ran)
   */
  public double pretrainOnProxy(PlacementProxy proxy, int episodes) {
    requireInit();
    if (!proposed.isEmpty() || trainer.openSteps() != config.stepsPerUpdate()) {
      throw new IllegalStateException("pre-training starts between episodes");
    }
    double lastBest = Double.NaN;
    for (int e = 0; e < episodes; e++) {
      double best = Double.POSITIVE_INFINITY;
      for (int i = config.stepsPerUpdate(); i > 0; i--) {
        Placement p = propose();
        proposed.pollLast();
        double ms = proxy.latencyMicros(p) / 1000.0;
        best = Math.min(best, ms);
        trainer.observe(Double.isFinite(ms)
            ? new Measurement(true, new double[] {ms}, ms, ms, ms, 0, null, PROXY_BACKEND, "cost model")
            : Measurement.failed("the cost model cannot run it", PROXY_BACKEND, "cost model"));
      }
      lastBest = best;
    }
    // Self-imitation follows measurements only: the cost model's favourite is not one.
    trainer.forgetBest();
    LOG.info("hsdag policy pre-trained on the cost model: {} episodes, last episode's best {} ms", episodes, lastBest);
    return lastBest;
  }

  /** Moves each op placed on a device it cannot run to its first supported device, if any. */
  public static Placement repair(Placement p, SupportMatrix support) {
    int[] deviceOf = p.deviceOf();
    boolean changed = false;
    for (int v = 0; v < deviceOf.length; v++) {
      long mask = support.mask(v);
      if (!support.allowed(v, deviceOf[v]) && mask != 0) {
        deviceOf[v] = Long.numberOfTrailingZeros(mask);
        changed = true;
      }
    }
    return changed ? new Placement(p.devices(), deviceOf) : p;
  }

  /** The measurement of the oldest proposal not yet observed. */
  public void observe(Placement placement, Measurement measurement) {
    requireInit();
    Placement expected = proposed.pollFirst();
    if (expected != null && !expected.equals(placement)) {
      LOG.warn("observed a placement other than the one proposed; crediting the proposal");
    }
    trainer.observe(measurement);
  }

  @Override
  public void saveState(Path dir) throws IOException {
    requireInit();
    if (!asked.isEmpty()) {
      throw new IllegalStateException("save between batches: " + asked.size() + " placements are not told yet");
    }
    trainer.save(dir);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ColdStartMoves.State state = cold == null ? ColdStartMoves.State.EMPTY : cold.state();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(SEGMENT_FORMAT);
      out.writeLong(state.rounds());
      writeAssignments(out, state.queued());
      writeAssignments(out, state.askedBefore());
      writeAssignments(out, state.observed());
      for (double v : state.observedMillis()) {
        out.writeDouble(v);
      }
    }
    AtomicFiles.writeBytes(dir.resolve(SEGMENT_FILE), bytes.toByteArray());
  }

  @Override
  public void restoreState(Path dir) throws IOException {
    requireInit();
    trainer.restore(dir);
    Path file = dir.resolve(SEGMENT_FILE);
    if (!Files.isRegularFile(file)) {
      return; // a checkpoint from before segment moves: the model starts from the measurements after it
    }
    try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
      int format = in.readInt();
      if (format != SEGMENT_FORMAT) {
        // Format 1 centred its moves on the fastest measured placement; the log replays the run instead.
        throw new IOException(
            file + ": segment-move state format " + format + ", this version reads " + SEGMENT_FORMAT);
      }
      long rounds = in.readLong();
      List<int[]> queued = readAssignments(in);
      List<int[]> before = readAssignments(in);
      List<int[]> observed = readAssignments(in);
      List<Double> millis = new ArrayList<>();
      for (int i = 0; i < observed.size(); i++) {
        millis.add(in.readDouble());
      }
      if (cold != null) {
        cold.restore(new ColdStartMoves.State(rounds, queued, before, observed, millis));
      }
    }
  }

  private static void writeAssignments(DataOutputStream out, List<int[]> assignments) throws IOException {
    out.writeInt(assignments.size());
    for (int[] a : assignments) {
      DataArrays.writeInts(out, a);
    }
  }

  private List<int[]> readAssignments(DataInputStream in) throws IOException {
    int count = in.readInt();
    List<int[]> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int[] a = DataArrays.readInts(in);
      if (a.length != coarsening.clusterCount()) {
        throw new IOException(
            "segment-move state is for " + a.length + " coarse nodes, this graph has " + coarsening.clusterCount());
      }
      out.add(a);
    }
    return out;
  }

  /** Number of parsed clusters in the last proposal (0 before any). */
  public int lastClusterCount() {
    return lastClusterCount;
  }

  /** The trainer (for statistics and tests); null before {@link #init}. */
  public ReinforceTrainer trainer() {
    return trainer;
  }

  /** The coarsening in use; null before {@link #init}. */
  public Coarsening coarsening() {
    return coarsening;
  }

  /** The devices of the context. */
  public DeviceSet devices() {
    return context.devices();
  }

  @Override
  public void close() {
    if (trainer != null) {
      trainer.close();
      trainer = null;
    }
    if (policy != null) {
      policy.close();
      policy = null;
    }
    if (manager != null) {
      manager.close();
      manager = null;
    }
  }
}
