/**
 * Reports for people: the document model {@link org.hsdag.report.ReportDoc} (one content, rendered
 * as Markdown and as one self-contained HTML page), a run's report written from its folder alone
 * ({@link org.hsdag.report.ReportWriter}), the progress chart and the colour-blind-safe palette.
 * Depends on {@code tune} (the run's storage), {@code search} and {@code strategy} for names; the
 * CLI and bench's report depend on it.
 */
package org.hsdag.report;
