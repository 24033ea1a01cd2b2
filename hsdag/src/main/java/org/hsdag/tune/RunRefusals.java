package org.hsdag.tune;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.io.AtomicFiles;
import org.hsdag.search.LearnedRefusals;

/**
 * {@value #FILE}: the splits HETERO refused during a run that the prediction (docs/hetero-rules.md)
 * did not foresee, each a cut edge and the failure that taught it. Written for the user at the end of
 * every session; a resumed run rebuilds them from its log.jsonl (the replayed measurements), never
 * from this file.
 */
public final class RunRefusals {
  public static final String FILE = "refused.json";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private RunRefusals() {}

  /** Writes {@code learned} to {@code dir}/{@value #FILE} atomically; nothing when none was learned. */
  public static void write(Path dir, List<LearnedRefusals.Learned> learned) throws IOException {
    if (!learned.isEmpty()) {
      AtomicFiles.writeBytes(dir.resolve(FILE), JSON.writeValueAsBytes(learned));
    }
  }
}
