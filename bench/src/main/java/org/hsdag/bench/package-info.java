/** Baselines, experiment runner, reports and JMH micro-benchmarks; this module also assembles the CLI classpath. */
package org.hsdag.bench;
