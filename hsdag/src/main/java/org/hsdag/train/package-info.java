/**
 * REINFORCE training of the policy: the trainer, reward models and baselines. Depends on
 * {@code policy}, {@code gnn}, {@code search} and {@code backend}; strategies depend on it.
 */
package org.hsdag.train;
