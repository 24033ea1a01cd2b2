package org.hsdag.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A batch submitted to the {@link Coordinator}: its results as they arrive, and how many are still open. */
final class TaskBatch {
  final Coordinator.Result[] results;
  final CompletableFuture<List<Coordinator.Result>> done;
  int open;

  TaskBatch(int n, CompletableFuture<List<Coordinator.Result>> done) {
    results = new Coordinator.Result[n];
    this.done = done;
    open = n;
  }
}
