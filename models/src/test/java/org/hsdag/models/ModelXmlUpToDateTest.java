package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed {@code models/<name>/<name>.xml} equal what the builders produce now, so they
 * cannot drift. After a builder change run {@code RegenerateXml} (see its javadoc).
 */
class ModelXmlUpToDateTest {
  static java.util.stream.Stream<String> models() {
    return ModelCatalog.names().stream();
  }

  @ParameterizedTest
  @MethodSource("models")
  void committedXmlEqualsTheBuilder(String name) throws IOException {
    Path dir = ModelCatalog.locate(Path.of("").toAbsolutePath());
    Path xml = ModelCatalog.xmlPath(dir, name);
    assertTrue(Files.isRegularFile(xml), "missing committed model " + xml);
    String expected = ModelCatalog.get(name).build().xml();
    String committed = Files.readString(xml, StandardCharsets.UTF_8);
    assertEquals("", firstDifference(expected, committed),
        xml + " is stale: regenerate with java -cp <models classes> org.hsdag.models.RegenerateXml");
  }

  /** The first differing line of two texts, or "" when they are equal (keeps failure messages short). */
  private static String firstDifference(String a, String b) {
    String[] x = a.split("\n", -1);
    String[] y = b.split("\n", -1);
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      String l = i < x.length ? x[i] : "<end>";
      String r = i < y.length ? y[i] : "<end>";
      if (!l.equals(r)) {
        return "line " + (i + 1) + ": builder '" + l.trim() + "' vs committed '" + r.trim() + "'";
      }
    }
    return "";
  }
}
