/**
 * Planner and warm-start experiments on the simulator, the {@code bench} subcommands {@code
 * planner-figures}, {@code warm-start} and {@code planner-speed} (figures printed for the README),
 * with their shared option mixins. Only the bench command depends on this package.
 */
package org.hsdag.bench.plan;
