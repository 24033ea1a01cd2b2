/**
 * Every search strategy (HSDAG, planner, warm start, random, greedy, BRKGA, Placeto, RNN, single
 * device, AUTO emulation), their typed configurations and the registry {@link
 * org.hsdag.strategy.Strategies}. Depends on {@code search}, {@code policy}, {@code train},
 * {@code plan} and the bridge; the tuner, the CLI and bench depend on it.
 */
package org.hsdag.strategy;
