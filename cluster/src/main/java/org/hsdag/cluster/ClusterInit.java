package org.hsdag.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Writes a fleet's TLS material with the JDK's {@code keytool} (no extra library): a CA key pair in
 * {@code DIR/ca/} (keep it off the members), and per member a folder with a PKCS#12 key store (its
 * own EC key, certificate signed by the CA), a trust store holding only the CA certificate, and the
 * random password of both ({@code TlsFiles}). A member trusts exactly the certificates that CA signed.
 */
final class ClusterInit {
  static final String CA_DIR = "ca";
  private static final String VALIDITY_DAYS = "825";

  private final Path dir;
  private final Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
  private final SecureRandom random = new SecureRandom();

  ClusterInit(Path dir) {
    this.dir = dir;
  }

  /** A CA in {@code DIR/ca} (made once, reused after) and a folder for each member. */
  void write(List<String> members) throws IOException {
    Path ca = dir.resolve(CA_DIR);
    Files.createDirectories(ca);
    if (!Files.exists(ca.resolve(TlsFiles.KEY_STORE))) {
      String pw = newPassword(ca);
      keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=hsdag fleet CA",
          "-ext", "bc:c", "-validity", "3650", "-storetype", "PKCS12", "-keystore", ca.resolve(TlsFiles.KEY_STORE),
          "-storepass", pw, "-keypass", pw);
      keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.resolve(TlsFiles.KEY_STORE), "-storepass", pw,
          "-file", ca.resolve("ca.crt"));
    }
    String caPassword = Files.readString(ca.resolve(TlsFiles.PASSWORD), StandardCharsets.UTF_8).strip();
    for (String m : members) {
      member(m, ca, caPassword);
    }
  }

  private void member(String name, Path ca, String caPassword) throws IOException {
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*") || name.equals(CA_DIR)) {
      throw new org.hsdag.cli.UserInputException(
          "member name '" + name + "': use letters, digits, '.', '_' or '-' (not 'ca')");
    }
    Path m = dir.resolve(name);
    if (Files.exists(m.resolve(TlsFiles.KEY_STORE))) {
      throw new org.hsdag.cli.UserInputException(
          m + " already holds a member's key store; remove it to make a new one");
    }
    Files.createDirectories(m);
    String pw = newPassword(m);
    Path keys = m.resolve(TlsFiles.KEY_STORE);
    Path csr = m.resolve("member.csr");
    Path crt = m.resolve("member.crt");
    keytool("-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
        "-validity", VALIDITY_DAYS, "-storetype", "PKCS12", "-keystore", keys, "-storepass", pw, "-keypass", pw);
    keytool("-certreq", "-alias", "member", "-keystore", keys, "-storepass", pw, "-file", csr);
    keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.resolve(TlsFiles.KEY_STORE), "-storepass", caPassword,
        "-infile", csr, "-outfile", crt, "-validity", VALIDITY_DAYS, "-ext", "ku:c=digitalSignature,keyAgreement",
        "-ext", "eku=serverAuth,clientAuth");
    // The CA first, so that the signed reply is installed with its chain.
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", ca.resolve("ca.crt"), "-keystore", keys, "-storepass",
        pw);
    keytool("-importcert", "-alias", "member", "-file", crt, "-keystore", keys, "-storepass", pw);
    keytool("-delete", "-alias", "ca", "-keystore", keys, "-storepass", pw);
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", ca.resolve("ca.crt"), "-storetype", "PKCS12",
        "-keystore", m.resolve(TlsFiles.TRUST_STORE), "-storepass", pw);
    Files.delete(csr);
  }

  /** A fresh random password, written readable by the owner only. */
  private String newPassword(Path folder) throws IOException {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    String pw = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    Path file = folder.resolve(TlsFiles.PASSWORD);
    Files.writeString(file, pw + "\n", StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the folder's own permissions protect it.
    }
    return pw;
  }

  void keytool(Object... args) throws IOException {
    // A dozen short-lived JVMs per member: start-up settings that make each about three times quicker.
    List<String> cmd = new ArrayList<>(List.of(keytool.toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC",
        "-J-XX:-UsePerfData"));
    for (Object a : args) {
      cmd.add(a.toString());
    }
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
