package org.hsdag.arch.layered.cli;

import org.hsdag.openvino.OpenVinoBackend;

/** A class the rule lets use the native backend by name (as {@code CalibrateCommand}), for {@code LayerRulesTest}. */
public final class RealRuntimeCommand {
  public boolean isNative(Object backend) {
    return backend instanceof OpenVinoBackend;
  }
}
