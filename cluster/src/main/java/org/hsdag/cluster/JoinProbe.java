package org.hsdag.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Why a member could not join: probes the member it tried to join over plain TCP, then with a TLS
 * 1.3 handshake under this member's own key and trust stores, and names the first step that fails
 * (nothing listening, no route, certificates of another fleet) instead of guessing.
 */
final class JoinProbe {
  private static final int PATIENCE_MS = 3_000;

  private JoinProbe() {}

  /**
   * The cause, phrased for the end of "could not join HOST:PORT ...", or null when {@code seed}
   * listens and accepts this member's certificate (the cause is then in the cluster, not the link).
   */
  static String diagnose(ClusterSettings.HostPort seed, TlsFiles tls) {
    InetSocketAddress at;
    try {
      at = new InetSocketAddress(java.net.InetAddress.getByName(seed.host()), seed.port());
    } catch (UnknownHostException e) {
      return "unknown host " + seed.host();
    }
    try (Socket plain = new Socket()) {
      plain.connect(at, PATIENCE_MS);
    } catch (ConnectException e) {
      return "nothing listens at " + seed + " (connection refused): start the first worker there, with its own --bind"
          + " address as --join";
    } catch (SocketTimeoutException e) {
      return "no answer from " + seed + " within " + PATIENCE_MS / 1000 + " s (a firewall, or not its address?)";
    } catch (IOException e) {
      return "cannot connect to " + seed + " (" + e.getMessage() + ")";
    }
    if (tls == null) {
      return "it listens, but this member has no TLS material";
    }
    String tlsProblem = handshake(at, tls);
    if (tlsProblem != null) {
      return "the TLS handshake with " + seed + " failed (" + tlsProblem + "): its certificates and this member's do"
          + " not come from the same 'hsdag cluster init'";
    }
    return null;
  }

  /** {@link #diagnose}, or what a worker that reached a member accepting its certificate should check. */
  static String workerCause(ClusterSettings.HostPort seed, TlsFiles tls) {
    String cause = diagnose(seed, tls);
    return cause != null ? cause
        : seed + " accepts this worker's certificate but did not let it in: is that member itself in a cluster "
            + "(the first worker names its own --bind address as --join), and does it still list an earlier member "
            + "at this address (it is downed some seconds after becoming unreachable; try again)?";
  }

  /** Null when a mutually authenticated TLS 1.3 session with {@code at} holds, else the failure. */
  private static String handshake(InetSocketAddress at, TlsFiles tls) {
    try (SSLSocket s = (SSLSocket) context(tls).getSocketFactory().createSocket()) {
      s.connect(at, PATIENCE_MS);
      s.setSoTimeout(PATIENCE_MS);
      s.setEnabledProtocols(new String[] {"TLSv1.3"});
      s.startHandshake();
      // Under TLS 1.3 the server judges the client's certificate after the client's handshake ended: a refusal
      // arrives as an alert on the first read. A member that accepted us just waits for Pekko's frames.
      InputStream in = s.getInputStream();
      return in.read() < 0 ? "the other side closed the connection" : null;
    } catch (SocketTimeoutException e) {
      return null;
    } catch (SSLException e) {
      return e.getMessage();
    } catch (IOException | GeneralSecurityException e) {
      return e.toString();
    }
  }

  private static SSLContext context(TlsFiles tls) throws IOException, GeneralSecurityException {
    char[] pw = tls.password().toCharArray();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(tls.keyStore())) {
      keys.load(in, pw);
    }
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(tls.trustStore())) {
      trust.load(in, pw);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, pw);
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLSv1.3");
    ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return ctx;
  }
}
