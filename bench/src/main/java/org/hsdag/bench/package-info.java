/**
 * The {@code hsdag bench} command: baselines, experiment runner, reports and micro-benchmarks; this
 * module also assembles the CLI classpath. Top of the dependency order: nothing depends on bench.
 */
package org.hsdag.bench;
