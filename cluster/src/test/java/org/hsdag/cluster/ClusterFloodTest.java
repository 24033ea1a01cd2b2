package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stranger on one address (127.0.0.2: on Linux all of 127/8 reaches loopback) opens 120 connections that each
 * send a TLS ClientHello and reopen as soon as they are closed; a worker from another address (127.0.0.1) joins
 * while the flood goes on: the front's per-address cap keeps the stranger from holding the pending places.
 */
@Timeout(300)
class ClusterFloodTest {
  private static final int FLOODERS = 120;

  @TempDir
  Path tmp;

  @Test
  void aWorkerJoinsWhileOneAddressFloodsTheSeedWithClientHellos() throws Exception {
    Fleet fleet = new Fleet(tmp, "w1", "w2");
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    byte[] hello = clientHello();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong opened = new AtomicLong();
    List<Thread> flood = new ArrayList<>();
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, b -> b)) {
      for (int i = 0; i < FLOODERS; i++) {
        Thread t = new Thread(() -> flood(port, hello, stop, opened), "flood-" + i);
        t.setDaemon(true);
        t.start();
        flood.add(t);
      }
      while (opened.get() < 5L * FLOODERS) {
        Thread.sleep(20); // the flood is in full swing: every place it can take is taken
      }
      try (WorkerNode w2 = fleet.worker("w2", null, 0, seed, b -> b)) {
        long duringJoin = opened.get();
        Thread.sleep(200);
        assertTrue(opened.get() > duringJoin, "the flood still runs after the worker joined");
        assertTrue(w1.membership()[0] >= 2, "the seed sees the new worker up");
      }
    } finally {
      stop.set(true);
      for (Thread t : flood) {
        t.join(30_000);
      }
    }
  }

  /** Connections from 127.0.0.2 that send {@code hello}, read until closed and reopen, until {@code stop}. */
  private static void flood(int port, byte[] hello, AtomicBoolean stop, AtomicLong opened) {
    byte[] sink = new byte[4096];
    while (!stop.get()) {
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port, InetAddress.getByName("127.0.0.2"), 0)) {
        opened.incrementAndGet();
        s.setSoTimeout(2_000);
        s.getOutputStream().write(hello);
        InputStream in = s.getInputStream();
        while (!stop.get() && in.read(sink) >= 0) {
          // Whatever the member answers (its TLS server flight) is read and dropped.
        }
      } catch (IOException e) {
        // Closed or reset by the member: open another.
      }
    }
  }

  /** A real TLS 1.3 ClientHello (no certificate needed to send one). */
  private static byte[] clientHello() throws Exception {
    SSLContext tls = SSLContext.getInstance("TLSv1.3");
    tls.init(null, null, null);
    SSLEngine engine = tls.createSSLEngine("127.0.0.1", 25520);
    engine.setUseClientMode(true);
    ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    engine.wrap(ByteBuffer.allocate(0), out);
    return Arrays.copyOf(out.array(), out.position());
  }
}
