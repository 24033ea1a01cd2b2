package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.ir.OpGraph;

/**
 * The OpenVINO backend's {@link ProfileDatabaseUser}: the database set, and what each graph's build took from it.
 * Synchronized on itself: the backend's builds ask it from under their own lock.
 */
final class ProfileDatabaseUse implements ProfileDatabaseUser {
  private final int deviceCount;
  private ProfileDatabase db;
  private boolean fresh;
  private Consumer<String> notices = s -> {};
  private final Map<OpGraph, KernelRecords> records = new HashMap<>();
  private final Map<OpGraph, ProfileReuse> whole = new HashMap<>();

  ProfileDatabaseUse(int deviceCount) {
    this.deviceCount = deviceCount;
  }

  @Override
  public synchronized void useProfileDatabase(ProfileDatabase database, boolean freshProfile, Consumer<String> sink) {
    this.db = database;
    this.fresh = freshProfile;
    this.notices = sink;
  }

  /** {@code graph}'s build's use of the database on this runtime and these devices; null when none is set. */
  synchronized KernelRecords records(OpGraph graph, String runtimeVersion, List<DeviceInfo> devices,
      OpenVinoOptions options) {
    if (db == null) {
      return null;
    }
    List<ProfileContext> contexts = new ArrayList<>();
    String processor = ProfileContext.processor();
    for (int d = 0; d < devices.size(); d++) {
      contexts.add(ProfileContext.of(runtimeVersion, devices, d, options.testDevices(), options.inputShapes(),
          processor));
    }
    KernelRecords r = new KernelRecords(db, fresh, contexts, notices);
    records.put(graph, r);
    return r;
  }

  @Override
  public synchronized Optional<ProfileReuse> profileReuse(OpGraph graph) {
    KernelRecords r = records.get(graph);
    return r != null ? Optional.of(r.reuse()) : Optional.ofNullable(whole.get(graph));
  }

  @Override
  public synchronized void reusedWhole(OpGraph graph, String database) {
    whole.put(graph, new ProfileReuse(graph.nodeCount() * deviceCount, 0, false, database));
  }
}
