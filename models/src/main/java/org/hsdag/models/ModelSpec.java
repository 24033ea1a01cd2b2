package org.hsdag.models;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * One entry of the {@link ModelCatalog}: a name (also the folder and file base name under
 * {@code models/}), a one-line description, and the builder that produces it.
 *
 * @param name model name, e.g. {@code resnet50}
 * @param description one line for listings
 * @param builder produces the model; deterministic
 */
public record ModelSpec(String name, String description, Supplier<GeneratedModel> builder) {
  public ModelSpec {
    Objects.requireNonNull(name);
    Objects.requireNonNull(description);
    Objects.requireNonNull(builder);
  }

  /** Builds the model in memory (graph and {@code .bin} plan; no weights are generated yet). */
  public GeneratedModel build() {
    return builder.get();
  }

  /** True for the small test models. */
  public boolean tiny() {
    return name.startsWith("tiny_");
  }
}
