package org.hsdag.openvino;

import java.util.Optional;
import java.util.function.Consumer;
import org.hsdag.ir.OpGraph;

/**
 * A backend capability: building cost models on the per-machine {@link ProfileDatabase}, reading the op records it
 * holds and saving those it profiles.
 */
public interface ProfileDatabaseUser {
  /**
   * Builds every cost model from now on with {@code db}: kernel times it holds are not profiled again, those profiled
   * are saved; with {@code fresh} nothing is read and all is refreshed. A database that fails is said to {@code
   * notices} and the build goes on without it.
   */
  void useProfileDatabase(ProfileDatabase db, boolean fresh, Consumer<String> notices);

  /** What {@code graph}'s cost model took from the database and profiled; empty when it was not built with one. */
  Optional<ProfileReuse> profileReuse(OpGraph graph);

  /** Records that {@code graph}'s cost model came whole from the database (its saved profile and fit). */
  void reusedWhole(OpGraph graph, String database);
}
