package org.hsdag.cluster;

import javax.net.ssl.SSLEngine;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider;

/**
 * Pekko's own TLS engines ({@code pekko.remote.artery.ssl.config-ssl-engine}), with each outgoing engine
 * recorded in {@link CertificateRoles} under the member address it connects to, so the coordinator can
 * read the role in the certificate presented there. Pekko creates it by reflection with the actor system
 * ({@code pekko.remote.artery.ssl.ssl-engine-provider}).
 */
public final class RoleRecordingSslEngineProvider extends ConfigSSLEngineProvider {
  private final CertificateRoles roles;

  public RoleRecordingSslEngineProvider(ActorSystem system) {
    super(system);
    roles = CertificateRoles.get(system);
  }

  @Override
  public SSLEngine createClientSSLEngine(String hostname, int port) {
    SSLEngine engine = super.createClientSSLEngine(hostname, port);
    roles.record(hostname, port, engine);
    return engine;
  }
}
