package org.hsdag.strategy;

import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;

/**
 * The paper's CPU-only / GPU-only baselines: the whole graph on one device, proposed once. An op
 * the device cannot run goes to its first allowed device (the only legal alternative), so on a
 * model the device fully supports this is exactly "everything on that device".
 */
public final class SingleDeviceStrategy extends OneShotStrategy {
  private final String methodName;
  private final String device;

  public SingleDeviceStrategy(String methodName, String device) {
    this.methodName = methodName;
    this.device = device;
  }

  @Override
  public String name() {
    return methodName;
  }

  /** The device this baseline places everything on. */
  public String device() {
    return device;
  }

  @Override
  protected Placement choose(SearchContext context) {
    int d = context.devices().indexOf(device);
    if (d < 0) {
      throw new InvalidPlacementException(
          "method '" + methodName + "' needs device " + device + ", which is not in " + context.devices());
    }
    PlacementSpace space = PlacementSpace.perOp(context.graph(), context.devices(), context.support());
    return space.decode(space.uniform(d));
  }
}
