/**
 * JMH micro-benchmarks and the policy-step benchmark main. Leaf package: nothing depends on it.
 */
package org.hsdag.bench.jmh;
