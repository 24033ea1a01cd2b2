package org.hsdag.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.net.InetAddress;
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
 * <p>Pekko 1.7.0 has no handshake timeout and no cap on inbound Artery TCP connections that never finish
 * (or start) their TLS handshake ({@code
 * remote/src/main/scala/org/apache/pekko/remote/artery/tcp/ArteryTcpTransport.scala} binds with {@code
 * idleTimeout = Duration.Inf}); {@code pekko.io.tcp.max-channels} cannot serve instead, because a
 * connection it refuses stops the stream's listener from accepting any more ({@code
 * actor/src/main/scala/org/apache/pekko/io/TcpListener.scala}: {@code FailedRegisterIncoming} closes the
 * channel but the pull-mode accept limit is never given back), and refusing the TLS engine leaves the TCP
 * connection open (tried). So a TLS member listens through an {@link InboundFront} on its public port,
 * which bounds them, and Pekko binds a loopback port behind it: Pekko's canonical address (what others
 * connect to) may differ from its bind address ({@code pekko-remote_2.13-1.7.0.jar!/reference.conf},
 * {@code pekko.remote.artery.canonical} and {@code pekko.remote.artery.bind}: "network configuration that
 * relays communications from canonical to bind addresses is expected").
 *
 * @param systemName every member's actor system name (part of the address)
 * @param bindHost the only address the member listens on
 * @param port its port (0: any free one)
 * @param seedNodes HOST:PORT of the members to join (this member's own address first makes it the first)
 * @param roles cluster roles ({@code worker}, {@code coordinator}, {@code hw=NAME})
 * @param tls the member's key and trust stores, or null for plain TCP (tests of refusal only; no front)
 * @param front the bounds of its inbound front
 */
public record ClusterSettings(String systemName, String bindHost, int port, List<String> seedNodes, List<String> roles,
    TlsFiles tls, FrontLimits front) {
  public static final String SYSTEM = "hsdag";
  /**
   * The only paths another member may reach by actor selection under untrusted mode: what Pekko
   * Cluster itself sends that way in 1.7.0 (join and gossip to the core daemon,
   * {@code cluster/.../ClusterDaemon.scala}; heartbeats, {@code ClusterHeartbeat.scala}; the typed
   * receptionist's replicator, {@code cluster-typed/.../ClusterReceptionist.scala} and
   * {@code distributed-data/.../Replicator.scala}). Not /user: no hsdag actor is found by selection.
   */
  static final List<String> TRUSTED_SELECTION_PATHS = List.of("/system/cluster/core/daemon",
      "/system/cluster/heartbeatReceiver", "/system/clusterReceptionist/replicator");

  public ClusterSettings {
    seedNodes = List.copyOf(seedNodes);
    roles = List.copyOf(roles);
  }

  /** With the default front. */
  public ClusterSettings(String systemName, String bindHost, int port, List<String> seedNodes, List<String> roles,
      TlsFiles tls) {
    this(systemName, bindHost, port, seedNodes, roles, tls, FrontLimits.DEFAULTS);
  }

  /** The same member with other front bounds. */
  ClusterSettings withFront(FrontLimits limits) {
    return new ClusterSettings(systemName, bindHost, port, seedNodes, roles, tls, limits);
  }

  /** The member's inbound front on its public port, or null without TLS (Pekko then binds that port itself). */
  InboundFront openFront(java.util.function.Consumer<String> log) {
    return tls == null ? null : InboundFront.open(bindHost, port, front, log);
  }

  /** A member of the {@value #SYSTEM} cluster. */
  public static ClusterSettings of(String bindHost, int port, List<String> seedNodes, List<String> roles,
      TlsFiles tls) {
    return new ClusterSettings(SYSTEM, bindHost, port, seedNodes, roles, tls);
  }

  /** The configuration without a front, over Pekko's reference defaults. */
  public Config toConfig() {
    return toConfig(null);
  }

  /** The configuration of a member behind {@code inbound} (null: Pekko binds the public port itself). */
  public Config toConfig(InboundFront inbound) {
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
        // A remote Identify, even sent straight to a path, is refused (IdentifyRefusingSerializer).
        "pekko.actor.serializers.pekko-misc = \"" + IdentifyRefusingSerializer.class.getName() + "\"",
        "pekko.actor.serialization-identifiers { \"" + IdentifyRefusingSerializer.class.getName() + "\" = 16 }",
        "pekko.remote.artery.transport = " + (tls == null ? "tcp" : "tls-tcp"),
        "pekko.remote.artery.ssl.config-ssl-engine.require-mutual-authentication = on",
        "pekko.remote.artery.ssl.config-ssl-engine.protocol = TLSv1.3",
        "pekko.remote.artery.advanced.maximum-frame-size = 1 MiB",
        // Another member's system messages (PoisonPill, Kill, remote watch) and actor selections are dropped
        // (pekko-remote 1.7.0 reference.conf, pekko.remote.artery.untrusted-mode; MessageDispatcher.scala).
        "pekko.remote.artery.untrusted-mode = on",
        // Unreachable members are downed by the split-brain resolver (pekko-cluster 1.7.0 reference.conf): the
        // oldest member's side stays, unless the oldest is alone, so a lone worker downs a vanished coordinator.
        "pekko.cluster.downing-provider-class = \"org.apache.pekko.cluster.sbr.SplitBrainResolverProvider\"",
        "pekko.cluster.split-brain-resolver.active-strategy = keep-oldest",
        "pekko.cluster.split-brain-resolver.keep-oldest.down-if-alone = on",
        "pekko.cluster.split-brain-resolver.stable-after = 7 s",
        // A worker that stops answering heartbeats for this long is declared unreachable and downed.
        "pekko.cluster.failure-detector.acceptable-heartbeat-pause = 3 s",
        "pekko.cluster.jmx.enabled = off",
        "pekko.coordinated-shutdown.exit-jvm = off",
        // A worker's Ctrl-C or SIGTERM: leave the cluster (Pekko's own JVM hook runs the coordinated shutdown in
        // its phase order). A coordinator leaves when its run has finished its batch and closes the backend.
        "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = "
            + (roles.contains(WorkerNode.WORKER_ROLE) ? "on" : "off"),
        "pekko.coordinated-shutdown.phases.cluster-exiting.timeout = 5 s",
        // Closing TLS streams on a busy 2-core machine took over 5 s once; a stopped worker must not cut it short.
        "pekko.coordinated-shutdown.phases.actor-system-terminate.timeout = 15 s",
        "pekko.loglevel = WARNING",
        "pekko.stdout-loglevel = WARNING",
        "pekko.log-dead-letters = off",
        "pekko.log-dead-letters-during-shutdown = off"))
        .withValue("pekko.remote.artery.canonical.hostname", ConfigValueFactory.fromAnyRef(bindHost))
        .withValue("pekko.remote.artery.canonical.port",
            ConfigValueFactory.fromAnyRef(inbound == null ? port : inbound.port()))
        .withValue("pekko.remote.artery.bind.hostname",
            ConfigValueFactory
                .fromAnyRef(inbound == null ? bindHost : InetAddress.getLoopbackAddress().getHostAddress()))
        .withValue("pekko.remote.artery.bind.port",
            ConfigValueFactory.fromAnyRef(inbound == null ? "" : String.valueOf(inbound.backPort())))
        .withValue("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(seeds))
        .withValue("pekko.cluster.roles", ConfigValueFactory.fromIterable(roles))
        .withValue("pekko.remote.artery.trusted-selection-paths",
            ConfigValueFactory.fromIterable(TRUSTED_SELECTION_PATHS));
    if (tls != null) {
      String engine = "pekko.remote.artery.ssl.config-ssl-engine.";
      c = c.withValue("pekko.remote.artery.ssl.ssl-engine-provider",
          ConfigValueFactory.fromAnyRef(RoleRecordingSslEngineProvider.class.getName()))
          .withValue(engine + "key-store", ConfigValueFactory.fromAnyRef(path(tls.keyStore())))
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

  /**
   * Refuses a wildcard address ({@code 0.0.0.0}, {@code ::}): a member announces the address it binds
   * as the one others reach it at, and no other machine can reach a wildcard.
   */
  static void requireReachable(String host, String option) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (h.equals("0.0.0.0") || h.equals("::") || h.matches("0*:(0*:)*0*") || h.isEmpty()) {
      throw new org.hsdag.cli.UserInputException(option + ": " + host + " is not an address other machines can "
          + "reach; give this machine's address on the fleet's network (e.g. 10.0.0.2)");
    }
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
