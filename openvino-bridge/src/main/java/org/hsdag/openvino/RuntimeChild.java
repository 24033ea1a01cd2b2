package org.hsdag.openvino;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One runtime child process as the tune sees it: started with a command, connected over a Unix
 * socket in a private folder (also its working folder, so a crash report lands there and not in the
 * user's; one a killed tune left is removed by the next start, {@link RuntimeFolders}), asked by
 * {@link #call} with a deadline, and ended by {@link #close}. A call whose answer does not come by its deadline, or during which the child dies, ends the child and throws {@link
 * RuntimeLostException} with the reason. Answers are read by a daemon thread into a queue, so the
 * caller waits with a timeout and notices a dead child at once (end of stream).
 */
final class RuntimeChild implements AutoCloseable {
  /** How long a child may take to start and open the runtime (a JVM start and loading OpenVINO on a busy machine). */
  static final Duration START_LIMIT = Duration.ofMinutes(2);

  private static final Pattern FATAL_SIGNAL = Pattern.compile("#\\s+(SIG[A-Z]+) \\(0x([0-9a-fA-F]+)\\)");
  private static final Object END = new Object();

  private final Process process;
  private final Path dir;
  private final SocketChannel channel;
  private final OutputStream out;
  private final BlockingQueue<Object> answers = new LinkedBlockingQueue<>();
  private final long pid;
  private final Optional<Path> archivePart;
  private long nextId = 1;
  /** Ends a write the child does not read by its deadline; made at the first such write. */
  private java.util.concurrent.ScheduledThreadPoolExecutor writeWatch;

  private RuntimeChild(Process process, Path dir, SocketChannel channel, long pid,
      Optional<Path> archivePart) throws IOException {
    this.process = process;
    this.dir = dir;
    this.channel = channel;
    this.pid = pid;
    this.archivePart = archivePart;
    this.out = new BufferedOutputStream(direct(channel), 1 << 16);
  }

  /**
   * Writes straight to the channel: a stream from {@link Channels#newOutputStream} takes the channel's blocking lock,
   * which the reader thread holds while it waits for an answer.
   */
  private static OutputStream direct(SocketChannel ch) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b, off, len);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }
    };
  }

  /** The command that starts the real child: this JVM's java with its class path and native settings. */
  static List<String> javaCommand(Path socket) {
    return javaCommand(RuntimeChildMain.class.getName(), List.of(socket.toString()));
  }

  /** This JVM's java running {@code mainClass} with {@code args}, its class path and native settings. */
  static List<String> javaCommand(String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse(
        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.add("-XX:+UseSerialGC");
    cmd.addAll(ChildClassArchive.options());
    // A test's fault injector among them: the child must obey it.
    System.getProperties().stringPropertyNames().stream()
        .filter(k -> k.equals("java.library.path") || k.startsWith("org.bytedeco.")
            || k.equals(RuntimeFaultInjector.PROPERTY) || k.equals(RuntimeFaultInjector.HANG_PROPERTY))
        .sorted().forEach(k -> cmd.add("-D" + k + "=" + System.getProperty(k)));
    // Absolute: the child runs in its own folder, where a relative class path entry would name nothing.
    String classPath = java.util.Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator, -1))
        .filter(e -> !e.isEmpty()).map(e -> Path.of(e).toAbsolutePath().toString())
        .collect(java.util.stream.Collectors.joining(File.pathSeparator));
    cmd.addAll(List.of("-cp", classPath, mainClass));
    cmd.addAll(args);
    return cmd;
  }

  /**
   * Starts a child with {@code command} (given the socket path) and waits for its hello.
   *
   * @throws OpenVinoException when it cannot start or cannot open the runtime, with its reason
   */
  static RuntimeChild start(java.util.function.Function<Path, List<String>> command, Duration limit) {
    Path dir = null;
    Process p = null;
    try {
      dir = RuntimeFolders.create(RuntimeFolders.root());
      Path socket = dir.resolve("s");
      try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
        server.bind(UnixDomainSocketAddress.of(socket));
        server.configureBlocking(false);
        File log = dir.resolve("child.log").toFile();
        List<String> cmd = command.apply(socket);
        p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log).start();
        SocketChannel ch = accept(server, p, System.nanoTime() + limit.toNanos(), dir);
        ch.configureBlocking(true);
        Files.deleteIfExists(socket);
        InputStream in = new BufferedInputStream(Channels.newInputStream(ch), 1 << 16);
        List<Object> hello = Wire.read(in);
        if (!"ok".equals(hello.get(1))) {
          throw new OpenVinoException("the runtime child could not open OpenVINO: " + hello.get(2));
        }
        RuntimeChild child = new RuntimeChild(p, dir, ch, (Long) hello.get(0), ChildClassArchive.partOf(cmd));
        RuntimeFolders.record(dir, child.pid); // a tune killed now leaves the folder to whoever sees both dead
        child.listen(in);
        return child;
      }
    } catch (IOException | RuntimeException e) {
      if (p != null) {
        p.destroyForcibly();
      }
      deleteQuietly(dir);
      throw e instanceof OpenVinoException o ? o : new OpenVinoException("cannot start the runtime child: " + e);
    }
  }

  private static SocketChannel accept(ServerSocketChannel server, Process p, long deadline, Path dir)
      throws IOException {
    while (true) {
      SocketChannel ch = server.accept();
      if (ch != null) {
        return ch;
      }
      if (!p.isAlive()) {
        throw new OpenVinoException("the runtime child ended at start (" + exitReason(p, dir) + ")");
      }
      if (System.nanoTime() > deadline) {
        throw new OpenVinoException("the runtime child did not start in " + START_LIMIT.toSeconds() + " s");
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new OpenVinoException("interrupted while starting the runtime child");
      }
    }
  }

  private void listen(InputStream in) {
    Thread reader = new Thread(() -> {
      try {
        while (true) {
          answers.add(Wire.read(in));
        }
      } catch (IOException | RuntimeException e) {
        answers.add(END);
      }
    }, "runtime-child-" + pid);
    reader.setDaemon(true);
    reader.start();
  }

  long pid() {
    return pid;
  }

  boolean alive() {
    return process.isAlive() && answers.isEmpty();
  }

  /**
   * Sends {@code [id, op, handle, args…]} and waits for its answer until {@code deadlineNanos}
   * ({@link System#nanoTime}; {@link Long#MAX_VALUE} for none).
   *
   * @param onTimeout the reason when the deadline passes ({@code no answer in 30 s …})
   * @return the answer's values after {@code "ok"}
   * @throws RuntimeLostException when the child died or did not answer in time (it is ended then)
   * @throws OpenVinoException for an error the child reported, as the same kind of exception
   */
  List<Object> call(long deadlineNanos, String onTimeout, String op, long handle, Object... args) {
    long id = nextId++;
    List<Object> request = new ArrayList<>(args.length + 3);
    request.addAll(List.of(id, op, handle));
    request.addAll(java.util.Arrays.asList(args));
    boolean late;
    try {
      late = send(deadlineNanos, request);
    } catch (IOException e) {
      throw lost();
    }
    if (late) {
      end(false);
      throw new RuntimeLostException(onTimeout);
    }
    while (true) {
      long wait = deadlineNanos == Long.MAX_VALUE ? TimeUnit.MILLISECONDS.toNanos(200)
          : Math.min(deadlineNanos - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(200));
      if (wait <= 0) {
        end(false);
        throw new RuntimeLostException(onTimeout);
      }
      Object a;
      try {
        a = answers.poll(wait, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        end(false);
        throw new RuntimeLostException("interrupted while waiting for the runtime");
      }
      if (a == END || (a == null && !process.isAlive() && answers.isEmpty())) {
        throw lost();
      }
      if (a instanceof List<?> answer && id == (Long) answer.get(0)) {
        return answerOf(answer);
      }
    }
  }

  /**
   * Writes {@code request} by {@code deadlineNanos}: a child that reads nothing (stopped or hung) fills the socket
   * with a large request, and the write would block past any deadline, so at the deadline the connection is closed.
   *
   * @return whether the deadline passed first (the connection is closed then)
   */
  private boolean send(long deadlineNanos, List<Object> request) throws IOException {
    if (deadlineNanos == Long.MAX_VALUE) {
      Wire.write(out, request);
      return false;
    }
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.ScheduledFuture<?> watch = writeWatch().schedule(() -> {
      if (done.compareAndSet(false, true)) {
        closeChannel(); // the blocked write fails
      }
    }, deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    try {
      Wire.write(out, request);
    } catch (IOException e) {
      if (!done.compareAndSet(false, true)) {
        return true;
      }
      throw e;
    } finally {
      watch.cancel(false);
    }
    return !done.compareAndSet(false, true);
  }

  private synchronized java.util.concurrent.ScheduledThreadPoolExecutor writeWatch() {
    if (writeWatch == null) {
      writeWatch = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "runtime-child-write-" + pid);
        t.setDaemon(true);
        return t;
      });
      writeWatch.setRemoveOnCancelPolicy(true);
    }
    return writeWatch;
  }

  private void closeChannel() {
    try {
      channel.close();
    } catch (IOException e) {
      // ending it anyway
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Object> answerOf(List<?> answer) {
    if ("ok".equals(answer.get(1))) {
      return (List<Object>) answer.subList(2, answer.size());
    }
    String kind = (String) answer.get(2);
    String message = (String) answer.get(3);
    throw switch (kind) {
      case "read" -> new OpenVinoReadException(message);
      case "openvino" -> new OpenVinoException(message);
      case "state" -> new IllegalStateException(message);
      default -> new OpenVinoException("in the runtime child: " + message);
    };
  }

  /** The child ended during a call: waits for its exit (briefly) and says why. */
  private RuntimeLostException lost() {
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    String reason = exitReason(process, dir);
    end(false);
    return new RuntimeLostException(reason);
  }

  /** {@code crashed the runtime (signal 11, SIGSEGV)} from the JVM's crash banner, else from the exit status. */
  static String exitReason(Process p, Path dir) {
    if (p.isAlive()) {
      return "the runtime child closed its connection";
    }
    String log = "";
    try {
      log = Files.readString(dir.resolve("child.log"), StandardCharsets.ISO_8859_1);
    } catch (IOException | RuntimeException e) {
      // no log: the exit status alone says it
    }
    return exitReason(p.exitValue(), log);
  }

  /** The reason of exit status {@code status} (128 + n: signal n) and the child's output {@code log}. */
  static String exitReason(int status, String log) {
    Matcher m = FATAL_SIGNAL.matcher(log);
    if (m.find()) {
      return "crashed the runtime (signal " + Integer.parseInt(m.group(2), 16) + ", " + m.group(1) + ")";
    }
    if (status > 128) {
      return "crashed the runtime (signal " + (status - 128) + ")";
    }
    return "the runtime child exited with status " + status;
  }

  /**
   * Ends the child (SIGKILL: also ends a stopped one) and removes its folder. A child writing the class-data
   * archive is first let end by itself (it does once the socket closes) so that it writes it.
   */
  @Override
  public void close() {
    end(true);
  }

  private void end(boolean letWrite) {
    closeChannel();
    synchronized (this) {
      if (writeWatch != null) {
        writeWatch.shutdownNow();
      }
    }
    try {
      if (letWrite && archivePart.isPresent()) {
        process.waitFor(10, TimeUnit.SECONDS);
      }
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    archivePart.ifPresent(part -> ChildClassArchive.settle(part, process.isAlive() ? -1 : process.exitValue()));
    deleteQuietly(dir);
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // a temporary folder left behind is harmless
    }
  }
}
