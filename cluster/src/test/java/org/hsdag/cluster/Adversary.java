package org.hsdag.cluster;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSelection;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;

/**
 * Test fixture: a stranger that holds a valid member certificate of the fleet (its own actor system,
 * joined to the cluster with a role of its own) and sends what an attacker would: forged answers,
 * Pekko's system messages, oversized tasks. Everything it receives lands in {@link #inbox}.
 */
final class Adversary implements AutoCloseable {
  final ActorSystem system;
  final ActorRef self;
  final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();

  /** Puts everything it receives in the inbox. */
  static final class Sink extends AbstractActor {
    private final BlockingQueue<Object> inbox;

    Sink(BlockingQueue<Object> inbox) {
      this.inbox = inbox;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(inbox::add).build();
    }
  }

  Adversary(Fleet fleet, String member, String seed) {
    this(fleet, member, seed, "observer");
  }

  /** Joined with the cluster role {@code role}, whatever its certificate says. */
  Adversary(Fleet fleet, String member, String seed, String role) {
    system = ActorSystem.create(ClusterSettings.SYSTEM, ClusterSettings.of("127.0.0.1", 0, List.of(seed),
        List.of(role), TlsFiles.in(fleet.certs.resolve(member))).toConfig());
    self = system.actorOf(Props.create(Sink.class, () -> new Sink(inbox)), "sink");
  }

  /** Whether it became an Up member within {@code patience}. */
  boolean awaitUp(Duration patience) throws InterruptedException {
    long end = System.nanoTime() + patience.toNanos();
    while (System.nanoTime() < end) {
      if (Cluster.get(system).selfMember().status() == MemberStatus.up()) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /** HOST:PORT of an Up member with {@code role}, or null. */
  String memberWith(String role) {
    for (Member m : Cluster.get(system).state().getMembers()) {
      if (m.hasRole(role) && m.status() == MemberStatus.up()) {
        return m.address().hostPort().substring(m.address().hostPort().indexOf('@') + 1);
      }
    }
    return null;
  }

  /** The user guardian of the member at HOST:PORT (where coordinators and workers live), resolved directly. */
  ActorRef guardian(String hostPort) {
    return direct(hostPort, "/user");
  }

  /** The actor at {@code path} of the member at HOST:PORT, resolved directly (no actor selection). */
  ActorRef direct(String hostPort, String path) {
    return ((ExtendedActorSystem) system).provider()
        .resolveActorRef("pekko://" + ClusterSettings.SYSTEM + "@" + hostPort + path);
  }

  /** The same guardian by actor selection (dropped under untrusted mode). */
  ActorSelection selection(String hostPort, String path) {
    return system.actorSelection("pekko://" + ClusterSettings.SYSTEM + "@" + hostPort + path);
  }

  /** HOST:PORT other members reach it at. */
  String address() {
    String hp = ((ExtendedActorSystem) system).provider().getDefaultAddress().hostPort();
    return hp.substring(hp.indexOf('@') + 1);
  }

  /** This stranger's own actor, in Pekko's serialised form, as a reply address. */
  String replyAddress() {
    return self.path().toSerializationFormatWithAddress(((ExtendedActorSystem) system).provider().getDefaultAddress());
  }

  /** What arrived within {@code patience}, or null. */
  Object next(Duration patience) throws InterruptedException {
    return inbox.poll(patience.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      // Best effort: a test fixture.
    }
  }
}
