package org.hsdag.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;
import org.hsdag.placement.Placement;
import org.hsdag.random.SplitMix64;
import org.hsdag.search.Checkpointable;
import org.hsdag.search.SequentialStrategy;
import org.hsdag.search.SearchContext;

/**
 * Random search: every operation gets a device drawn uniformly from the devices the backend says
 * can run it. Constants (with their decompression chains) and Parameters take the device of their
 * earliest consumer and Results the device of their producer ({@link HeteroRules}), as HETERO would make them anyway (a lone Constant on another device
 * only adds a transfer), so every draw is a placement worth measuring.
 *
 * <p>Proposal {@code i} draws from a generator seeded by (seed, i) alone, so the whole state is the
 * proposal counter: checkpoints are tiny and resume is exact.
 */
public final class RandomSearchStrategy implements SequentialStrategy, Checkpointable {
  private static final String STATE_FILE = "random-search.json";

  private SearchContext context;
  private int[][] allowed;
  private int[] followOrder;
  private int[] followSource;
  private long proposals;

  @Override
  public String name() {
    return "random";
  }

  @Override
  public void init(SearchContext context) {
    this.context = context;
    OpGraph g = context.graph();
    SupportMatrix support = context.support();
    int devices = context.devices().size();
    allowed = new int[g.nodeCount()][];
    for (int v = 0; v < g.nodeCount(); v++) {
      int count = Long.bitCount(support.mask(v) & ((1L << devices) - 1));
      if (count == 0) {
        // No device can run it: propose any, the backend reports the failure with its reason.
        allowed[v] = new int[devices];
        for (int d = 0; d < devices; d++) {
          allowed[v][d] = d;
        }
        continue;
      }
      allowed[v] = new int[count];
      int k = 0;
      for (int d = 0; d < devices; d++) {
        if (support.allowed(v, d)) {
          allowed[v][k++] = d;
        }
      }
    }
    planFollowers(g);
    proposals = 0;
  }

  /** Constants, constant chains and Parameters follow their earliest consumer, Results their producer ({@link HeteroRules}). */
  private void planFollowers(OpGraph g) {
    HeteroRules rules = new HeteroRules(g);
    followSource = new int[g.nodeCount()];
    for (int v = 0; v < followSource.length; v++) {
      followSource[v] = rules.leader(v);
    }
    followOrder = rules.followers();
  }

  @Override
  public Placement propose() {
    if (context == null) {
      throw new IllegalStateException("init() must be called before propose()");
    }
    SplittableRandom rng = new SplittableRandom(mix(context.seed(), proposals));
    proposals++;
    int n = allowed.length;
    int[] deviceOf = new int[n];
    for (int v = 0; v < n; v++) {
      int[] a = allowed[v];
      deviceOf[v] = a.length == 1 ? a[0] : a[rng.nextInt(a.length)];
    }
    for (int v : followOrder) {
      int target = deviceOf[followSource[v]];
      if (context.support().allowed(v, target)) {
        deviceOf[v] = target;
      }
    }
    return new Placement(context.devices(), deviceOf);
  }

  @Override
  public void observe(Placement placement, Measurement measurement) {
    // Random search does not learn.
  }

  @Override
  public void saveState(Path dir) throws IOException {
    AtomicFiles.writeString(dir.resolve(STATE_FILE),
        "{\"seed\": " + context.seed() + ", \"proposals\": " + proposals + "}\n");
  }

  @Override
  public void restoreState(Path dir) throws IOException {
    JsonNode state = new ObjectMapper().readTree(Files.readAllBytes(dir.resolve(STATE_FILE)));
    if (state.path("seed").asLong() != context.seed()) {
      throw new IOException("checkpoint was written with seed " + state.path("seed").asLong()
          + ", this run uses " + context.seed());
    }
    proposals = state.path("proposals").asLong();
  }

  /** Proposals made so far (the whole search state). */
  public long proposals() {
    return proposals;
  }

  private static long mix(long seed, long index) {
    // Independent streams per proposal.
    return SplitMix64.stream(seed, index);
  }
}
