package org.hsdag.tune;

import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.TinyModels;

/** Small generated models written into a test's temp folder. */
public final class TestModels {
  private TestModels() {}

  /** Writes the tiny two-branch CNN (XML + weights) into {@code dir} and returns the XML path. */
  public static Path twoBranch(Path dir) throws IOException {
    Path xml = dir.resolve("tiny_two_branch.xml");
    TinyModels.twoBranch().writeTo(xml, 7);
    return xml;
  }

  /** Writes the tiny chain CNN into {@code dir} and returns the XML path. */
  public static Path chain(Path dir) throws IOException {
    Path xml = dir.resolve("tiny_chain.xml");
    TinyModels.chain().writeTo(xml, 7);
    return xml;
  }

  public static OpGraph read(Path xml) {
    return new IrReader().read(xml);
  }
}
