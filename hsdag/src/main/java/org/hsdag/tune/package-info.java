/**
 * A tuning run and its storage: {@link org.hsdag.tune.Tuner}, the run folder (lock, manifest, log,
 * checkpoints, results) and its resume rules. Depends on {@code search}, {@code strategy},
 * {@code plan} and the bridge; the CLI, reports and bench depend on it.
 */
package org.hsdag.tune;
