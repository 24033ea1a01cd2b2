package org.hsdag.memory;

/** No placement of the model fits the devices' memory capacities: bad input, not a failure of hsdag. */
public final class NoPlacementFitsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public NoPlacementFitsException(String message) {
    super(message);
  }

  /** The planners' refusal for {@code check}: its devices and their capacities in readable units. */
  public static NoPlacementFitsException of(MemoryCheck check) {
    return new NoPlacementFitsException(check.noPlacementFits().orElse("no placement on " + check.devices()
        + " fits the memory capacities (" + check.describeCapacities()
        + "): the weights and activations exceed what the devices hold; raise --memory or add a device"));
  }
}
