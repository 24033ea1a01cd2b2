package org.hsdag.ir;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decodes XML bytes for the StAX parser. The JDK parser, given bytes, prints its own
 * {@code [Fatal Error]} line to {@code System.err} on a bad byte sequence before throwing; decoding
 * here instead turns that into one {@link BadEncodingException} naming the line and byte.
 *
 * <p>The charset follows XML's rules as pugixml (OpenVINO's reader) applies them: a byte-order
 * mark, else the declaration's {@code encoding}, else UTF-8. Decoding is strict: a byte that is
 * not valid in the charset is an error, never a replacement character.
 */
final class XmlTextReader extends Reader {
  private static final Pattern DECLARED = Pattern
      .compile("^<\\?xml[^>]*?encoding\\s*=\\s*[\"']([A-Za-z0-9._:-]+)[\"']");

  /** A byte sequence the charset cannot decode; the message is one line. */
  static final class BadEncodingException extends CharacterCodingException {
    private static final long serialVersionUID = 1L;
    private final int line;
    private final String message;

    BadEncodingException(int line, String message) {
      this.line = line;
      this.message = message;
    }

    int line() {
      return line;
    }

    @Override
    public String getMessage() {
      return message;
    }
  }

  private final InputStream in;
  private final CharsetDecoder decoder;
  private final boolean countLines;
  private final ByteBuffer bytes = ByteBuffer.allocate(1 << 16);
  private long consumed;
  private int newlines;
  private boolean eof;
  private boolean flushed;
  private final char[] pair = new char[2];
  private int pending = -1;

  private XmlTextReader(InputStream in, Charset charset, byte[] prefix) {
    this.in = in;
    this.decoder = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    // A '\n' byte is a line end in every ASCII-compatible charset; not so in UTF-16/32.
    this.countLines = charset.newEncoder().maxBytesPerChar() <= 1 || charset.equals(StandardCharsets.UTF_8);
    bytes.put(prefix);
    bytes.flip();
  }

  /**
   * Opens {@code in} as text.
   *
   * @throws BadEncodingException when the declared encoding is unknown
   */
  static XmlTextReader open(InputStream in) throws IOException {
    byte[] head = in.readNBytes(256);
    int skip = 0;
    Charset cs;
    if (head.length >= 3 && (head[0] & 0xff) == 0xEF && (head[1] & 0xff) == 0xBB && (head[2] & 0xff) == 0xBF) {
      cs = StandardCharsets.UTF_8;
      skip = 3;
    } else if (head.length >= 2 && (head[0] & 0xff) == 0xFE && (head[1] & 0xff) == 0xFF) {
      cs = StandardCharsets.UTF_16BE;
      skip = 2;
    } else if (head.length >= 2 && (head[0] & 0xff) == 0xFF && (head[1] & 0xff) == 0xFE) {
      cs = StandardCharsets.UTF_16LE;
      skip = 2;
    } else {
      cs = declared(head);
    }
    byte[] prefix = new byte[head.length - skip];
    System.arraycopy(head, skip, prefix, 0, prefix.length);
    return new XmlTextReader(in, cs, prefix);
  }

  private static Charset declared(byte[] head) throws BadEncodingException {
    Matcher m = DECLARED.matcher(new String(head, StandardCharsets.ISO_8859_1));
    if (!m.find()) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(m.group(1));
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw new BadEncodingException(1, "declares the unknown encoding '" + m.group(1) + "'");
    }
  }

  @Override
  public int read(char[] buf, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (len == 1) {
      // A supplementary character needs two chars; decode into a pair and keep the second.
      if (pending >= 0) {
        buf[off] = (char) pending;
        pending = -1;
        return 1;
      }
      int n = read(pair, 0, 2);
      if (n > 0) {
        buf[off] = pair[0];
        pending = n == 2 ? pair[1] : -1;
        return 1;
      }
      return n;
    }
    CharBuffer out = CharBuffer.wrap(buf, off, len);
    if (pending >= 0) {
      out.put((char) pending);
      pending = -1;
    }
    while (!flushed) {
      int start = bytes.position();
      CoderResult r = decoder.decode(bytes, out, eof);
      count(start, bytes.position());
      if (r.isError()) {
        throw bad();
      }
      if (out.position() > off) {
        return out.position() - off;
      }
      if (eof) {
        if (!flushed) {
          decoder.flush(out);
          flushed = true;
        }
        return out.position() > off ? out.position() - off : -1;
      }
      fill();
    }
    return out.position() > off ? out.position() - off : -1;
  }

  private void fill() throws IOException {
    bytes.compact();
    int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
    if (n < 0) {
      eof = true;
    } else {
      bytes.position(bytes.position() + n);
    }
    bytes.flip();
  }

  private void count(int from, int to) {
    consumed += to - from;
    if (countLines) {
      byte[] a = bytes.array();
      for (int i = from; i < to; i++) {
        if (a[i] == '\n') {
          newlines++;
        }
      }
    }
  }

  private BadEncodingException bad() {
    int at = bytes.position();
    String hex = String.format("0x%02X", bytes.get(at) & 0xff);
    String where = countLines ? "" : " (byte " + consumed + ")";
    return new BadEncodingException(newlines + 1, "invalid " + decoder.charset().name() + " byte " + hex + where
        + "; an OpenVINO IR is UTF-8 text");
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
