package org.hsdag.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.regex.Pattern;

/**
 * Text that hsdag prints for the user to paste: shell words and string literals. A path with a
 * space or a quote must still paste as one word or one string.
 */
public final class Pasteable {
  private static final Pattern PLAIN_SHELL_WORD = Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");
  private static final ObjectMapper JSON = new ObjectMapper();

  private Pasteable() {}

  /** {@code word} as one POSIX shell word: as it is when nothing in it is special, else single-quoted. */
  public static String shell(String word) {
    if (PLAIN_SHELL_WORD.matcher(word).matches()) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /** {@code words} as one shell command line, each word quoted as {@link #shell} does. */
  public static String shellLine(Object... words) {
    StringBuilder sb = new StringBuilder();
    for (Object w : words) {
      sb.append(sb.length() == 0 ? "" : " ").append(shell(String.valueOf(w)));
    }
    return sb.toString();
  }

  /** {@code s} as a Python string literal, quotes included. */
  public static String python(String s) {
    return jsonString(s); // JSON's escapes (\" \\ \n \t \r \b \f \\uXXXX) mean the same in Python
  }

  /** {@code s} as a Java string literal, quotes included. */
  public static String java(String s) {
    return jsonString(s); // JSON's escapes mean the same in Java (line breaks are \n and \r, never \\u000a)
  }

  private static String jsonString(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string always serialises", e);
    }
  }
}
