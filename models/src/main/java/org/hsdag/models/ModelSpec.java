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
 * @param simulationOnly true when its weights are too large to generate (only its XML is used, by the simulator)
 */
public record ModelSpec(String name, String description, Supplier<GeneratedModel> builder, boolean simulationOnly) {
  public ModelSpec {
    Objects.requireNonNull(name);
    Objects.requireNonNull(description);
    Objects.requireNonNull(builder);
  }

  /** A model whose weights can be generated. */
  public ModelSpec(String name, String description, Supplier<GeneratedModel> builder) {
    this(name, description, builder, false);
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
