package org.hsdag.backend;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A kind of {@link LatencyBackend}, found through {@link java.util.ServiceLoader} (as DJL finds its
 * engines): adding a backend is one class implementing this and one line naming it in {@code
 * META-INF/services/org.hsdag.backend.BackendProvider}. {@link Backends} lists, chooses and opens
 * providers; nothing else names a backend class.
 */
public interface BackendProvider {
  /** What a provider can honour in a {@link BackendRequest} beyond the common fields. */
  enum Feature {
    /** Models a machine from a profile and can perturb it ({@link BackendRequest#mismatch()}). */
    PROFILE_MISMATCH,
    /** Registers extra devices ({@link BackendRequest#testDevices()}). */
    TEST_DEVICES
  }

  /** The name users give to {@code --backend}, lower case, e.g. {@code sim}. */
  String name();

  /** A few words for help texts, e.g. {@code embedded HETERO simulator}. */
  String summary();

  /** Whether its numbers come from a model of a machine rather than from hardware. */
  boolean simulated();

  /** The request fields it honours beyond the common ones. */
  Set<Feature> features();

  /**
   * Its place in {@value Backends#AUTO}'s order (lower is tried first; the last one is the fallback
   * that answers whatever the others lacked), or empty when auto never picks it.
   */
  OptionalInt autoRank();

  /**
   * Opens a backend for {@code request}.
   *
   * @param notices receives a line for anything the user should know about what was opened
   * @throws BackendUnavailableException when it cannot run on this machine (with the reason and fix)
   * @throws IllegalArgumentException for a bad profile or request field
   */
  LatencyBackend open(BackendRequest request, Consumer<String> notices);

  /** How to get more devices from it when {@value Backends#AUTO} passed it over for lack of them. */
  default Optional<String> moreDevicesHint() {
    return Optional.empty();
  }
}
