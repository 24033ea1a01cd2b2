package org.hsdag.tune;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.io.AtomicFiles;

/**
 * What a run's summary says beyond its measurements, kept in {@value #FILE} for the report: why the
 * result is what it is by the cost model, where the wall time went, and the foreign load on the
 * machine during the real measurements. Each is null when it does not apply (the simulator has no
 * load; a backend hsdag cannot time has no shares).
 *
 * @param why why the fastest single device won, by the cost model ({@link org.hsdag.plan.SplitBound}), or null
 * @param time where the wall time went (OpenVINO compile, inference, hsdag's own), or null
 * @param load the foreign load during the run's real measurements ({@link RunLoad}), or null
 * @param loadPolicy when a measurement was re-taken or flagged, or null
 * @param compiles the real backend's compiles, reuses and evictions ({@link org.hsdag.backend.CompileStats}), or null
 * @param trust how well the run's corrected cost model predicted the run's own measurements
 *     ({@link org.hsdag.plan.CorrectedRun.Trust}), naming that model, or null (no cost model)
 * @param profiles how many of the cost model's op records the per-machine profile database gave and how many were
 *     profiled, or null (no such database: the simulator, a resumed build)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunNotes(String why, String time, String load, String loadPolicy, String compiles, String trust,
    String profiles) {
  public static final String FILE = "notes.json";
  public static final RunNotes NONE = new RunNotes(null, null, null, null, null, null, null);
  private static final ObjectMapper JSON = org.hsdag.io.JsonFiles.mapper().enable(SerializationFeature.INDENT_OUTPUT);

  public void write(Path dir) throws IOException {
    AtomicFiles.writeBytes(dir.resolve(FILE), JSON.writeValueAsBytes(this));
  }

  /** The notes of the run in {@code dir}; {@link #NONE} for a run from before they existed. */
  public static RunNotes read(Path dir) throws IOException {
    Path f = dir.resolve(FILE);
    return Files.isRegularFile(f) ? JSON.readValue(Files.readAllBytes(f), RunNotes.class) : NONE;
  }
}
