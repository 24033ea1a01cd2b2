/**
 * The HSDAG placement policy (encoder, pooling, placer) and its configuration. Depends on
 * {@code gnn}, {@code features}, {@code parsing} and {@code coarsen}; the trainer, strategies and
 * benchmarks depend on it.
 */
package org.hsdag.policy;
