package org.hsdag.models;

import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.io.AtomicFiles;

/**
 * Rewrites the committed XML of every catalog model from its builder, so the files under
 * {@code models/} can be refreshed after a builder change:
 * {@code java -cp <classes> org.hsdag.models.RegenerateXml [models-dir]}.
 * {@code ModelXmlUpToDateTest} fails while they differ.
 */
public final class RegenerateXml {
  private RegenerateXml() {}

  public static void main(String[] args) throws IOException {
    Path dir = args.length > 0 ? Path.of(args[0]) : ModelCatalog.modelsDir();
    for (ModelSpec m : ModelCatalog.all()) {
      GeneratedModel g = m.build();
      Path xml = ModelCatalog.xmlPath(dir, m.name());
      AtomicFiles.writeString(xml, g.xml());
      System.out.printf("%-18s %5d nodes %5d edges  %s%n", m.name(), g.graph().nodeCount(), g.graph().edgeCount(), xml);
    }
  }
}
