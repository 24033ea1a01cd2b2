package org.hsdag.cluster;

import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;

/**
 * What crosses the wire between members: plain records, serialised as JSON by {@link JsonSerializer},
 * which accepts exactly the records listed in {@link #ALLOWED}. No code, no Java serialization, no
 * model file: a task names the model by content hash and carries the placement as device names.
 */
public sealed interface WireMessage {
  /** Every class {@link JsonSerializer} reads or writes, by its manifest (the short name). */
  List<Class<? extends WireMessage>> ALLOWED = List.of(MeasureTask.class, TaskDone.class);

  /**
   * One placement to time, sent to one worker.
   *
   * @param taskId unique within the coordinator, with the attempt
   * @param attempt 1 for the first try, up to {@link Coordinator#MAX_TRIES}
   * @param replyTo the coordinator's actor reference in Pekko's serialised form (a worker answers it only when it
   *     is on a cluster member with the coordinator role)
   * @param token a random number fresh for this try: the answer must carry it, so only the worker the try was
   *     sent to (over mutually authenticated TLS) can answer it
   * @param modelSha256 SHA-256 of the model's IR file: a worker without that model refuses
   * @param backend backend name the coordinator measures with (the worker's must match)
   * @param profile backend profile (the worker's must match)
   * @param seed the run seed (the simulator's noise is drawn from it and {@code key})
   * @param inputShape the run's {@code --input-shape}, or null
   * @param devices the placement's devices, in order
   * @param deviceOf per node, an index into {@code devices}
   * @param key the measurement's noise key
   * @param protocol how to time it
   */
  @SuppressWarnings("ArrayRecordComponent") // copied in and out, so never shared; not compared by value (a wire message)
  record MeasureTask(long taskId, int attempt, String replyTo, long token, String modelSha256, String backend,
      String profile,
      long seed, String inputShape, List<String> devices, int[] deviceOf, long key, MeasurementProtocol protocol)
      implements
        WireMessage,
        Worker.Command {
    public MeasureTask {
      devices = List.copyOf(devices);
      deviceOf = deviceOf.clone();
    }

    /** A task with no id yet, filled in by the coordinator when it sends it. */
    static MeasureTask prototype(String modelSha256, String backend, String profile, long seed, String inputShape,
        List<String> devices, int[] deviceOf, long key, MeasurementProtocol protocol) {
      return new MeasureTask(0, 0, "", 0, modelSha256, backend, profile, seed, inputShape, devices, deviceOf, key,
          protocol);
    }

    /** This task as try {@code attempt} with id {@code id} and {@code token}, answered to {@code replyTo}. */
    MeasureTask sent(long id, int attempt, String replyTo, long token) {
      return new MeasureTask(id, attempt, replyTo, token, modelSha256, backend, profile, seed, inputShape, devices,
          deviceOf,
          key,
          protocol);
    }

    @Override
    public int[] deviceOf() {
      return deviceOf.clone();
    }
  }

  /**
   * A worker's answer: a measurement (failed ones included) or a refusal.
   *
   * @param taskId the task's id
   * @param attempt the task's attempt
   * @param token the try's token, copied from the task
   * @param worker the worker's name (label and address)
   * @param measurement the measurement, or null when refused
   * @param refusal why this worker will not measure the task (other model, devices or backend), or null
   */
  record TaskDone(long taskId, int attempt, long token, String worker, Measurement measurement, String refusal)
      implements
        WireMessage,
        Coordinator.Command {}
}
