package org.hsdag.tune;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.io.IoErrors;

/**
 * The append-only {@code log.jsonl} of a run: one JSON record per line, each line forced to disk
 * before the next measurement starts, so a crash loses at most the line being written.
 *
 * <p>{@link #read} tolerates a torn last line (a kill during a write) and reports it; a damaged
 * line anywhere else is an error, because later records would then replay against the wrong
 * history. {@link #openForAppend} cuts a torn tail off before appending so the file stays valid
 * JSON lines.
 */
public final class RunLog implements Closeable {
  /** The JSON mapping of every run file (snake_case keys). */
  static final ObjectMapper JSON = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final FileChannel channel;
  private final Path file;

  private RunLog(FileChannel channel, Path file) {
    this.channel = channel;
    this.file = file;
  }

  /**
   * What a log holds.
   *
   * @param records the valid records in file order
   * @param validBytes length of the valid prefix of the file
   * @param tornBytes bytes of a torn last line after it (0 when the file ends cleanly)
   */
  public record Contents(List<LogRecord> records, long validBytes, long tornBytes) {
    public Contents {
      records = List.copyOf(records);
    }
  }

  /** Reads every valid record; a missing file reads as empty. */
  public static Contents read(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new Contents(List.of(), 0, 0);
    }
    List<LogRecord> records = new ArrayList<>();
    int start = 0;
    int lineNo = 0;
    long valid = 0;
    while (start < bytes.length) {
      int end = start;
      while (end < bytes.length && bytes[end] != '\n') {
        end++;
      }
      lineNo++;
      boolean terminated = end < bytes.length;
      String line = new String(bytes, start, end - start, StandardCharsets.UTF_8).trim();
      if (!line.isEmpty()) {
        try {
          records.add(JSON.readValue(line, LogRecord.class));
        } catch (JsonProcessingException e) {
          if (!terminated || isOnlyWhitespaceAfter(bytes, end + 1)) {
            return new Contents(records, valid, bytes.length - valid);
          }
          throw new IOException(file + " line " + lineNo + " is damaged (" + e.getOriginalMessage()
              + "); only a torn last line can be skipped");
        }
      }
      valid = terminated ? end + 1 : end;
      start = end + 1;
    }
    return new Contents(records, valid, 0);
  }

  private static boolean isOnlyWhitespaceAfter(byte[] bytes, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (!Character.isWhitespace(bytes[i])) {
        return false;
      }
    }
    return true;
  }

  /** Opens {@code file} for appending, first cutting it to {@code validBytes} and ending it with a newline. */
  public static RunLog openForAppend(Path file, long validBytes) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      if (ch.size() > validBytes) {
        ch.truncate(validBytes);
      }
      ch.position(ch.size());
      if (ch.size() > 0) {
        ByteBuffer last = ByteBuffer.allocate(1);
        ch.read(last, ch.size() - 1);
        if (last.get(0) != '\n') {
          ch.write(ByteBuffer.wrap(new byte[] {'\n'}));
        }
      }
      ch.force(true);
      return new RunLog(ch, file);
    } catch (IOException e) {
      ch.close();
      throw IoErrors.naming(file, e);
    } catch (RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** Appends one record as one line and forces it to disk. */
  public void append(LogRecord record) throws IOException {
    byte[] line = (JSON.writeValueAsString(record) + "\n").getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.wrap(line);
    try {
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      channel.force(false);
    } catch (IOException e) {
      // A channel's errors carry no path ("Operation not permitted"): name the log.
      throw IoErrors.naming(file, e);
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
