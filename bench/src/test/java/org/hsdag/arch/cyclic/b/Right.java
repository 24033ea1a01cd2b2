package org.hsdag.arch.cyclic.b;

import org.hsdag.arch.cyclic.a.Left;

/** The other half of the deliberate package cycle. */
public final class Right {
  public Left left() {
    return new Left();
  }
}
