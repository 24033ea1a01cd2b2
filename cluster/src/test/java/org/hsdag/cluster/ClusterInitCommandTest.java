package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.cli.CliChild;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hsdag cluster init}: a CA, members signed by it, private passwords; existing members are kept. */
class ClusterInitCommandTest {
  @TempDir
  Path tmp;

  @Test
  void aFolderWhoseCertificateCarriesNoRoleIsRefusedWithOneLine() throws Exception {
    Path dir = tmp.resolve("old");
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.writeString(dir.resolve(TlsFiles.PASSWORD), "old-password");
    ClusterInit tool = new ClusterInit(dir);
    // What an older 'cluster init' wrote: a subject with the member's name only.
    tool.keytool("-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=m1",
        "-validity", "30", "-storetype", "PKCS12", "-keystore", dir.resolve(TlsFiles.KEY_STORE), "-storepass",
        "old-password", "-keypass", "old-password");
    java.nio.file.Files.copy(dir.resolve(TlsFiles.KEY_STORE), dir.resolve(TlsFiles.TRUST_STORE));
    CliRun run = CliRun.of("worker", "--join", "127.0.0.1:1", "--bind", "127.0.0.1:0", "--tls", dir.toString());
    assertEquals(2, run.exitCode(), run.err());
    assertTrue(run.err().contains("its certificate carries no role"), run.err());
    assertTrue(run.err().contains("re-run cluster init"), run.err());
    assertEquals(1, run.err().strip().lines().count(), run.err());
  }

  @Test
  void writesACaAndMembersSignedByItAndRefusesToOverwriteAMember() throws Exception {
    Path dir = tmp.resolve("fleet");
    CliRun run = CliRun.of("cluster", "init", dir.toString(), "--members", "coordinator,m1");
    assertEquals(0, run.exitCode(), run.err());
    TlsFiles m1 = TlsFiles.in(dir.resolve("m1"));
    KeyStore keys = load(m1.keyStore(), m1.password());
    KeyStore trust = load(m1.trustStore(), m1.password());
    X509Certificate ca = (X509Certificate) trust.getCertificate("ca");
    X509Certificate member = (X509Certificate) keys.getCertificate("member");
    member.verify(ca.getPublicKey());
    assertEquals(1, java.util.Collections.list(trust.aliases()).size(), "the trust store holds only the CA");
    assertTrue(keys.isKeyEntry("member"));
    assertEquals(java.util.Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
        Files.getPosixFilePermissions(dir.resolve("m1").resolve(TlsFiles.PASSWORD)));
    assertFalse(Files.exists(dir.resolve("m1/member.csr")));

    assertEquals(CertificateRoles.Role.WORKER, CertificateRoles.roleOf(member));
    TlsFiles c = TlsFiles.in(dir.resolve("coordinator"));
    assertEquals(CertificateRoles.Role.COORDINATOR,
        CertificateRoles.roleOf((X509Certificate) load(c.keyStore(), c.password()).getCertificate("member")));
    CliRun asWorker = CliRun.of("worker", "--join", "127.0.0.1:1", "--bind", "127.0.0.1:0", "--tls",
        dir.resolve("coordinator").toString());
    assertEquals(2, asWorker.exitCode(), asWorker.err());
    assertTrue(asWorker.err().contains("its certificate is a coordinator's; use a worker's folder"), asWorker.err());

    CliRun again = CliRun.of("cluster", "init", dir.toString(), "--members", "m1");
    assertEquals(2, again.exitCode(), again.err());
    assertTrue(again.err().contains("already holds a member's key store"), again.err());
    CliRun more = CliRun.of("cluster", "init", dir.toString(), "--members", "m2");
    assertEquals(0, more.exitCode(), more.err());
    TlsFiles m2 = TlsFiles.in(dir.resolve("m2"));
    load(m2.keyStore(), m2.password()).getCertificate("member").verify(ca.getPublicKey());
  }

  @Test
  void noSecretOnAKeytoolCommandLineAndEverySecretOwnerOnly() throws Exception {
    Path dir = tmp.resolve("fleet");
    List<List<String>> lines = new ArrayList<>();
    new ClusterInit(dir, lines::add).write(List.of("m1", "m2"));
    List<String> secrets = new ArrayList<>();
    for (String folder : List.of(ClusterInit.CA_DIR, "m1", "m2")) {
      Path f = dir.resolve(folder);
      secrets.add(Files.readString(f.resolve(TlsFiles.PASSWORD)).strip());
      assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(f), folder);
      assertEquals(PosixFilePermissions.fromString("rw-------"),
          Files.getPosixFilePermissions(f.resolve(TlsFiles.PASSWORD)), folder);
      assertEquals(PosixFilePermissions.fromString("rw-------"),
          Files.getPosixFilePermissions(f.resolve(TlsFiles.KEY_STORE)), folder);
    }
    assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(dir));
    assertTrue(lines.size() > 10, "keytool ran " + lines.size() + " times");
    for (List<String> line : lines) {
      for (String secret : secrets) {
        assertFalse(String.join(" ", line).contains(secret), "a password on the command line: " + line);
      }
      assertFalse(line.contains("-storepass") || line.contains("-keypass"), line.toString());
    }
  }

  @Test
  void underUmask000NoFileIsEverReadableByOthers() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh");
    Path dir = tmp.resolve("fleet");
    List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "umask 000 && exec \"$0\" \"$@\""));
    cmd.addAll(CliChild.command(List.of(), List.of("cluster", "init", dir.toString(), "--members", "coordinator,m1")));
    Process init = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("console").toFile())
        .start();
    java.util.Set<String> exposed = new java.util.TreeSet<>();
    java.util.Set<String> seen = new java.util.TreeSet<>();
    // A watcher polling every file's mode while init runs (a file readable by others for a moment is caught).
    while (init.isAlive()) {
      exposedFiles(dir, exposed, seen);
    }
    exposedFiles(dir, exposed, seen);
    assertEquals(0, init.waitFor(), Files.readString(tmp.resolve("console")));
    assertEquals(java.util.Set.of(), exposed);
    assertTrue(seen.contains("m1/" + TlsFiles.KEY_STORE) && seen.contains("ca/ca.crt"), seen.toString());
    // Step by step in this JVM too (its own umask): before each keytool run, every file written so far.
    Path again = tmp.resolve("again");
    new ClusterInit(again, line -> exposedFiles(again, exposed, seen)).write(List.of("m1"));
    exposedFiles(again, exposed, seen);
    assertEquals(java.util.Set.of(), exposed);
  }

  /** Adds to {@code exposed} each file or folder under {@code dir} with a permission for group or others. */
  private static void exposedFiles(Path dir, java.util.Set<String> exposed, java.util.Set<String> seen) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (var files = Files.walk(dir)) {
      files.forEach(f -> {
        try {
          var perms = Files.getPosixFilePermissions(f);
          seen.add(dir.relativize(f).toString());
          if (perms.stream().anyMatch(x -> !x.name().startsWith("OWNER_"))) {
            exposed.add(dir.relativize(f) + " " + PosixFilePermissions.toString(perms));
          }
        } catch (java.io.IOException e) {
          // Deleted between listing and reading (the certificate request): nothing to check.
        }
      });
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      // A folder changed while it was walked: the next poll sees it.
    }
  }

  @Test
  void aWildcardBindAddressIsBadInput() {
    CliRun run = CliRun.of("worker", "--join", "127.0.0.1:1", "--bind", "0.0.0.0:25520", "--tls", tmp.toString());
    assertEquals(2, run.exitCode(), run.err());
    assertTrue(run.err().contains("not an address other machines can reach"), run.err());
  }

  private static KeyStore load(Path file, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(file)) {
      store.load(in, password.toCharArray());
    }
    return store;
  }
}
