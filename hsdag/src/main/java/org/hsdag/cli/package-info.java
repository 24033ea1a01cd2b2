/**
 * The {@code hsdag} command line (picocli): one class per subcommand, shared option mixins, exit
 * codes and user-input errors. Depends on every hsdag package; only bench (which adds its own
 * subcommand) may depend on it.
 */
package org.hsdag.cli;
