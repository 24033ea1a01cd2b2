/**
 * The live view of a run in the browser: a read-only local HTTP server ({@link org.hsdag.view.RunView}) that serves
 * a self-contained page and the run's state read from its folder alone ({@link org.hsdag.view.ViewState}). Depends
 * on {@code tune} (the run's files); the CLI starts it.
 */
package org.hsdag.view;
