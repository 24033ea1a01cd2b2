package org.hsdag.cluster;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Whether a member listed as a worker may be one: its certificate must say so ({@link CertificateRoles}),
 * whatever role it declared on joining. Each member refused is named once in the coordinator's notes.
 */
final class CertifiedWorkers {
  private static final Duration RECHECK = Duration.ofMillis(200);
  /** Null without TLS (plain TCP, refusal tests only): there is no certificate to read. */
  private final CertificateRoles roles;
  private final Consumer<String> notes;
  private final Set<Address> refused = new HashSet<>();

  private final TimerScheduler<Coordinator.Command> timers;
  private final Coordinator.Command askAgain;

  /** {@code askAgain} is sent shortly after a check met a member whose certificate no handshake has shown yet. */
  CertifiedWorkers(ActorSystem<?> system, Consumer<String> notes, TimerScheduler<Coordinator.Command> timers,
      Coordinator.Command askAgain) {
    this.timers = timers;
    this.askAgain = askAgain;
    this.roles = CertificateRoles.ofTls(system);
    this.notes = notes;
  }

  /** Whether {@code member} may be sent tasks now. */
  boolean admits(Address member, String name) {
    if (roles == null) {
      return true;
    }
    CertificateRoles.Role r = roles.roleOf(member);
    if (r == CertificateRoles.Role.UNKNOWN && !timers.isTimerActive(askAgain)) {
      timers.startSingleTimer(askAgain, askAgain, RECHECK);
    }
    if ((r == CertificateRoles.Role.COORDINATOR || r == CertificateRoles.Role.NONE) && refused.add(member)) {
      notes.accept("cluster: member " + name + " joined as a worker but its certificate "
          + (r == CertificateRoles.Role.COORDINATOR ? "is a coordinator's"
              : "carries no role (a fleet folder from an older 'cluster init': re-run cluster init)")
          + "; it is never sent a task");
    }
    return r == CertificateRoles.Role.WORKER;
  }
}
