package org.hsdag.arch.layered.tune;

import org.hsdag.openvino.OpenVinoBackend;

/** A deliberate layer violation, for {@code LayerRulesTest}: the tuner naming the native backend. */
public final class NamesTheNativeBackend {
  public boolean isNative(Object backend) {
    return backend instanceof OpenVinoBackend;
  }
}
