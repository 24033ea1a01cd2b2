package org.hsdag.backend;

import java.util.Map;

/** A backend capability: the machine it models, described beyond device names (a simulator's profile). */
public interface MachineDescription {
  /** One line on the machine, e.g. the profile's description. */
  String description();

  /** Kind of {@code device} ({@code CPU}, {@code iGPU}, {@code dGPU}, {@code NPU}), or empty when unknown. */
  String kind(String device);

  /** Figures of {@code device} for the JSON listing (e.g. {@code peak_gflops}), in order. */
  Map<String, Object> figures(String device);
}
