package org.hsdag.search;

/**
 * Counters of a running search, for progress displays and logs.
 *
 * @param steps proposals processed (cache hits included)
 * @param measurements distinct placements measured (what the budget counts)
 * @param cacheHits proposals answered from the cache
 * @param failures measurements that failed
 * @param bestMillis best latency of the search so far (NaN if none)
 */
public record SearchProgress(int steps, int measurements, int cacheHits, int failures, double bestMillis) {}
