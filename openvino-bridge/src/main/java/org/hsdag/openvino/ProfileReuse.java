package org.hsdag.openvino;

import java.util.List;
import java.util.Locale;

/**
 * What one cost-model build took from the {@link ProfileDatabase} and what it profiled, counted in op records (one
 * op's kernel time on one device).
 *
 * @param reused records read from the database
 * @param profiled records profiled now (and saved to it)
 * @param fresh whether the database was ignored ({@code --fresh-profile}) and refreshed
 * @param database where it is
 * @param devices per device, what was profiled: {@code profiled 12 of 320 ops on CPU (308 reused from the profile
 *     database)}
 * @param bypassed why the database was not used for this model (empty when it was)
 */
public record ProfileReuse(int reused, int profiled, boolean fresh, String database, List<String> devices,
    String bypassed) {
  public ProfileReuse {
    devices = List.copyOf(devices);
    bypassed = bypassed == null ? "" : bypassed;
  }

  /** Without per-device lines (a cost model reused whole). */
  public ProfileReuse(int reused, int profiled, boolean fresh, String database) {
    this(reused, profiled, fresh, database, List.of(), "");
  }

  /** The summary's line: {@code profile database: 412 of 605 op records reused, 193 profiled}. */
  public String line() {
    if (!bypassed.isEmpty()) {
      return "profile database: not used for this model (" + bypassed + ")";
    }
    return String.format(Locale.ROOT, "profile database: %d of %d op records reused, %d profiled%s", reused,
        reused + profiled, profiled, fresh ? " (--fresh-profile: none read, all refreshed)" : "")
        + (devices.isEmpty() ? "" : "; " + String.join("; ", devices));
  }
}
