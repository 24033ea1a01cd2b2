package org.hsdag.cluster;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * A worker's check of who asks it to measure: the task's sender must be the member its answer goes to, a
 * member of this cluster that declared the coordinator role, and the certificate presented at that
 * member's address must say coordinator ({@link CertificateRoles}). Every member that sends a task is
 * one this worker has an outgoing TLS connection to: Artery answers a member's handshake over its own
 * connection to the address the member announced. Each member whose tasks are dropped is named once.
 */
final class CertifiedCoordinators {
  /** What to do with a task. */
  enum Verdict { ACCEPT, ASK_AGAIN, DROP }

  /** At most this many members are remembered as named (then later ones are named again, never more memory). */
  private static final int MAX_NAMED = 1024;

  private final ActorSystem<?> system;
  private final ActorRefResolver resolver;
  /** Null without TLS (plain TCP, refusal tests only): there is no certificate to read. */
  private final CertificateRoles roles;
  private final Consumer<String> log;
  private final Set<Address> named = new HashSet<>();

  CertifiedCoordinators(ActorSystem<?> system, Consumer<String> log) {
    this.system = system;
    this.resolver = ActorRefResolver.get(system);
    this.roles = CertificateRoles.ofTls(system);
    this.log = log;
  }

  /**
   * Whether to measure a task answered to {@code replyTo} and sent by {@code sender} (the classic sender
   * Artery delivered it with). ASK_AGAIN: no TLS handshake with the sender's address has finished yet;
   * {@code lastTry} turns that into DROP.
   */
  Verdict check(ActorRef sender, String replyTo, boolean lastTry) {
    Address from = sender == null || sender.path().address().hasLocalScope() ? null : sender.path().address();
    Address answerTo;
    try {
      answerTo = resolver.resolveActorRef(replyTo).path().address();
    } catch (RuntimeException e) {
      return drop(from, "sent a task with an unreadable reply address");
    }
    if (from == null) {
      return drop(answerTo, "is the reply address of a task that came without a sender (a worker answers only the "
          + "member that asks)");
    }
    if (!from.equals(answerTo)) {
      return drop(from, "sent a task to be answered to another member (" + hostPort(answerTo)
          + "); a worker answers only the member that asks");
    }
    if (!coordinatorMember(from)) {
      return drop(from, "sent a task but is not a member of this cluster with the coordinator role");
    }
    CertificateRoles.Role r = roles == null ? CertificateRoles.Role.COORDINATOR : roles.roleOf(from);
    return switch (r) {
      case COORDINATOR -> Verdict.ACCEPT;
      case WORKER -> drop(from, "sent a task but its certificate is a worker's");
      case NONE -> drop(from, "sent a task but its certificate carries no role (a fleet folder from an older "
          + "'cluster init')");
      case UNKNOWN -> lastTry ? drop(from, "sent a task but no TLS handshake with its address finished")
          : Verdict.ASK_AGAIN;
    };
  }

  private boolean coordinatorMember(Address at) {
    for (Member m : Cluster.get(system).state().getMembers()) {
      if (m.address().equals(at) && m.hasRole(PekkoRemoteMeasurement.COORDINATOR_ROLE)
          && (m.status() == MemberStatus.up() || m.status() == MemberStatus.joining()
              || m.status() == MemberStatus.weaklyUp())) {
        return true;
      }
    }
    return false;
  }

  private Verdict drop(Address who, String why) {
    if (who != null) {
      if (named.size() >= MAX_NAMED) {
        named.clear();
      }
      if (named.add(who)) {
        log.accept("cluster: member " + hostPort(who) + " " + why + "; its tasks are dropped unanswered");
      }
    }
    return Verdict.DROP;
  }

  static String hostPort(Address a) {
    String hp = a.hostPort();
    return hp.substring(hp.indexOf('@') + 1);
  }
}
