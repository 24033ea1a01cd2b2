package org.hsdag.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Locale;
import org.hsdag.cli.UserInputException;

/**
 * One member's TLS material as {@code hsdag cluster init} writes it: a PKCS#12 key store with the
 * member's key and its certificate signed by the fleet's CA, a trust store holding only that CA,
 * and the stores' password.
 */
public record TlsFiles(Path keyStore, Path trustStore, String password) {
  public static final String KEY_STORE = "member.p12";
  public static final String TRUST_STORE = "trust.p12";
  public static final String PASSWORD = "password";

  @Override
  public String toString() {
    return "TlsFiles[" + keyStore + ", " + trustStore + "]";
  }

  /**
   * This member's folder, checked to hold a certificate with {@code role} ({@link CertificateRoles}); a
   * certificate of no role or another one is bad input.
   */
  static TlsFiles forRole(Path dir, CertificateRoles.Role role, String option) {
    TlsFiles files = in(dir);
    CertificateRoles.Role has;
    try (var in = Files.newInputStream(files.keyStore())) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, files.password().toCharArray());
      has = keys.getCertificate("member") instanceof X509Certificate c ? CertificateRoles.roleOf(c)
          : CertificateRoles.Role.NONE;
    } catch (IOException | GeneralSecurityException e) {
      throw new UserInputException(files.keyStore() + ": unreadable (" + e.getMessage() + ")");
    }
    if (has == CertificateRoles.Role.NONE) {
      throw new UserInputException(option + " " + dir + ": its certificate carries no role (made by an older "
          + "'hsdag cluster init'); re-run cluster init for the fleet");
    }
    if (has != role) {
      throw new UserInputException(option + " " + dir + ": its certificate is a " + has.name().toLowerCase(Locale.ROOT)
          + "'s; use a " + role.name().toLowerCase(Locale.ROOT) + "'s folder (cluster init --coordinators)");
    }
    return files;
  }

  /** The material in {@code dir}; a missing file is bad input that names it. */
  public static TlsFiles in(Path dir) {
    for (String f : new String[] {KEY_STORE, TRUST_STORE, PASSWORD}) {
      if (!Files.isReadable(dir.resolve(f))) {
        throw new UserInputException(dir.resolve(f) + ": not found (make a member's folder with 'hsdag cluster init')");
      }
    }
    try {
      return new TlsFiles(dir.resolve(KEY_STORE), dir.resolve(TRUST_STORE),
          Files.readString(dir.resolve(PASSWORD), StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      throw new UserInputException(dir.resolve(PASSWORD) + ": unreadable (" + e.getMessage() + ")");
    }
  }
}
