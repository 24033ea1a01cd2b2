package org.hsdag.cluster;

import java.time.Duration;

/**
 * The bounds {@link InboundFront} puts on inbound connections before Pekko's TLS sees them.
 *
 * @param firstBytes a connection whose client has sent nothing by then is closed
 * @param handshake a connection not established (see below) by then is closed
 * @param maxPending not-yet-established connections at most; over it, the oldest of the address (IPv6: the /64)
 *     holding the most of them is closed at once
 * @param maxTotal connections at most; over it, a new one is closed at once
 * @param serverBytes established needs at least this many bytes from the member (its TLS server flight)
 * @param clientBytesAfter and at least this many client bytes after the member's first answer
 * @param logEvery closed connections are reported at most once per this interval
 */
public record FrontLimits(Duration firstBytes, Duration handshake, int maxPending, int maxTotal, int serverBytes,
    int clientBytesAfter, Duration logEvery, int maxPendingPerAddress) {
  /**
   * A member's defaults. A fleet member opens at most three connections to another (Artery's control,
   * ordinary and large-message streams), so 1,024 serves a fleet of hundreds; a real TLS 1.3 handshake
   * with client certificates takes milliseconds on a LAN, far under 10 s. A member (re)connecting opens at most
   * three at once, so 8 per address leaves room for it while 8 addresses are needed to fill the 64 places.
   */
  public static final FrontLimits DEFAULTS = new FrontLimits(Duration.ofSeconds(5), Duration.ofSeconds(10), 64, 1024,
      256, 256, Duration.ofSeconds(60), 8);

  public FrontLimits {
    if (maxPending < 1 || maxTotal < maxPending || serverBytes < 1 || clientBytesAfter < 1 || maxPendingPerAddress < 1
        || maxPendingPerAddress > maxPending) {
      throw new IllegalArgumentException("front limits out of range");
    }
  }
}
