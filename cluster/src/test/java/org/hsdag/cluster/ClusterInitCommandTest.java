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
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hsdag cluster init}: a CA, members signed by it, private passwords; existing members are kept. */
class ClusterInitCommandTest {
  @TempDir
  Path tmp;

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
