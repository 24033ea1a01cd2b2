package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.hsdag.view.RunView;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tune --view} and {@code view} on the real runtime: the page's state carries the real run's figures. */
@Tag("openvino")
class RealTuneViewTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  @Test
  void aRealTuneWithViewServesItsRunAndItsStateEndsOnTheResult() throws IOException, InterruptedException {
    Path model = RealTinyModel.write(tmp);
    Path out = tmp.resolve("run");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "openvino", "--devices", "CPU,CPU2", "--test-device",
        "CPU2:precision=f32", "--budget", "2", "--top-k", "1", "--final-rounds", "1", "--seed", "1", "--out",
        out.toString(), "--quiet", "--view");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.err().contains("live view of " + out + " at http://127.0.0.1:"), r.err());
    try (RunView view = RunView.start(out, RunView.Binding.loopback(), false)) {
      HttpResponse<String> res = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(view.uri() + "api/state")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, res.statusCode());
      JsonNode state = JSON.readTree(res.body());
      assertEquals("completed", state.path("phase").asText(), res.body());
      assertEquals("openvino", state.path("run").path("backend").asText());
      assertEquals(2, state.path("baselines").size(), res.body());
      // Every real measurement carries its load reading; the runtime's own cost model predicted each one first.
      assertTrue(state.path("load").path("measured").asInt() > 0, state.path("load").toString());
      assertTrue(state.path("trust").path("points").size() > 0, state.path("trust").toString());
      assertTrue(state.path("final").path("decision").asText().length() > 0, res.body());
    }
  }
}
