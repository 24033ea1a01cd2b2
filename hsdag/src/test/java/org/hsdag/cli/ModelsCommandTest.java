package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.Weights;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelsCommandTest {
  @Test
  void buildWritesXmlAndDeterministicBin(@TempDir Path dir) throws IOException {
    CliRun r = CliRun.of("models", "build", "tiny_chain", "tiny_transformer", "--dir", dir.toString());
    assertEquals(0, r.exitCode(), r.err());
    Path xml = dir.resolve("tiny_chain").resolve("tiny_chain.xml");
    Path bin = dir.resolve("tiny_chain").resolve("tiny_chain.bin");
    assertTrue(Files.isRegularFile(xml) && Files.isRegularFile(bin), r.out());
    assertTrue(Files.isRegularFile(dir.resolve("tiny_transformer").resolve("tiny_transformer.bin")));
    assertTrue(r.out().contains("tiny_chain") && r.out().contains("sha256"), r.out());
    OpGraph g = new IrReader().read(xml);
    try (Weights w = Weights.open(g, xml)) {
      assertEquals(Weights.requiredBytes(g), Files.size(bin));
    }
    byte[] first = Files.readAllBytes(bin);
    CliRun again = CliRun.of("models", "build", "tiny_chain", "--dir", dir.toString());
    assertEquals(0, again.exitCode(), again.err());
    assertEquals(-1, java.util.Arrays.mismatch(first, Files.readAllBytes(bin)), "same seed, same bytes");
    CliRun other = CliRun.of("models", "build", "tiny_chain", "--seed", "5", "--dir", dir.toString());
    assertEquals(0, other.exitCode(), other.err());
    assertTrue(java.util.Arrays.mismatch(first, Files.readAllBytes(bin)) >= 0, "another seed, other weights");
  }

  @Test
  void unknownModelIsBadInputWithOneLine(@TempDir Path dir) {
    CliRun r = CliRun.of("models", "build", "resnet51", "--dir", dir.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode());
    assertTrue(r.err().startsWith("hsdag: unknown model 'resnet51'") && r.err().contains("resnet50"), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
  }

  @Test
  void listShowsCountsAndMissingWeights(@TempDir Path dir) {
    CliRun r = CliRun.of("models", "list", "--dir", dir.toString());
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("resnet50") && l.contains("396") && l.contains("411")
        && l.contains("missing")), r.out());
    assertTrue(r.out().contains("bert_base"), r.out());
  }

  @Test
  void modelsWithoutSubcommandIsUsageError() {
    assertEquals(ExitCodes.BAD_INPUT, CliRun.of("models").exitCode());
  }

  @Test
  void weightsSynthesisesAMissingBinAndRefusesToOverwriteIt(@TempDir Path dir) throws IOException {
    assertEquals(0, CliRun.of("models", "build", "tiny_transformer", "--dir", dir.toString()).exitCode());
    Path xml = dir.resolve("tiny_transformer").resolve("tiny_transformer.xml");
    Path bin = dir.resolve("tiny_transformer").resolve("tiny_transformer.bin");
    Files.delete(bin);

    CliRun r = CliRun.of("models", "weights", xml.toString(), "--seed", "3");
    assertEquals(0, r.exitCode(), r.err());
    OpGraph g = new IrReader().read(xml);
    assertEquals(Weights.requiredBytes(g), Files.size(bin));
    assertTrue(r.out().contains("sha256"), r.out());
    byte[] first = Files.readAllBytes(bin);

    CliRun refused = CliRun.of("models", "weights", xml.toString(), "--seed", "3");
    assertEquals(ExitCodes.BAD_INPUT, refused.exitCode());
    assertTrue(refused.err().contains("exists") && refused.err().contains("--force"), refused.err());
    assertEquals(1, refused.err().strip().lines().count(), refused.err());

    assertEquals(0, CliRun.of("models", "weights", xml.toString(), "--seed", "3", "--force").exitCode());
    assertEquals(-1, java.util.Arrays.mismatch(first, Files.readAllBytes(bin)), "same seed, same bytes");
    Path other = dir.resolve("other.bin");
    assertEquals(0, CliRun.of("models", "weights", xml.toString(), "-o", other.toString(), "--seed", "4").exitCode());
    assertEquals(Files.size(bin), Files.size(other));
    assertTrue(java.util.Arrays.mismatch(first, Files.readAllBytes(other)) >= 0, "another seed, other weights");
  }

  @Test
  void weightsOfAMissingModelIsBadInputWithOneLine(@TempDir Path dir) {
    CliRun r = CliRun.of("models", "weights", dir.resolve("nope.xml").toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode());
    assertTrue(r.err().contains("nope.xml"), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
  }
}
