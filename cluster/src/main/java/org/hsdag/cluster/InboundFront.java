package org.hsdag.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A TCP front on a member's public port that relays bytes to Pekko bound on a loopback port: Pekko 1.7.0
 * has no handshake timeout and no cap on inbound Artery TCP connections ({@link ClusterSettings}), so this
 * bounds them. One selector thread, two direct buffers per connection, no TLS termination: TLS stays end to
 * end between the members, the front only counts the bytes it passes.
 *
 * <p>A connection is <em>established</em> once the member has sent its first answer ({@link
 * FrontLimits#serverBytes()}: its TLS server flight, sent on a ClientHello) and the client has then sent
 * {@link FrontLimits#clientBytesAfter()} more bytes. Those are, in TLS 1.3, the client's certificate flight
 * encrypted under the handshake keys: bytes from someone without a member certificate fail in Pekko's TLS,
 * which closes the connection (and the front closes the client's side with it). So a stranger can hold a
 * connection only until the handshake deadline, and only {@link FrontLimits#maxPending()} of them at once.
 *
 * <p>Closed: a client silent for {@link FrontLimits#firstBytes()}; a connection not established within
 * {@link FrontLimits#handshake()}; the oldest pending one of the same address when a new one would exceed
 * {@link FrontLimits#maxPendingPerAddress()}, else the oldest of the address holding the most pending places
 * when it would exceed {@code maxPending} (so a new address always gets a place); a new one over {@link
 * FrontLimits#maxTotal()}. Counts by reason are logged at most once per interval.
 */
final class InboundFront implements AutoCloseable {
  private static final int BUFFER = 32 * 1024;

  /** Why a connection was closed by the front. */
  enum Reason {
    SILENT("sent nothing within the first-bytes deadline"), HANDSHAKE(
        "no TLS handshake within the deadline"), PENDING_CAP(
            "over the cap on not-yet-established connections"), ADDRESS_CAP(
                "over the cap on not-yet-established connections from one address"), TOTAL_CAP(
                    "over the cap on connections");

    final String text;

    Reason(String text) {
      this.text = text;
    }
  }

  private final FrontLimits limits;
  private final Consumer<String> log;
  private final ServerSocketChannel server;
  private final Selector selector;
  private final InetSocketAddress back;
  private final Thread thread;
  private final ArrayDeque<Relay> pending = new ArrayDeque<>();
  private final List<Relay> all = new ArrayList<>();
  /** Not-yet-established connections by client address (IPv6: by /64). */
  private final Map<String, Integer> pendingBy = new HashMap<>();
  private final Map<Reason, Long> closed = new EnumMap<>(Reason.class);
  private final Map<Reason, Long> closedSinceLog = new EnumMap<>(Reason.class);
  /** Buffers of closed connections, reused: a flood of short connections allocates nothing more. */
  private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();
  private long lastLog;
  private volatile boolean running = true;

  private InboundFront(InetSocketAddress publicAddress, int backPort, FrontLimits limits, Consumer<String> log)
      throws IOException {
    this.limits = limits;
    this.log = log;
    this.back = new InetSocketAddress(InetAddress.getLoopbackAddress(), backPort);
    this.selector = Selector.open();
    this.server = ServerSocketChannel.open();
    try {
      server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      server.bind(publicAddress, 1024);
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException e) {
      server.close();
      selector.close();
      throw e;
    }
    this.lastLog = System.nanoTime();
    this.thread = new Thread(this::loop, "hsdag-inbound-front");
    thread.setDaemon(true);
  }

  /**
   * Listens on {@code host:port} (0: any free port) and relays to a free loopback port, where Pekko is to bind.
   *
   * @throws UncheckedIOException when the port cannot be bound
   */
  static InboundFront open(String host, int port, FrontLimits limits, Consumer<String> log) {
    try {
      int backPort;
      try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        backPort = probe.getLocalPort();
      }
      InboundFront f = new InboundFront(new InetSocketAddress(host, port), backPort, limits, log);
      f.thread.start();
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }

  /** The public port (the member's canonical port). */
  int port() {
    return server.socket().getLocalPort();
  }

  /** The loopback port Pekko binds. */
  int backPort() {
    return back.getPort();
  }

  /** Connections closed by the front so far, by reason. */
  synchronized Map<Reason, Long> closedCounts() {
    return Map.copyOf(closed);
  }

  /** {open connections, of which not yet established}. */
  synchronized int[] openCounts() {
    return new int[] {all.size(), pending.size()};
  }

  private void loop() {
    while (running) {
      try {
        selector.select(100);
        synchronized (this) {
          for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext();) {
            SelectionKey k = it.next();
            it.remove();
            if (k.isValid() && k.isAcceptable()) {
              accept();
            } else if (k.attachment() instanceof Relay r) {
              r.ready(k);
            }
          }
          expire(System.nanoTime());
        }
      } catch (IOException | RuntimeException e) {
        if (running) {
          log.accept("cluster: inbound front: " + e);
        }
      }
    }
  }

  private void accept() throws IOException {
    SocketChannel c;
    // At most 256 per wake-up: a closed registered channel's file handle is freed at the next select.
    for (int i = 0; i < 256 && (c = server.accept()) != null; i++) {
      if (all.size() >= limits.maxTotal()) {
        count(Reason.TOTAL_CAP);
        c.close();
        continue;
      }
      String from = addressKey(c);
      boolean atOwnCap = pendingBy.getOrDefault(from, 0) >= limits.maxPendingPerAddress();
      if (pending.size() >= limits.maxPending()) {
        count(Reason.PENDING_CAP);
        oldestPendingOf(atOwnCap ? from : busiestAddress()).close();
      } else if (atOwnCap) {
        count(Reason.ADDRESS_CAP);
        oldestPendingOf(from).close();
      }
      Relay r = new Relay(c, from, System.nanoTime());
      all.add(r);
      pending.addLast(r);
      pendingBy.merge(from, 1, Integer::sum);
      r.start();
    }
  }

  /** The client's address, IPv6 ones by their /64 (one host usually holds a whole /64). */
  private static String addressKey(SocketChannel c) throws IOException {
    if (c.getRemoteAddress() instanceof InetSocketAddress a && a.getAddress() != null) {
      byte[] b = a.getAddress().getAddress();
      return java.util.HexFormat.of().formatHex(b, 0, b.length == 16 ? 8 : b.length);
    }
    return "";
  }

  /** The address holding the most pending places (the oldest such connection's, on a tie). */
  private String busiestAddress() {
    String busiest = null;
    int most = 0;
    for (Relay r : pending) {
      int n = pendingBy.get(r.from);
      if (n > most) {
        most = n;
        busiest = r.from;
      }
    }
    return busiest;
  }

  private Relay oldestPendingOf(String from) {
    for (Relay r : pending) {
      if (r.from.equals(from)) {
        return r;
      }
    }
    throw new IllegalStateException("no pending connection from " + from);
  }

  private void unpend(Relay r) {
    if (pending.remove(r)) {
      pendingBy.computeIfPresent(r.from, (k, n) -> n == 1 ? null : n - 1);
    }
  }

  private void expire(long now) {
    List<Relay> late = new ArrayList<>();
    for (Relay r : pending) {
      if (r.fromClient == 0 && now - r.accepted > limits.firstBytes().toNanos()) {
        late.add(r);
        count(Reason.SILENT);
      } else if (now - r.accepted > limits.handshake().toNanos()) {
        late.add(r);
        count(Reason.HANDSHAKE);
      }
    }
    late.forEach(Relay::close);
    if (now - lastLog >= limits.logEvery().toNanos() && !closedSinceLog.isEmpty()) {
      StringBuilder line = new StringBuilder("cluster: inbound front closed");
      closedSinceLog.forEach((why, n) -> line.append(String.format(Locale.ROOT, " %d (%s);", n, why.text)));
      log.accept(line.substring(0, line.length() - 1) + String.format(Locale.ROOT, " in the last %d s; open now %d,"
          + " of which %d not established", limits.logEvery().toSeconds(), all.size(), pending.size()));
      closedSinceLog.clear();
      lastLog = now;
    }
  }

  private ByteBuffer buffer() {
    ByteBuffer b = spare.poll();
    return b != null ? b : ByteBuffer.allocateDirect(BUFFER);
  }

  private void count(Reason why) {
    closed.merge(why, 1L, Long::sum);
    closedSinceLog.merge(why, 1L, Long::sum);
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      new ArrayList<>(all).forEach(Relay::close);
      try {
        server.close();
        selector.close();
      } catch (IOException e) {
        log.accept("cluster: inbound front: " + e.getMessage());
      }
    }
  }

  /** One client connection and its connection to Pekko; bytes pass through two direct buffers. */
  private final class Relay {
    final SocketChannel client;
    final String from;
    final long accepted;
    SocketChannel server;
    SelectionKey clientKey;
    SelectionKey serverKey;
    ByteBuffer up;
    ByteBuffer down;
    long fromClient;
    long fromServer;
    long fromClientAfterAnswer;
    boolean clientEof;
    boolean serverEof;
    boolean connected;
    boolean established;
    boolean isClosed;

    Relay(SocketChannel client, String from, long accepted) {
      this.client = client;
      this.from = from;
      this.accepted = accepted;
    }

    void start() {
      try {
        client.configureBlocking(false);
        client.setOption(StandardSocketOptions.TCP_NODELAY, true);
        clientKey = client.register(selector, SelectionKey.OP_READ, this);
      } catch (IOException e) {
        close();
      }
    }

    /** The client's first bytes: only now buffers are taken and Pekko is connected (a silent socket costs neither). */
    private void firstBytes() throws IOException {
      up = buffer();
      down = buffer();
      int n = client.read(up);
      if (n <= 0) {
        // End of stream before any byte, or a spurious wake-up: nothing for Pekko yet.
        spare.push(up);
        spare.push(down);
        up = null;
        down = null;
        if (n < 0) {
          close();
        }
        return;
      }
      fromClient = n;
      server = SocketChannel.open();
      server.configureBlocking(false);
      server.setOption(StandardSocketOptions.TCP_NODELAY, true);
      connected = server.connect(back);
      serverKey = server.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, this);
    }

    void ready(SelectionKey k) {
      if (isClosed || !k.isValid()) {
        return;
      }
      try {
        if (server == null) {
          firstBytes();
        } else if (k == serverKey && k.isConnectable()) {
          connected = server.finishConnect();
        }
        if (connected) {
          pump();
        }
        if (!isClosed) {
          interests();
        }
      } catch (IOException e) {
        close();
      }
    }

    private void pump() throws IOException {
      int n = clientEof ? 0 : client.read(up);
      if (n < 0) {
        clientEof = true;
      } else {
        fromClient += n;
        fromClientAfterAnswer += fromServer >= limits.serverBytes() ? n : 0;
      }
      int m = serverEof ? 0 : server.read(down);
      if (m < 0) {
        serverEof = true;
      } else {
        fromServer += m;
      }
      flush(up, server, clientEof);
      flush(down, client, serverEof);
      if (!established && fromServer >= limits.serverBytes() && fromClientAfterAnswer >= limits.clientBytesAfter()) {
        established = true;
        unpend(this);
      }
      // Pekko closed a connection that never got through its handshake (a stranger's bytes failed its TLS).
      boolean drained = up.position() == 0 && down.position() == 0;
      if ((clientEof && serverEof && drained) || (serverEof && !established && down.position() == 0)) {
        close();
      }
    }

    private static void flush(ByteBuffer buf, SocketChannel to, boolean eof) throws IOException {
      buf.flip();
      to.write(buf);
      buf.compact();
      if (eof && buf.position() == 0 && to.isOpen()) {
        to.shutdownOutput();
      }
    }

    private void interests() {
      if (server == null) {
        return;
      }
      if (!connected) {
        clientKey.interestOps(0);
        return;
      }
      clientKey.interestOps((clientEof || !up.hasRemaining() ? 0 : SelectionKey.OP_READ)
          | (down.position() > 0 ? SelectionKey.OP_WRITE : 0));
      serverKey.interestOps((serverEof || !down.hasRemaining() ? 0 : SelectionKey.OP_READ)
          | (up.position() > 0 ? SelectionKey.OP_WRITE : 0));
    }

    void close() {
      if (isClosed) {
        return;
      }
      isClosed = true;
      all.remove(this);
      unpend(this);
      if (up != null) {
        spare.push(up.clear());
        spare.push(down.clear());
      }
      for (java.io.Closeable c : new java.io.Closeable[] {client, server}) {
        try {
          if (c != null) {
            c.close();
          }
        } catch (IOException e) {
          // Closing a socket the peer already reset: nothing to do.
        }
      }
    }
  }
}
