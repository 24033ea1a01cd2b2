package org.hsdag.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
