package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.SplittableRandom;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Mutates real IRs; the reader must either parse or throw its own {@link IrException}, nothing else. */
class IrFuzzTest {
  private static final String[] TOKENS = {
    "\"", "<", ">", "/>", "</port>", "<dim>", "-7", "?", "1..3", "FP99", "id=\"0\"", "offset=\"-1\"",
    "from-layer=\"999999\"", "to-port=\"x\"", "&", "&amp;", "<layer>", "version=\"x\"", "size=\"99999999999\"", ""
  };

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"alexnet.xml", "resnet-50.xml", "distilbert-base-uncased-sst2.xml", "inception-v3.xml"})
  void mutatedSamplesParseOrFailWithIrException(String file) throws IOException {
    String original = Files.readString(Samples.irSample(file));
    SplittableRandom rnd = new SplittableRandom(file.hashCode());
    int parsed = 0;
    for (int trial = 0; trial < 150; trial++) {
      String mutated = mutate(original, rnd);
      try {
        new IrReader().read(new ByteArrayInputStream(mutated.getBytes(StandardCharsets.UTF_8)), file);
        parsed++;
      } catch (IrException e) {
        assertFalse(e.getMessage().contains("\n"), "one-line message");
      } catch (RuntimeException e) {
        fail("trial " + trial + " threw " + e + " instead of IrException", e);
      }
    }
    // Sanity: some mutations are harmless, so the loop exercised the success path too.
    assertFalse(parsed == 150, "every mutation parsed: the mutator is not mutating");
  }

  private static String mutate(String s, SplittableRandom rnd) {
    StringBuilder sb = new StringBuilder(s);
    int edits = 1 + rnd.nextInt(3);
    for (int i = 0; i < edits; i++) {
      int pos = rnd.nextInt(sb.length());
      switch (rnd.nextInt(5)) {
        case 0 -> sb.delete(pos, Math.min(sb.length(), pos + 1 + rnd.nextInt(40)));
        case 1 -> sb.insert(pos, TOKENS[rnd.nextInt(TOKENS.length)]);
        case 2 -> {
          // Replace a digit: renumbers ids, ports, dims and offsets.
          int d = sb.indexOf("\"", pos);
          if (d > 0 && d + 1 < sb.length() && Character.isDigit(sb.charAt(d + 1))) {
            sb.setCharAt(d + 1, (char) ('0' + rnd.nextInt(10)));
          }
        }
        case 3 -> {
          int len = Math.min(200, sb.length() - pos);
          sb.insert(rnd.nextInt(sb.length()), sb.substring(pos, pos + len));
        }
        default -> sb.setLength(Math.max(1, pos));
      }
    }
    return sb.toString();
  }
}
