package org.hsdag.models;

/**
 * One region of a generated {@code .bin}: where it starts and what fills it. Regions are laid out
 * back to back in Const creation order; identical literal constants share one region, as
 * OpenVINO's serializer does.
 *
 * @param offset byte offset in the {@code .bin}
 * @param data the bytes of the region
 */
public record ConstBlob(long offset, ConstData data) {
  public long end() {
    return offset + data.size();
  }
}
