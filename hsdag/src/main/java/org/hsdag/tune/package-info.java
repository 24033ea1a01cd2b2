/**
 * A tuning run and its storage: {@link org.hsdag.tune.Tuner}, the run folder (lock, manifest, log,
 * checkpoints, {@code best.json}, {@code result.json}) and its resume rules. Depends on
 * {@code search}, {@code strategy}, {@code plan} and the bridge; the report, the CLI and bench
 * depend on it. Rendering a run for people lives in {@code org.hsdag.report}, which reads the
 * folder; nothing here depends on it.
 */
package org.hsdag.tune;
