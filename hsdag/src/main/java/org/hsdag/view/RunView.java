package org.hsdag.view;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live view of one run folder: a read-only HTTP server (the JDK's own) that serves the page (HTML, CSS and
 * JavaScript from the jar, nothing from the internet), the run's state as JSON ({@link ViewState}) and a few of the
 * run's own files by fixed name. No path from a request ever reaches the file system; any other path is 404.
 *
 * <p>It binds to the loopback address unless an address is given explicitly, and then answers only requests whose
 * {@code Host} is that address or a loopback name (a web page elsewhere cannot read it through DNS rebinding).
 */
public final class RunView implements AutoCloseable {
  /** The page's own files, served from the jar. */
  private static final Map<String, String> ASSETS = Map.of(
      "/", "index.html", "/index.html", "index.html", "/view.js", "view.js", "/view.css", "view.css");
  /** Run files the page links to, by the only names served. */
  private static final Map<String, String> RUN_FILES = Map.of(
      "/run/report.html", "report.html", "/run/latency.svg", "latency.svg", "/run/best.json", "best.json",
      "/run/result.json", "result.json");
  /** Largest run file served (a report with embedded plots stays far below). */
  static final long MAX_FILE_BYTES = 64L << 20;
  private static final int THREADS = 2;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService pool;
  private final Path dir;
  private final String boundHost;
  /** Set once the page has been sent the state of a run that is over, so a closing tune need not wait longer. */
  private final AtomicBoolean sentFinal = new AtomicBoolean();
  private final AtomicInteger stateRequests = new AtomicInteger();
  private volatile boolean runOver;

  private RunView(HttpServer server, ExecutorService pool, Path dir, String boundHost) {
    this.server = server;
    this.pool = pool;
    this.dir = dir;
    this.boundHost = boundHost;
  }

  /**
   * Where to listen.
   *
   * @param address the address, or null for the loopback address
   * @param port the port, 0 for any free one
   */
  public record Binding(String address, int port) {
    public Binding {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0 to 65535, not " + port);
      }
    }

    /** The loopback address on any free port: the default. */
    public static Binding loopback() {
      return new Binding(null, 0);
    }

    /** The address to bind: the loopback one unless an address was given. */
    InetAddress resolve() throws IOException {
      return address == null ? InetAddress.getLoopbackAddress() : InetAddress.getByName(address);
    }

    /** Whether it reaches beyond this machine (then the caller warns). */
    public boolean beyondLoopback() throws IOException {
      return !resolve().isLoopbackAddress();
    }
  }

  /**
   * Serves {@code dir}. An address beyond loopback is refused unless {@code explicit} (the user named it).
   *
   * @throws IllegalArgumentException for an address beyond loopback that was not given explicitly
   */
  public static RunView start(Path dir, Binding binding, boolean explicit) throws IOException {
    InetAddress address = binding.resolve();
    if (!address.isLoopbackAddress() && !explicit) {
      throw new IllegalArgumentException("the live view binds beyond loopback (" + address.getHostAddress()
          + ") only when told to with --view-address");
    }
    HttpServer server = HttpServer.create(new InetSocketAddress(address, binding.port()), 16);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, daemon());
    RunView view = new RunView(server, pool, dir, address.getHostAddress());
    server.createContext("/", view::handle);
    server.setExecutor(pool);
    server.start();
    return view;
  }

  private static ThreadFactory daemon() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "hsdag-view-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** The page's address. */
  public URI uri() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/");
  }

  /** The bound address (tests check it is loopback). */
  public InetAddress address() {
    return server.getAddress().getAddress();
  }

  /**
   * The run is over: waits (at most {@code timeoutMs}) until an open page has fetched its final state, so a tune
   * that exits right after still leaves the final report on the page. Returns at once when no page ever asked.
   */
  public void awaitFinalState(long timeoutMs) throws InterruptedException {
    runOver = true;
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (stateRequests.get() > 0 && !sentFinal.get() && System.nanoTime() < end) {
      Thread.sleep(50);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        ex.getResponseHeaders().set("Allow", "GET, HEAD");
        send(ex, 405, "text/plain", "read-only\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      if (!hostAllowed(ex.getRequestHeaders().getFirst("Host"))) {
        send(ex, 403, "text/plain", "unknown host\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      String path = ex.getRequestURI().getRawPath();
      if ("/api/state".equals(path)) {
        sendState(ex);
      } else if (ASSETS.containsKey(path)) {
        sendAsset(ex, ASSETS.get(path));
      } else if (RUN_FILES.containsKey(path)) {
        sendRunFile(ex, RUN_FILES.get(path));
      } else {
        send(ex, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException | RuntimeException e) {
      // A page that went away mid-answer, or a run file being replaced: the next poll asks again.
    }
  }

  /** Loopback names, or the address bound to (which the user chose). */
  boolean hostAllowed(String host) {
    if (host == null) {
      return false;
    }
    String name = host.toLowerCase(Locale.ROOT).replaceFirst(":\\d+$", "").replaceAll("^\\[|\\]$", "");
    return name.equals("localhost") || name.equals("127.0.0.1") || name.equals("::1")
        || name.equals("0:0:0:0:0:0:0:1") || name.equals(boundHost);
  }

  private void sendState(HttpExchange ex) throws IOException {
    boolean over = runOver;
    byte[] body;
    try {
      var state = ViewState.of(dir);
      body = JSON.writeValueAsBytes(state);
      over |= state.has("final") || !state.path("live").asBoolean(true);
    } catch (UncheckedIOException | IOException e) {
      body = JSON.writeValueAsBytes(Map.of("phase", "unreadable", "error", String.valueOf(e.getMessage())));
    }
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    send(ex, 200, "application/json", body);
    stateRequests.incrementAndGet();
    if (over && runOver) {
      sentFinal.set(true);
    }
  }

  private void sendAsset(HttpExchange ex, String name) throws IOException {
    try (InputStream in = RunView.class.getResourceAsStream(name)) {
      if (in == null) {
        send(ex, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      send(ex, 200, contentType(name), in.readAllBytes());
    }
  }

  private void sendRunFile(HttpExchange ex, String name) throws IOException {
    Path file = dir.resolve(name);
    if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
      send(ex, 404, "text/plain", "not (yet) in the run folder\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    send(ex, 200, contentType(name), Files.readAllBytes(file));
  }

  private static String contentType(String name) {
    String ext = name.substring(name.lastIndexOf('.') + 1);
    return switch (ext) {
      case "html" -> "text/html; charset=utf-8";
      case "js" -> "text/javascript; charset=utf-8";
      case "css" -> "text/css; charset=utf-8";
      case "svg" -> "image/svg+xml";
      case "json" -> "application/json";
      default -> "application/octet-stream";
    };
  }

  private static void send(HttpExchange ex, int code, String type, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    // The page loads only its own files: no script or style from anywhere else can run in it.
    ex.getResponseHeaders().set("Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'");
    boolean head = "HEAD".equals(ex.getRequestMethod());
    ex.sendResponseHeaders(code, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
