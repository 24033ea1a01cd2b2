package org.hsdag.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Writes a fleet's TLS material with the JDK's {@code keytool} (no extra library): a CA key pair in
 * {@code DIR/ca/} (keep it off the members), and per member a folder with a PKCS#12 key store (its
 * own EC key, certificate signed by the CA), a trust store holding only the CA certificate, and the
 * random password of both ({@code TlsFiles}). A member trusts exactly the certificates that CA signed.
 *
 * <p>No secret is ever on a command line (where {@code ps} shows it): keytool reads every password
 * from the password file ({@code -storepass:file}, {@code -keypass:file}). Every folder is created
 * owner-only (0700) and every file owner-only (0600) from its first byte, whatever the umask: the
 * password with its permissions given at creation, and what keytool writes (key stores, the request,
 * certificates) under a umask of 077 (Java cannot set a child's umask, so keytool starts through
 * {@code /bin/sh}, which sets it and then execs keytool with the arguments unchanged).
 */
final class ClusterInit {
  static final String CA_DIR = "ca";
  private static final String VALIDITY_DAYS = "825";

  private final Path dir;
  private final Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
  private static final FileAttribute<?> OWNER_FILE = PosixFilePermissions
      .asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final FileAttribute<?> OWNER_FOLDER = PosixFilePermissions
      .asFileAttribute(PosixFilePermissions.fromString("rwx------"));

  private static final Path SHELL = Path.of("/bin/sh");

  private final SecureRandom random = new SecureRandom();

  private final Consumer<List<String>> commandLines;

  ClusterInit(Path dir) {
    this(dir, c -> {});
  }

  /** With {@code commandLines} told each keytool command line before it runs (tests look for secrets there). */
  ClusterInit(Path dir, Consumer<List<String>> commandLines) {
    this.dir = dir;
    this.commandLines = commandLines;
  }

  /** The members (none named {@code coordinator} is a worker). */
  void write(List<String> members) throws IOException {
    write(members, List.of("coordinator"));
  }

  /**
   * A CA in {@code DIR/ca} (made once, reused after) and a folder for each member; the certificate of each
   * member named in {@code coordinators} says coordinator, every other one says worker.
   */
  void write(List<String> members, List<String> coordinators) throws IOException {
    if (!Files.isDirectory(dir)) {
      // A new fleet folder is owner-only; an existing one (perhaps ".") keeps its permissions.
      Path parent = dir.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      ownerOnlyFolder(dir);
    }
    Path ca = dir.resolve(CA_DIR);
    ownerOnlyFolder(ca);
    Path caPw = ca.resolve(TlsFiles.PASSWORD);
    if (!Files.exists(ca.resolve(TlsFiles.KEY_STORE))) {
      Files.deleteIfExists(caPw); // a leftover of an init that stopped half-way
      newPassword(ca);
      keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=hsdag fleet CA",
          "-ext", "bc:c", "-validity", "3650", "-storetype", "PKCS12", "-keystore", ca.resolve(TlsFiles.KEY_STORE),
          "-storepass:file", caPw, "-keypass:file", caPw);
      ownerOnly(ca.resolve(TlsFiles.KEY_STORE));
      keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.resolve(TlsFiles.KEY_STORE), "-storepass:file",
          caPw, "-file", ca.resolve("ca.crt"));
    }
    for (String m : members) {
      member(m, coordinators.contains(m) ? CertificateRoles.COORDINATOR : CertificateRoles.WORKER, ca, caPw);
    }
  }

  private void member(String name, String role, Path ca, Path caPw) throws IOException {
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*") || name.equals(CA_DIR)) {
      throw new org.hsdag.cli.UserInputException(
          "member name '" + name + "': use letters, digits, '.', '_' or '-' (not 'ca')");
    }
    Path m = dir.resolve(name);
    if (Files.exists(m.resolve(TlsFiles.KEY_STORE))) {
      throw new org.hsdag.cli.UserInputException(
          m + " already holds a member's key store; remove it to make a new one");
    }
    ownerOnlyFolder(m);
    Files.deleteIfExists(m.resolve(TlsFiles.PASSWORD));
    Path pw = newPassword(m);
    Path keys = m.resolve(TlsFiles.KEY_STORE);
    Path csr = m.resolve("member.csr");
    Path crt = m.resolve("member.crt");
    // The role is in the subject, which the CA signs: a member cannot change it.
    keytool("-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=" + name + ",OU=" + role,
        "-validity", VALIDITY_DAYS, "-storetype", "PKCS12", "-keystore", keys, "-storepass:file", pw, "-keypass:file",
        pw);
    ownerOnly(keys);
    keytool("-certreq", "-alias", "member", "-keystore", keys, "-storepass:file", pw, "-file", csr);
    keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.resolve(TlsFiles.KEY_STORE), "-storepass:file", caPw,
        "-infile", csr, "-outfile", crt, "-validity", VALIDITY_DAYS, "-ext", "ku:c=digitalSignature,keyAgreement",
        "-ext", "eku=serverAuth,clientAuth");
    // The CA first, so that the signed reply is installed with its chain.
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", ca.resolve("ca.crt"), "-keystore", keys,
        "-storepass:file", pw);
    keytool("-importcert", "-alias", "member", "-file", crt, "-keystore", keys, "-storepass:file", pw);
    keytool("-delete", "-alias", "ca", "-keystore", keys, "-storepass:file", pw);
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", ca.resolve("ca.crt"), "-storetype", "PKCS12",
        "-keystore", m.resolve(TlsFiles.TRUST_STORE), "-storepass:file", pw);
    ownerOnly(keys);
    ownerOnly(m.resolve(TlsFiles.TRUST_STORE));
    Files.delete(csr);
  }

  /** A fresh random password in a new file of {@code folder} that is owner-only from its first byte. */
  private Path newPassword(Path folder) throws IOException {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    String pw = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    Path file = folder.resolve(TlsFiles.PASSWORD);
    Set<OpenOption> create = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try (SeekableByteChannel ch = posix(folder) ? Files.newByteChannel(file, create, OWNER_FILE)
        : Files.newByteChannel(file, create)) {
      ch.write(ByteBuffer.wrap((pw + "\n").getBytes(StandardCharsets.UTF_8)));
    }
    return file;
  }

  /** {@code folder} (and missing parents) created owner-only (0700), or made so if it exists. */
  static void ownerOnlyFolder(Path folder) throws IOException {
    Path parent = folder.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (!Files.isDirectory(folder)) {
      if (posix(parent)) {
        Files.createDirectory(folder, OWNER_FOLDER);
      } else {
        Files.createDirectory(folder);
      }
    }
    if (posix(folder)) {
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    }
  }

  private static void ownerOnly(Path file) throws IOException {
    if (posix(file)) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
  }

  private static boolean posix(Path p) {
    return p != null && p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  void keytool(Object... args) throws IOException {
    // A dozen short-lived JVMs per member: start-up settings that make each about three times quicker.
    List<String> cmd = new ArrayList<>();
    if (posix(dir.toAbsolutePath()) && Files.isExecutable(SHELL)) {
      // "$0" "$@": keytool and its arguments pass through the shell as they are, never parsed by it.
      cmd.addAll(List.of(SHELL.toString(), "-c", "umask 077 && exec \"$0\" \"$@\""));
    }
    cmd.addAll(List.of(keytool.toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-XX:-UsePerfData"));
    for (Object a : args) {
      cmd.add(a.toString());
    }
    commandLines.accept(List.copyOf(cmd));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("keytool " + args[0] + " failed: " + output.strip());
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running keytool", e);
    }
  }
}
