package org.hsdag.arch.layered.cli;

import org.hsdag.openvino.OpenVinoBackend;

/**
 * A deliberate layer violation, for {@code LayerRulesTest}: a command about the native runtime (as
 * {@code calibrate}) naming its backend; such commands ask the backend layer for a capability too.
 */
public final class CalibratesByName {
  public boolean isNative(Object backend) {
    return backend instanceof OpenVinoBackend;
  }
}
