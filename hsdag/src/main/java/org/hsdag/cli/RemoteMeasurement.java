package org.hsdag.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;

/**
 * Measuring on other machines ({@code --cluster}), found with {@link java.util.ServiceLoader} so that
 * a single-machine run loads none of it: the {@code cluster} module implements it.
 */
public interface RemoteMeasurement {
  /**
   * What a fleet needs to measure a run's placements as this machine would.
   *
   * @param seedNode HOST:PORT of a cluster member to join
   * @param label the hardware label workers must carry ({@code hw=NAME}), or null for any worker
   * @param tlsDir this member's key store, trust store and password ({@code hsdag cluster init})
   * @param bindHost the only address this member listens on
   * @param taskTimeout how long one measurement may take before it is given to another worker
   * @param workerWait how long to wait for a fitting worker (at the start, and whenever none is left)
   * @param minWorkers how many fitting workers to wait for before the first measurement
   * @param modelSha256 the model file's content hash: a worker without that model refuses the task
   * @param seed the run seed, which keys the simulator's noise on the workers too
   * @param inputShape the {@code --input-shape} as given, or null
   * @param notes one-line progress and per-worker activity
   * @param workersFile where to write how many measurements each worker did (null: nowhere)
   */
  record Request(String seedNode, String label, Path tlsDir, String bindHost, Duration taskTimeout, Duration workerWait,
      int minWorkers,
      String modelSha256,
      long seed, String inputShape, Consumer<String> notes, Path workersFile) {}

  /**
   * A backend that measures {@code graph} on the fleet's workers and answers everything else
   * (devices, support, cost model) from {@code local}; closing it leaves the cluster.
   *
   * @throws UserInputException when the cluster cannot be joined or has no fitting worker
   */
  LatencyBackend connect(Request request, LatencyBackend local, OpGraph graph);
}
