/**
 * Bench results as values and the bench report (tables, paper numbers, best-so-far plots). Depends
 * on {@code tune} and {@code io}; the bench command and runner depend on it.
 */
package org.hsdag.bench.report;
