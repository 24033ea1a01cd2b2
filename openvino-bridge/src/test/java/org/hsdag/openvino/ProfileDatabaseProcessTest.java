package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile database under several processes at once and a process killed with SIGKILL mid-write. */
class ProfileDatabaseProcessTest {
  private static final int PER_BATCH = 50;

  @TempDir
  Path tmp;

  private Process writer(Path db, String context, int batches) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        ProfileDatabaseWriter.class.getName(), db.toString(), context, Integer.toString(batches),
        Integer.toString(PER_BATCH)).redirectErrorStream(true).redirectOutput(tmp.resolve(context + ".log").toFile())
        .start();
  }

  @Test
  void twoWritersAtOnceLoseNothing() throws Exception {
    Path file = tmp.resolve("profiles.db");
    int batches = 40;
    Process a = writer(file, "a", batches);
    Process b = writer(file, "b", batches);
    // This process reads while they write.
    ProfileDatabase db = ProfileDatabase.at(file);
    while (a.isAlive() || b.isAlive()) {
      db.count(null);
      Thread.sleep(20);
    }
    assertEquals(0, a.waitFor(), java.nio.file.Files.readString(tmp.resolve("a.log")));
    assertEquals(0, b.waitFor(), java.nio.file.Files.readString(tmp.resolve("b.log")));
    assertEquals(batches * PER_BATCH, db.count("a"));
    assertEquals(batches * PER_BATCH, db.count("b"));
    assertEquals(Optional.of("{\"batch\":39}"), db.modelFit("b-39"));
    assertEquals(7.0, db.records("a", List.of("a-0-7")).get("a-0-7"), 1e-12);
    assertEquals(39049.0, db.records("b", List.of("b-39-49")).get("b-39-49"), 1e-12);
  }

  @Test
  void aWriterKilledMidWriteLeavesAUsableDatabase() throws Exception {
    Path file = tmp.resolve("profiles.db");
    ProfileDatabase db = ProfileDatabase.at(file);
    Process w = writer(file, "k", 0);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (db.count("k") < 5 * PER_BATCH && System.nanoTime() < deadline && w.isAlive()) {
      Thread.sleep(10);
    }
    assertTrue(w.isAlive(), "the writer still writes when it is killed: " + java.nio.file.Files.readString(
        tmp.resolve("k.log")));
    w.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no rollback by the process
    assertTrue(w.waitFor(30, TimeUnit.SECONDS));
    int kept = db.count("k");
    assertTrue(kept >= 5 * PER_BATCH, "committed batches stay: " + kept);
    assertEquals(0, kept % PER_BATCH, "a batch is all there or not at all: " + kept);
    // Still a database another process writes to and reads from.
    db.put("after", "after the kill", List.of(new ProfileDatabase.OpRecord("s", "Relu", 1.5)), "m");
    assertEquals(1.5, db.records("after", List.of("s")).get("s"), 1e-12);
    assertEquals(kept, db.count("k"));
  }
}
