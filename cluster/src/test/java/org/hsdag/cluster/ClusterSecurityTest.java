package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Only members with a certificate from the fleet's CA join; plain TCP is refused; only allowlisted JSON is read. */
@Timeout(300)
class ClusterSecurityTest {
  private static final Duration JOIN_PATIENCE = Duration.ofSeconds(8);

  @TempDir
  Path tmp;

  @Test
  void aSelfSignedMemberAndAPlainTcpMemberCannotJoin() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w2");
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, b -> b)) {
      Path rogue = selfSigned(fleet, "rogue");
      try (WorkerNode intruder = WorkerNode.start(ClusterSettings.of("127.0.0.1", 0, List.of(seed),
          List.of(WorkerNode.WORKER_ROLE), TlsFiles.in(rogue)), null, fleet.models, tmp.resolve("rogue.lock"),
          (s, shape, g, m) -> Fleet.sim(s, shape, g))) {
        assertFalse(intruder.awaitUp(JOIN_PATIENCE), "a member with a self-signed certificate joined");
      }
      try (WorkerNode plain = WorkerNode.start(ClusterSettings.of("127.0.0.1", 0, List.of(seed),
          List.of(WorkerNode.WORKER_ROLE), null), null, fleet.models, tmp.resolve("plain.lock"),
          (s, shape, g, m) -> Fleet.sim(s, shape, g))) {
        assertFalse(plain.awaitUp(JOIN_PATIENCE), "a plain-TCP member joined");
      }
      // A coordinator with a certificate outside the fleet finds no worker: an error, not a hang.
      CliRun run = CliRun
          .of(fleet.tuneArgs(tmp.resolve("rogue-run"), "--cluster", seed, "--cluster-tls", rogue.toString(),
              "--cluster-wait", "5s").toArray(String[]::new));
      assertEquals(2, run.exitCode(), run.err());
      assertTrue(run.err().contains("no worker answered"), run.err());
      assertTrue(run.err().contains("TLS handshake"), run.err());
      // Nothing ran: the folder keeps no manifest, so the same command can be retried.
      assertFalse(Files.exists(tmp.resolve("rogue-run/manifest.json")));
      assertFalse(Files.exists(tmp.resolve("rogue-run/objective.json")));
      // The fleet still works for a member of it.
      try (WorkerNode w2 = fleet.worker("w2", null, 0, seed, b -> b)) {
        assertTrue(w2.awaitUp(JOIN_PATIENCE));
      }
    }
  }

  @Test
  void plainBytesSentToAMemberGetNoAnswer() throws Exception {
    Fleet fleet = new Fleet(tmp, "w1");
    int port = Fleet.freePort();
    try (WorkerNode w1 = fleet.worker("w1", null, port, "127.0.0.1:" + port, b -> b);
        Socket s = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write("AKKA\u0000plain text is not TLS\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] answer = in.readNBytes(64);
      // A TLS server answers a non-TLS record with at most an alert, then closes: never a Pekko frame.
      assertTrue(answer.length == 0 || answer[0] == 0x15, "answer: " + new String(answer, StandardCharsets.ISO_8859_1));
    }
  }

  @Test
  void onlyAllowlistedRecordsAreReadAndTheyRoundTrip() throws Exception {
    JsonSerializer json = new JsonSerializer();
    WireMessage.MeasureTask task = WireMessage.MeasureTask
        .prototype("abc", "sim", "paper", 7, null, List.of("CPU", "GPU.1"),
            new int[] {0, 1, 1}, 42, MeasurementProtocol.PAPER)
        .sent(9, 2, "pekko://hsdag@127.0.0.1:1/user", 77);
    WireMessage.MeasureTask back = (WireMessage.MeasureTask) json.fromBinary(json.toBinary(task), json.manifest(task));
    assertEquals(task.devices(), back.devices());
    assertEquals(List.of(0, 1, 1), java.util.Arrays.stream(back.deviceOf()).boxed().toList());
    assertEquals(task.protocol(), back.protocol());
    assertEquals(task.key(), back.key());
    WireMessage.TaskDone failed = new WireMessage.TaskDone(9, 2, 77, "w", Measurement.failed("no", "sim", "paper"),
        null);
    WireMessage.TaskDone failedBack = (WireMessage.TaskDone) json.fromBinary(json.toBinary(failed),
        json.manifest(failed));
    assertTrue(Double.isNaN(failedBack.measurement().latencyMillis()));
    assertEquals("no", failedBack.measurement().reason());
    assertThrows(NotSerializableException.class, () -> json.fromBinary("{}".getBytes(StandardCharsets.UTF_8),
        "ProcessBuilder"));
    assertThrows(IllegalArgumentException.class, () -> json.toBinary("a string"));
  }

  /** A member folder whose certificate is self-signed, trusting the fleet's CA. */
  private Path selfSigned(Fleet fleet, String name) throws Exception {
    Path dir = tmp.resolve(name);
    Files.createDirectories(dir);
    String pw = "rogue-password";
    Files.writeString(dir.resolve(TlsFiles.PASSWORD), pw);
    ClusterInit tool = new ClusterInit(dir);
    tool.keytool("-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=" + name + ",OU=" + CertificateRoles.COORDINATOR, // any role: a stranger writes what it likes
        "-validity", "30", "-storetype", "PKCS12", "-keystore", dir.resolve(TlsFiles.KEY_STORE), "-storepass", pw,
        "-keypass", pw);
    tool.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", fleet.certs.resolve("ca/ca.crt"), "-storetype",
        "PKCS12", "-keystore", dir.resolve(TlsFiles.TRUST_STORE), "-storepass", pw);
    return dir;
  }
}
