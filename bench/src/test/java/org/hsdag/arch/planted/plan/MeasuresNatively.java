package org.hsdag.arch.planted.plan;

import org.hsdag.openvino.OpenVinoOptions;

/** A deliberate layer violation, for {@code BenchLayerRulesTest}: a simulator experiment reaching for the native runtime. */
public final class MeasuresNatively {
  public Object options() {
    return OpenVinoOptions.DEFAULT;
  }
}
