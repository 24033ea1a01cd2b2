package org.hsdag.bench.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The picocli mixin of the models an experiment runs on: the names and files given, else the
 * experiment's own list (those in the catalog) plus every {@code .xml} in {@code
 * <hsdag.shared.dir>/ir-samples} (default {@code ../shared}) unless {@code --no-samples}.
 */
public final class ExperimentModels {
  @Parameters(arity = "0..*", paramLabel = "MODEL",
      description = "Catalog model names or IR .xml files (default: the experiment's models and the shared IR samples)")
  List<String> models = new ArrayList<>();

  @Option(names = "--no-samples", description = "Leave the shared IR samples out of the default models")
  boolean noSamples;

  /** The models given, or {@code defaults} (those in the catalog) and the shared IR samples. */
  List<String> orDefaults(List<String> defaults) throws IOException {
    if (!models.isEmpty()) {
      return List.copyOf(models);
    }
    List<String> out = new ArrayList<>();
    for (String name : defaults) {
      if (ModelCatalog.names().contains(name)) {
        out.add(name);
      }
    }
    Path dir = Path.of(System.getProperty("hsdag.shared.dir", "../shared"), "ir-samples");
    if (!noSamples && Files.isDirectory(dir)) {
      try (Stream<Path> files = Files.list(dir)) {
        files.filter(f -> f.toString().endsWith(".xml")).sorted().forEach(f -> out.add(f.toString()));
      }
    }
    return out;
  }

  /** The graph of a catalog name or an IR file. */
  static OpGraph load(String model) {
    return model.endsWith(".xml") ? new IrReader().read(Path.of(model)) : ModelCatalog.get(model).build().graph();
  }

  /** How a model is named in a table: its catalog name or its file name. */
  static String label(String model) {
    return model.endsWith(".xml") ? Path.of(model).getFileName().toString() : model;
  }
}
