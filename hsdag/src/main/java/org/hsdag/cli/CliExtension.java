package org.hsdag.cli;

/**
 * A subcommand contributed by a module that depends on this one (for example {@code bench}),
 * found with {@link java.util.ServiceLoader}. Implementations are picocli command classes.
 */
public interface CliExtension {
  /** A new instance of the annotated picocli command object. */
  Object newCommand();
}
