/**
 * The paper's node features (op-type one-hot, degrees, fractal dimension, topological-index encoding,
 * output shapes) as a feature matrix, each group switchable for the ablations. Depends on
 * {@code coarsen} and {@code ir}; the policy and strategies depend on it.
 */
package org.hsdag.features;
