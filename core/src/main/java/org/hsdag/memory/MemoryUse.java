package org.hsdag.memory;

/**
 * What one placement needs on one device.
 *
 * @param device device name
 * @param weightBytes constants placed there (as the IR stores them: element type x shape)
 * @param activationPeakBytes peak of the tensors live there at once in execution order, boundary copies in included
 * @param boundaryBytes tensors copied in from other devices (part of the activations, shown for information)
 * @param overheadBytes the plugin's own memory (0 when the device runs nothing)
 * @param capacityBytes the device's limit, {@link Long#MAX_VALUE} when it has none
 */
public record MemoryUse(String device, long weightBytes, long activationPeakBytes, long boundaryBytes,
    long overheadBytes, long capacityBytes) {

  /** Weights + activation peak + runtime overhead. */
  public long totalBytes() {
    return weightBytes + activationPeakBytes + overheadBytes;
  }

  public boolean limited() {
    return capacityBytes != Long.MAX_VALUE;
  }

  public boolean fits() {
    return totalBytes() <= capacityBytes;
  }

  /** One line, e.g. {@code GPU.1 15.90 GiB of 16.00 GiB (weights 15.2 GiB, activations ...)}. */
  public String describe() {
    return device + " " + ByteSizes.format(totalBytes()) + (limited() ? " of " + ByteSizes.format(capacityBytes) : "")
        + " (weights " + ByteSizes.format(weightBytes) + ", activations " + ByteSizes.format(activationPeakBytes)
        + ", runtime " + ByteSizes.format(overheadBytes) + ")";
  }
}
