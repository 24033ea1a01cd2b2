package org.hsdag.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON mapper of the files hsdag writes and reads back (placements, run logs, results). Op names
 * are keys and values there, and an IR may name an op with a million characters: Jackson's default read
 * limits (50,000 characters per name, 20 M per string) would make a file hsdag wrote unreadable to it.
 * Only the file's own size bounds what is read.
 */
public final class JsonFiles {
  private JsonFiles() {}

  /** A new mapper (mappers are configured further by their owners) without name or string length limits. */
  public static ObjectMapper mapper() {
    StreamReadConstraints unlimited = StreamReadConstraints.builder().maxNameLength(Integer.MAX_VALUE)
        .maxStringLength(Integer.MAX_VALUE).build();
    return new ObjectMapper(JsonFactory.builder().streamReadConstraints(unlimited).build());
  }
}
