package org.hsdag.arch.cyclic.a;

import org.hsdag.arch.cyclic.b.Right;

/** Half of a deliberate package cycle, for {@code PackageCycleTest} to see the rule fail. */
public final class Left {
  public Right right() {
    return new Right();
  }
}
