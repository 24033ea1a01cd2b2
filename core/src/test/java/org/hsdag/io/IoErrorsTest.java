package org.hsdag.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoErrorsTest {
  @Test
  void aChannelErrorWithoutAPathGetsTheFile() {
    // What FileChannel.write throws on a file made immutable while open: no path at all.
    FileSystemException e = IoErrors.naming(Path.of("runs/r/log.jsonl"), new IOException("Operation not permitted"));
    assertEquals("runs/r/log.jsonl: Operation not permitted", IoErrors.describe(e));
  }

  @Test
  void typedErrorsKeepTheirTypeAndReadAsWords() {
    FileSystemException e = IoErrors.naming(Path.of("a/b"), new AccessDeniedException("a/.b.123.tmp"));
    assertTrue(e instanceof AccessDeniedException);
    assertEquals("a/b: permission denied", IoErrors.describe(e));
    assertEquals("x -> y: Operation not permitted",
        IoErrors.describe(new FileSystemException("x", "y", "Operation not permitted")));
  }

  @Test
  void atomicWritesReportTheTargetNotTheirTemporaryFile(@TempDir Path dir) {
    Path target = dir.resolve("manifest.json");
    IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(target, out -> {
      throw new IOException("Operation not permitted");
    }));
    assertEquals(target + ": Operation not permitted", IoErrors.describe(e));
    assertFalse(Files.exists(target), "nothing replaced");
    assertEquals(0, dir.toFile().list().length, "no temporary file left behind");
  }
}
