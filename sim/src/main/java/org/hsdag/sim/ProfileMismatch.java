package org.hsdag.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.OpClass;

/**
 * A named, seeded perturbation of a sim profile, so that a planner's proxy and the target it is
 * judged on differ in a known way (testing model error without hardware). {@link #apply} is a pure
 * function of the profile, the amplitude and the seed:
 *
 * <ul>
 *   <li>every compute {@link OpClass}'s efficiency on every device is multiplied by a factor
 *       uniform in [1 − a, 1 + a], drawn from {@code SplittableRandom(seed)} device by device (profile
 *       order), class by class (enum order); results above 2 are clamped to 2, the profile limit;
 *   <li>every device's link bandwidth is multiplied by {@code linkBandwidthFactor} (0.5 for the
 *       named mismatch): boundary copies are slower than the proxy believes;
 *   <li>every device's kernel launch overhead is multiplied by {@code launchFactor} (1.5).
 * </ul>
 *
 * Everything else (peaks, memory bandwidths, sub-model and request overheads, support) is kept.
 *
 * @param amplitude a, in [0, 1)
 * @param seed seed of the efficiency factors
 * @param linkBandwidthFactor multiplier of every link bandwidth (> 0)
 * @param launchFactor multiplier of every launch overhead (>= 0)
 */
public record ProfileMismatch(double amplitude, long seed, double linkBandwidthFactor, double launchFactor) {
  public ProfileMismatch {
    if (!(amplitude >= 0 && amplitude < 1)) {
      throw new IllegalArgumentException("mismatch amplitude must be in [0, 1) (got " + amplitude + ")");
    }
    if (!(linkBandwidthFactor > 0) || Double.isInfinite(linkBandwidthFactor) || !(launchFactor >= 0)
        || Double.isInfinite(launchFactor)) {
      throw new IllegalArgumentException("mismatch factors must be finite, link > 0, launch >= 0");
    }
  }

  /** The named mismatch of {@code --mismatch a}: efficiencies in [1 − a, 1 + a], links ×0.5, launches ×1.5. */
  public static ProfileMismatch named(double amplitude, long seed) {
    return new ProfileMismatch(amplitude, seed, 0.5, 1.5);
  }

  /** The perturbed profile, named {@code <name>+mismatch(a=…,seed=…)}. */
  public DeviceProfile apply(DeviceProfile profile) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<DeviceModel> devices = new ArrayList<>();
    for (DeviceModel d : profile.devices()) {
      Map<String, Double> eff = new LinkedHashMap<>(d.efficiency());
      for (OpClass cls : OpClass.values()) {
        if (cls.isCompute()) {
          double factor = 1 - amplitude + 2 * amplitude * rnd.nextDouble();
          eff.remove(cls.name().toLowerCase(Locale.ROOT));
          eff.put(cls.name(), Math.min(2.0, d.efficiencyOf(cls) * factor));
        }
      }
      devices.add(new DeviceModel(d.name(), d.fullName(), d.kind(), d.peakGflops(), d.memoryBandwidthGBs(),
          d.launchOverheadUs() * launchFactor, d.subModelOverheadUs(), d.linkLatencyUs(),
          d.linkBandwidthGBs() * linkBandwidthFactor, eff, d.unsupportedOps(), d.dynamicShapes(), d.fusion(),
          d.fullOccupancyOutputs()).withMemory(d.memory()).withThroughputGain(d.throughputGain())
          .withAloneScale(d.aloneFactor()));
    }
    String name = String.format(Locale.ROOT, "%s+mismatch(a=%s,seed=%d)", profile.name(), amplitude, seed);
    List<String> sources = new ArrayList<>(profile.sources());
    sources.add(String.format(Locale.ROOT, "perturbed: efficiencies x U[%s, %s] per device and op class (seed %d), "
        + "link bandwidth x%s, launch overhead x%s", 1 - amplitude, 1 + amplitude, seed, linkBandwidthFactor,
        launchFactor));
    return new DeviceProfile(name, profile.description(), sources, profile.requestOverheadUs(), devices);
  }
}
