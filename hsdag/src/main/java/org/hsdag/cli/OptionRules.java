package org.hsdag.cli;

/** Checks of option values that fail in the user's terms: the option as typed and the rule it broke. */
public final class OptionRules {
  private OptionRules() {}

  /** Refuses {@code value} of {@code option} below {@code min} ("--steps must be at least 1 (got 0)"). */
  public static void requireAtLeast(String option, long value, long min) {
    if (value < min) {
      throw new UserInputException(option + " must be at least " + min + " (got " + value + ")");
    }
  }
}
