package org.hsdag.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tiny T5-like encoder, decoder and decoder with past (KV cache), written by the OpenVINO
 * wheel's own Python opset and serializer ({@code t5_tiny.py}), so the IR is spelled as an export
 * spells it: dynamic batch, sequence and past axes, shapes computed by ShapeOf/Gather/Concat,
 * KV caches concatenated, causal masks from Range over the cache length.
 */
public final class TinyT5 {
  /** The three IRs, as Hugging Face's exporters name them. */
  public static final List<String> MODELS = List.of("encoder_model", "decoder_model", "decoder_with_past_model");

  private TinyT5() {}

  /** Writes the three IRs (XML and .bin) into {@code dir}; skips (or fails in CI) without the runtime's Python. */
  public static Path write(Path dir) throws IOException, InterruptedException {
    Path python = RealOpenVino.python();
    Path script = dir.resolve("t5_tiny.py");
    try (InputStream in = TinyT5.class.getResourceAsStream("/org/hsdag/realruntime/t5_tiny.py")) {
      Files.copy(in, script);
    }
    Process p = new ProcessBuilder(python.toString(), script.toString(), dir.toString()).redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    assertEquals(0, p.exitValue(), out);
    return dir;
  }
}
