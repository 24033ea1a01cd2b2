package org.hsdag.strategy;

import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.coarsen.Coarsening;
import org.hsdag.coarsen.ColocationCoarsener;
import org.hsdag.features.FeatureExtractor;
import org.hsdag.features.FeatureMatrix;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.policy.HsdagPolicy;
import org.hsdag.train.ReinforceTrainer;
import org.hsdag.search.Checkpointable;
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
 * common is moved to its own first supported device (in device priority order). Close the
 * strategy to free its native memory.
 */
public final class HsdagStrategy implements SearchStrategy, Checkpointable, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HsdagStrategy.class);
  // Names the source of pre-training "measurements", which are cost-model estimates.
  private static final String PROXY_BACKEND = "proxy";

  private final HsdagConfig config;
  private SearchContext context;
  private Coarsening coarsening;
  private NDManager manager;
  private HsdagPolicy policy;
  private ReinforceTrainer trainer;
  private final ArrayDeque<Placement> proposed = new ArrayDeque<>();
  private int lastClusterCount;

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
    close();
    this.context = context;
    proposed.clear();
    if (config.torchThreads() > 0) {
      ai.djl.engine.Engine.getInstance(); // loads libtorch, which the JNI call needs
      JniUtils.setNumThreads(config.torchThreads());
    }
    long seed = config.seed() != null ? config.seed() : context.seed();
    coarsening = new ColocationCoarsener(config.coarsening()).coarsen(context.graph());
    FeatureMatrix features = new FeatureExtractor(config.features()).extract(context.graph(), coarsening);
    long[] masks = coarseMasks(coarsening, context.support(), context.devices().size());
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
    java.util.Arrays.setAll(clusterOf, c::clusterOf);
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
    int n = Math.min(limit, trainer.openSteps());
    List<Placement> batch = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      batch.add(propose());
    }
    return batch;
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    for (int i = 0; i < batch.size(); i++) {
      observe(batch.get(i), results.get(i));
    }
  }

  /** One proposal (the next step of the episode). */
  public Placement propose() {
    requireInit();
    HsdagPolicy.Decision d = trainer.propose();
    lastClusterCount = d.clusterCount();
    int[] perCoarse = new int[coarsening.clusterCount()];
    int[] clusterOf = d.clusterOf();
    int[] devices = d.devicePerCluster();
    for (int v = 0; v < perCoarse.length; v++) {
      perCoarse[v] = devices[clusterOf[v]];
    }
    Placement p = repair(coarsening.lift(context.devices(), perCoarse), context.support());
    proposed.addLast(p);
    return p;
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
    trainer.save(dir);
  }

  @Override
  public void restoreState(Path dir) throws IOException {
    requireInit();
    trainer.restore(dir);
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
