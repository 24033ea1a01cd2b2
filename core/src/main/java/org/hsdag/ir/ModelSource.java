package org.hsdag.ir;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What an IR was converted from (a user's ONNX, TensorFlow Lite or PaddlePaddle file), as the folder the IR was
 * converted into says in {@value #FILE}.
 *
 * @param path the source's absolute path when it was converted
 * @param format what it is, e.g. {@code ONNX}
 * @param sha256 SHA-256 of its content (with a PaddlePaddle model's {@code .pdiparams})
 * @param runtime the OpenVINO version that converted it
 */
public record ModelSource(String path, String format, String sha256, String runtime) {
  /** The record beside a converted IR. */
  public static final String FILE = "source.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What {@code xml} was converted from, when it lies in a folder with such a record. */
  public static Optional<ModelSource> of(Path xml) {
    Path parent = xml.toAbsolutePath().getParent();
    Path record = parent == null ? null : parent.resolve(FILE);
    if (record == null || !Files.isRegularFile(record) || !Files.isRegularFile(xml)) {
      return Optional.empty();
    }
    try {
      ModelSource s = JSON.readValue(record.toFile(), ModelSource.class);
      return s.sha256() == null || s.path() == null ? Optional.empty() : Optional.of(s);
    } catch (IOException e) {
      return Optional.empty(); // a damaged record: converted again
    }
  }
}
