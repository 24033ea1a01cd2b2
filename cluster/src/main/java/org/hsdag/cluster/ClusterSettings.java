package org.hsdag.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Pekko configuration of one member. Keys as documented in Pekko 1.7.0's own reference files
 * ({@code pekko-remote_2.13-1.7.0.jar!/reference.conf}: {@code pekko.remote.artery.transport =
 * tls-tcp}, {@code pekko.remote.artery.ssl.config-ssl-engine} with key-store, trust-store and
 * {@code require-mutual-authentication}; {@code pekko-actor_2.13-1.7.0.jar!/reference.conf}:
 * {@code pekko.actor.allow-java-serialization}).
 *
 * @param systemName every member's actor system name (part of the address)
 * @param bindHost the only address the member listens on
 * @param port its port (0: any free one)
 * @param seedNodes HOST:PORT of the members to join (this member's own address first makes it the first)
 * @param roles cluster roles ({@code worker}, {@code coordinator}, {@code hw=NAME})
 * @param tls the member's key and trust stores, or null for plain TCP (tests of refusal only)
 */
public record ClusterSettings(String systemName, String bindHost, int port, List<String> seedNodes, List<String> roles,
    TlsFiles tls) {
  public static final String SYSTEM = "hsdag";

  public ClusterSettings {
    seedNodes = List.copyOf(seedNodes);
    roles = List.copyOf(roles);
  }

  /** A member of the {@value #SYSTEM} cluster. */
  public static ClusterSettings of(String bindHost, int port, List<String> seedNodes, List<String> roles,
      TlsFiles tls) {
    return new ClusterSettings(SYSTEM, bindHost, port, seedNodes, roles, tls);
  }

  /** The configuration, over Pekko's reference defaults. */
  public Config toConfig() {
    List<String> seeds = new ArrayList<>();
    for (String s : seedNodes) {
      seeds.add("pekko://" + systemName + "@" + s);
    }
    Config c = ConfigFactory.parseString(String.join("\n",
        "pekko.actor.provider = cluster",
        // Only WireMessage records cross the wire, as JSON; anything else fails to serialise.
        "pekko.actor.allow-java-serialization = off",
        "pekko.actor.serializers.hsdag-json = \"" + JsonSerializer.class.getName() + "\"",
        "pekko.actor.serialization-bindings { \"" + WireMessage.class.getName() + "\" = hsdag-json }",
        "pekko.remote.artery.transport = " + (tls == null ? "tcp" : "tls-tcp"),
        "pekko.remote.artery.ssl.config-ssl-engine.require-mutual-authentication = on",
        "pekko.remote.artery.ssl.config-ssl-engine.protocol = TLSv1.3",
        "pekko.remote.artery.advanced.maximum-frame-size = 1 MiB",
        // A worker that stops answering heartbeats for this long is declared unreachable and downed.
        "pekko.cluster.failure-detector.acceptable-heartbeat-pause = 3 s",
        "pekko.cluster.jmx.enabled = off",
        "pekko.coordinated-shutdown.exit-jvm = off",
        "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off",
        "pekko.loglevel = WARNING",
        "pekko.stdout-loglevel = WARNING",
        "pekko.log-dead-letters = off",
        "pekko.log-dead-letters-during-shutdown = off"))
        .withValue("pekko.remote.artery.canonical.hostname", ConfigValueFactory.fromAnyRef(bindHost))
        .withValue("pekko.remote.artery.canonical.port", ConfigValueFactory.fromAnyRef(port))
        .withValue("pekko.remote.artery.bind.hostname", ConfigValueFactory.fromAnyRef(bindHost))
        .withValue("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(seeds))
        .withValue("pekko.cluster.roles", ConfigValueFactory.fromIterable(roles));
    if (tls != null) {
      String engine = "pekko.remote.artery.ssl.config-ssl-engine.";
      c = c.withValue(engine + "key-store", ConfigValueFactory.fromAnyRef(path(tls.keyStore())))
          .withValue(engine + "trust-store", ConfigValueFactory.fromAnyRef(path(tls.trustStore())))
          .withValue(engine + "key-store-password", ConfigValueFactory.fromAnyRef(tls.password()))
          .withValue(engine + "key-password", ConfigValueFactory.fromAnyRef(tls.password()))
          .withValue(engine + "trust-store-password", ConfigValueFactory.fromAnyRef(tls.password()));
    }
    return c.withFallback(ConfigFactory.defaultReference());
  }

  private static String path(Path p) {
    return p.toAbsolutePath().toString();
  }

  /** HOST:PORT as a pair; a bad value is bad input. */
  static HostPort parseHostPort(String text, String option) {
    int colon = text == null ? -1 : text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new org.hsdag.cli.UserInputException(option + ": expected HOST:PORT, got '" + text + "'");
    }
    try {
      int port = Integer.parseInt(text.substring(colon + 1));
      if (port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return new HostPort(text.substring(0, colon), port);
    } catch (NumberFormatException e) {
      throw new org.hsdag.cli.UserInputException(option + ": '" + text.substring(colon + 1) + "' is not a port");
    }
  }

  /** A host and port. */
  record HostPort(String host, int port) {
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%s:%d", host, port);
    }
  }
}
