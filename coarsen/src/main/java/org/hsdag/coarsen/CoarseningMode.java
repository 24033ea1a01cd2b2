package org.hsdag.coarsen;

/**
 * The co-location rule applied before the policy sees a graph. {@link #MIRHOSEINI}: an op whose
 * output has exactly one consumer joins that consumer (Mirhoseini et al. 2017, as in Baechi).
 * {@link #HSDAG}: an op with exactly one producer joins that producer (the HSDAG public code).
 * {@link #NONE}: no rule. In every mode constants and Parameters then follow their consumer.
 */
public enum CoarseningMode {
  MIRHOSEINI, HSDAG, NONE
}
