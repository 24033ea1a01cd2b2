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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.io.IoErrors;

/**
 * The append-only {@code log.jsonl} of a run: one JSON record per line, written before {@link #append}
 * returns (so before the measurement is reported: a killed tune loses at most the line being
 * written) and forced to disk by a background thread right after, so the tune does not wait a disk
 * flush per record; an OS crash or power loss loses at most the lines written since the last flush
 * (milliseconds). {@link #close} and {@link #sync} force at once.
 *
 * <p>{@link #read} tolerates a torn last line (a kill during a write) and reports it; a damaged
 * line anywhere else is an error, because later records would then replay against the wrong
 * history. {@link #openForAppend} cuts a torn tail off before appending so the file stays valid
 * JSON lines.
 *
 * <p>Each line ends with a {@code "chain"} field: a hash of the line's text and of the previous
 * line's chain. {@link #read} recomputes it, so a line edited by hand (a latency made smaller, an
 * assignment changed) or damaged on disk is refused with its line number instead of replayed into
 * a wrong result. It guards against accidents and edits, not against someone who recomputes it.
 */
public final class RunLog implements Closeable {
  /** The JSON mapping of every run file (snake_case keys). */
  static final ObjectMapper JSON = org.hsdag.io.JsonFiles.mapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private static final String CHAIN_FIELD = ",\"chain\":\"";
  private static final Pattern CHAINED = Pattern.compile("^(\\{.*),\"chain\":\"([0-9a-f]{32})\"}$");

  private final FileChannel channel;
  private final Path file;
  private String chain;
  private final RunLogSync sync;

  private RunLog(FileChannel channel, Path file, String chain) {
    this.channel = channel;
    this.file = file;
    this.chain = chain;
    this.sync = new RunLogSync(channel, file);
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
    String chain = "";
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
        LogRecord record;
        try {
          record = JSON.readValue(line, LogRecord.class);
        } catch (JsonProcessingException e) {
          if (!terminated || isOnlyWhitespaceAfter(bytes, end + 1)) {
            return new Contents(records, valid, bytes.length - valid);
          }
          throw new DamagedRunFileException(file, lineNo, "is not valid JSON (" + e.getOriginalMessage()
              + "); only a torn last line can be skipped");
        }
        Matcher m = CHAINED.matcher(line);
        if (!m.matches()) {
          throw new DamagedRunFileException(file, lineNo, "has no checksum (edited, or written by an older hsdag)");
        }
        String expected = chain(chain, m.group(1) + "}");
        if (!expected.equals(m.group(2))) {
          throw new DamagedRunFileException(file, lineNo,
              "was changed after it was written (its checksum does not match)");
        }
        chain = expected;
        records.add(record);
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
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
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
      return new RunLog(ch, file, lastChain(ch));
    } catch (IOException e) {
      ch.close();
      throw IoErrors.naming(file, e);
    } catch (RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** The chain of the file's last line ("" for an empty file); the file was read and verified before. */
  private static String lastChain(FileChannel ch) throws IOException {
    if (ch.size() == 0) {
      return "";
    }
    ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(ch.size()));
    while (all.hasRemaining() && ch.read(all, all.position()) >= 0) {
      // read until full
    }
    String text = new String(all.array(), StandardCharsets.UTF_8).stripTrailing();
    String last = text.substring(text.lastIndexOf('\n') + 1).trim();
    Matcher m = CHAINED.matcher(last);
    return m.matches() ? m.group(2) : "";
  }

  /** The chain of a line whose text without the chain field is {@code body}, after {@code previous}. */
  private static String chain(String previous, String body) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(previous.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) '\n');
      sha.update(body.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha.digest(), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** Appends one record as one line, chained to the one before; a background thread forces it to disk. */
  public void append(LogRecord record) throws IOException {
    sync.rethrow();
    String body = JSON.writeValueAsString(record);
    String next = chain(chain, body);
    byte[] line = (body.substring(0, body.length() - 1) + CHAIN_FIELD + next + "\"}\n")
        .getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.wrap(line);
    try {
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      chain = next;
      sync.request();
    } catch (IOException e) {
      // A channel's errors carry no path ("Operation not permitted"): name the log.
      throw IoErrors.naming(file, e);
    }
  }

  /** The log's length now, a point {@link #cutBackTo} can return to. */
  public long size() throws IOException {
    return channel.size();
  }

  /** Drops everything appended after {@code size} (a session that was refused leaves the log as it found it). */
  public void cutBackTo(long size) throws IOException {
    channel.truncate(size);
    channel.force(true);
  }

  /** Forces every line appended so far to disk now. */
  public void sync() throws IOException {
    sync.now();
  }

  /** Forces what was appended, then closes the file. */
  @Override
  public void close() throws IOException {
    try {
      sync.close();
    } finally {
      channel.close();
    }
  }
}
