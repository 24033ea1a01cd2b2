package org.hsdag.arch.layered.tune;

import org.hsdag.openvino.OpenVinoOptions;

/**
 * A deliberate layer violation, for {@code LayerRulesTest}: the tuner reading a value of the native
 * backend's package, not the backend class itself; the package rule catches it all the same.
 */
public final class ReadsTheNativeOptions {
  public boolean isDefault(Object options) {
    return OpenVinoOptions.DEFAULT.equals(options);
  }
}
