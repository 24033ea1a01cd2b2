package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The front's bounds on a loopback echo server standing in for Pekko. */
@Timeout(120)
class InboundFrontTest {
  private static final FrontLimits SHORT = new FrontLimits(Duration.ofMillis(500), Duration.ofSeconds(1), 16, 64, 8,
      8, Duration.ofSeconds(1), 16);

  @Test
  void silentSocketsAreClosedAfterTheDeadlineAndOverTheCapAtOnce() throws Exception {
    List<String> log = new ArrayList<>();
    try (InboundFront front = InboundFront.open("127.0.0.1", 0, SHORT, line -> {
      synchronized (log) {
        log.add(line);
      }
    }); Echo echo = new Echo(front.backPort())) {
      long baseline = openFiles();
      List<Socket> idle = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        idle.add(new Socket(InetAddress.getLoopbackAddress(), front.port()));
      }
      // 16 pending at most: the 44 oldest were closed as the newer ones came, before any deadline.
      for (int i = 0; i < 44; i++) {
        assertTrue(closedByPeer(idle.get(i)), "socket " + i + " closed over the cap");
      }
      for (int i = 44; i < 60; i++) {
        assertTrue(closedByPeer(idle.get(i)), "socket " + i + " closed after the deadline");
      }
      Map<InboundFront.Reason, Long> closed = front.closedCounts();
      assertEquals(44L, closed.get(InboundFront.Reason.PENDING_CAP));
      assertEquals(16L, closed.get(InboundFront.Reason.SILENT));
      assertArrayEquals(new int[] {0, 0}, front.openCounts());
      for (Socket s : idle) {
        s.close();
      }
      // Other tests' threads in this JVM (actor systems shutting down, runtimes) may hold a file for a moment.
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (openFiles() > baseline + 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(openFiles() <= baseline + 2, "open files back to the baseline " + baseline);
      Thread.sleep(1_500);
      synchronized (log) {
        assertTrue(log.stream().anyMatch(l -> l.contains("inbound front closed 16 (sent nothing")), log.toString());
      }
    }
  }

  @Test
  void establishedConnectionsRelayUnchangedAndOutliveTheDeadline() throws Exception {
    try (InboundFront front = InboundFront.open("127.0.0.1", 0, SHORT, line -> {});
        Echo echo = new Echo(
            front.backPort());
        Socket s = new Socket(InetAddress.getLoopbackAddress(), front.port())) {
      s.setSoTimeout(10_000);
      byte[] data = new byte[1 << 20];
      new SplittableRandom(1).nextBytes(data);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      out.write(data, 0, 10);
      assertArrayEquals(java.util.Arrays.copyOf(data, 10), in.readNBytes(10));
      out.write(data, 10, 10);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, 10, 20), in.readNBytes(10));
      Thread.sleep(1_500);
      Thread writer = new Thread(() -> {
        try {
          out.write(data);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      writer.start();
      assertArrayEquals(data, in.readNBytes(data.length));
      writer.join();
      assertEquals(Map.of(), front.closedCounts());
      assertArrayEquals(new int[] {1, 0}, front.openCounts());
    }
  }

  @Test
  void aClientThatStallsAfterItsFirstBytesIsClosedAtTheHandshakeDeadline() throws Exception {
    try (InboundFront front = InboundFront.open("127.0.0.1", 0, SHORT, line -> {});
        Echo echo = new Echo(
            front.backPort());
        Socket s = new Socket(InetAddress.getLoopbackAddress(), front.port())) {
      s.getOutputStream().write(new byte[4]);
      assertEquals(4, s.getInputStream().readNBytes(4).length);
      assertTrue(closedByPeer(s));
      assertEquals(Map.of(InboundFront.Reason.HANDSHAKE, 1L), front.closedCounts());
    }
  }

  @Test
  void connectionsOverTheTotalCapAreClosedAtOnce() throws Exception {
    FrontLimits limits = new FrontLimits(Duration.ofSeconds(30), Duration.ofSeconds(30), 4, 4, 8, 8,
        Duration.ofSeconds(60), 4);
    try (InboundFront front = InboundFront.open("127.0.0.1", 0, limits, line -> {});
        Echo echo = new Echo(
            front.backPort())) {
      List<Socket> kept = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), front.port());
        s.setSoTimeout(10_000);
        s.getOutputStream().write(new byte[10]);
        s.getInputStream().readNBytes(10);
        s.getOutputStream().write(new byte[10]);
        s.getInputStream().readNBytes(10);
        kept.add(s);
      }
      try (Socket over = new Socket(InetAddress.getLoopbackAddress(), front.port())) {
        assertTrue(closedByPeer(over));
      }
      assertEquals(Map.of(InboundFront.Reason.TOTAL_CAP, 1L), front.closedCounts());
      for (Socket s : kept) {
        s.close();
      }
    }
  }

  @Test
  void oneAddressCannotHoldThePendingPlaces() throws Exception {
    // 127.0.0.2 and 127.0.0.3 reach loopback on Linux: three "hosts" on one machine.
    FrontLimits limits = new FrontLimits(Duration.ofSeconds(30), Duration.ofSeconds(30), 8, 64, 8, 8,
        Duration.ofSeconds(60), 4);
    try (InboundFront front = InboundFront.open("127.0.0.1", 0, limits, line -> {});
        Echo echo = new Echo(front.backPort())) {
      List<Socket> flood = new ArrayList<>();
      try {
        for (int i = 0; i < 40; i++) {
          flood.add(sendingFrom("127.0.0.2", front.port()));
        }
        Socket member = sendingFrom("127.0.0.1", front.port());
        flood.add(member);
        for (int i = 0; i < 40; i++) {
          flood.add(sendingFrom("127.0.0.2", front.port()));
        }
        // The flood closed only its own connections: the member's still relays.
        member.getOutputStream().write(new byte[] {7});
        assertEquals(7, member.getInputStream().read());
        assertEquals(76L, front.closedCounts().get(InboundFront.Reason.ADDRESS_CAP));
        // Over the total: a third address gets a place from the busiest one (the flood), never the member's.
        for (int i = 0; i < 4; i++) {
          flood.add(sendingFrom("127.0.0.3", front.port()));
        }
        assertEquals(Map.of(InboundFront.Reason.ADDRESS_CAP, 76L, InboundFront.Reason.PENDING_CAP, 1L),
            front.closedCounts());
        member.getOutputStream().write(new byte[] {8});
        assertEquals(8, member.getInputStream().read());
        assertArrayEquals(new int[] {8, 8}, front.openCounts());
      } finally {
        for (Socket s : flood) {
          s.close();
        }
      }
    }
  }

  /** A connection from {@code host} (a loopback address) that has sent one byte and had it echoed. */
  private static Socket sendingFrom(String host, int port) throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), port, InetAddress.getByName(host), 0);
    s.setSoTimeout(10_000);
    s.getOutputStream().write(1);
    assertEquals(1, s.getInputStream().read());
    return s;
  }

  /** Whether the peer closed {@code s} (end of stream or reset) within 20 s. */
  private static boolean closedByPeer(Socket s) throws IOException {
    s.setSoTimeout(20_000);
    try {
      return s.getInputStream().read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static long openFiles() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  /** A loopback server that echoes every byte. */
  private static final class Echo implements AutoCloseable {
    private final ServerSocket server;

    Echo(int port) throws IOException {
      server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
      Thread t = new Thread(this::serve, "echo");
      t.setDaemon(true);
      t.start();
    }

    private void serve() {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          Thread t = new Thread(() -> echo(s));
          t.setDaemon(true);
          t.start();
        } catch (IOException e) {
          return;
        }
      }
    }

    private static void echo(Socket s) {
      try (s) {
        s.getInputStream().transferTo(s.getOutputStream());
      } catch (IOException e) {
        // The front closed it.
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
