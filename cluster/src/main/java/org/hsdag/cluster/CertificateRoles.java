package org.hsdag.cluster;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.apache.pekko.actor.AbstractExtensionId;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Extension;
import org.apache.pekko.actor.ExtensionIdProvider;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/**
 * The role each member's certificate carries ({@code OU=hsdag-worker} or {@code OU=hsdag-coordinator} in
 * its subject, written by {@code cluster init}), as this member's outgoing TLS connections saw it. One per
 * actor system; {@link RoleRecordingSslEngineProvider} records each client engine under the canonical
 * host and port it connects to, so a member's role is that of the certificate presented at its address.
 */
final class CertificateRoles implements Extension {
  static final String WORKER = "hsdag-worker";
  static final String COORDINATOR = "hsdag-coordinator";
  /** Artery opens up to three connections (control, ordinary, large messages) to a member. */
  private static final int ENGINES_PER_ADDRESS = 3;

  /** What a member's certificate says. */
  enum Role { WORKER, COORDINATOR, NONE, UNKNOWN }

  static final Id ID = new Id();

  /** The extension's id (Pekko's pattern for one instance per actor system). */
  static final class Id extends AbstractExtensionId<CertificateRoles> implements ExtensionIdProvider {
    @Override
    public CertificateRoles createExtension(ExtendedActorSystem system) {
      return new CertificateRoles();
    }

    @Override
    public Id lookup() {
      return ID;
    }
  }

  private final Map<String, Deque<SSLEngine>> engines = new ConcurrentHashMap<>();

  static CertificateRoles get(ActorSystem system) {
    return ID.get(system);
  }

  /** The roles {@code system}'s TLS connections saw, or null over plain TCP (refusal tests only: no certificate). */
  static CertificateRoles ofTls(org.apache.pekko.actor.typed.ActorSystem<?> system) {
    boolean tls = system.settings().config().getString("pekko.remote.artery.transport").equals("tls-tcp");
    return tls ? get(Adapter.toClassic(system)) : null;
  }

  void record(String host, int port, SSLEngine engine) {
    Deque<SSLEngine> q = engines.computeIfAbsent(host + ":" + port, k -> new ArrayDeque<>());
    synchronized (q) {
      q.addFirst(engine);
      while (q.size() > ENGINES_PER_ADDRESS) {
        q.removeLast();
      }
    }
  }

  /**
   * The role of the certificate at {@code address}: UNKNOWN until a handshake with it has finished, NONE
   * when its certificate has no role (or two connections showed different ones).
   */
  Role roleOf(Address address) {
    if (address.host().isEmpty() || address.port().isEmpty()) {
      return Role.UNKNOWN;
    }
    Deque<SSLEngine> q = engines.get(address.host().get() + ":" + address.port().get());
    Role found = Role.UNKNOWN;
    if (q == null) {
      return found;
    }
    synchronized (q) {
      for (SSLEngine e : q) {
        Role r = roleOf(e);
        if (r != Role.UNKNOWN) {
          if (found != Role.UNKNOWN && found != r) {
            return Role.NONE;
          }
          found = r;
        }
      }
    }
    return found;
  }

  private static Role roleOf(SSLEngine engine) {
    try {
      Certificate[] chain = engine.getSession().getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate c ? roleOf(c) : Role.NONE;
    } catch (SSLPeerUnverifiedException e) {
      return Role.UNKNOWN; // no finished handshake on this engine yet
    }
  }

  static Role roleOf(X509Certificate c) {
    try {
      for (Rdn rdn : new LdapName(c.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("OU") && WORKER.equals(rdn.getValue())) {
          return Role.WORKER;
        }
        if (rdn.getType().equalsIgnoreCase("OU") && COORDINATOR.equals(rdn.getValue())) {
          return Role.COORDINATOR;
        }
      }
      return Role.NONE;
    } catch (InvalidNameException e) {
      return Role.NONE;
    }
  }
}
