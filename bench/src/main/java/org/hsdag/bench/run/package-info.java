/**
 * The bench runner: every method on every model and seed at equal budgets. Depends on
 * {@code bench.report}, {@code strategy}, {@code search} and the bridge; only the bench command
 * depends on it.
 */
package org.hsdag.bench.run;
