package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.Map;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.SyntheticWeights;
import org.hsdag.models.GeneratedModel;
import org.hsdag.models.ModelCatalog;
import org.hsdag.models.ModelSpec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag models}: the bundled models. {@code build} writes their {@code .bin} weights
 * (deterministic per seed, atomically) beside the committed XML; {@code list} shows what exists.
 */
@Command(name = "models", mixinStandardHelpOptions = true,
    description = "The bundled benchmark models (ResNet-50, Inception-V3, BERT-base) and tiny test models.",
    subcommands = {ModelsCommand.Build.class, ModelsCommand.ListModels.class, ModelsCommand.SynthWeights.class})
public final class ModelsCommand implements Runnable {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: build, list or weights");
  }

  static List<ModelSpec> select(List<String> names) {
    if (names == null || names.isEmpty()) {
      return ModelCatalog.all();
    }
    List<ModelSpec> out = new ArrayList<>();
    for (String n : names) {
      try {
        out.add(ModelCatalog.get(n));
      } catch (IllegalArgumentException e) {
        throw new UserInputException(e.getMessage());
      }
    }
    return out;
  }

  static Path dirOrDefault(Path dir) {
    return dir != null ? dir : ModelCatalog.modelsDir();
  }

  /** {@code hsdag models build [NAME...]}. */
  @Command(name = "build", mixinStandardHelpOptions = true,
      description = {"Generate the .bin weights of bundled models into <models>/<name>/<name>.bin (and the XML when it "
          + "is missing or stale). Weights are pseudo-random with the real tensor sizes: the same seed gives a "
          + "byte-identical file. Files are replaced atomically."})
  static final class Build implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "NAME",
        description = "Models to build (default: all; see 'hsdag models list').")
    List<String> names;

    @Option(names = "--seed", paramLabel = "N", description = "Weights seed (default: ${DEFAULT-VALUE}).")
    long seed = ModelCatalog.DEFAULT_SEED;

    @Option(names = "--dir", paramLabel = "DIR", description = "Models folder (default: models/ of the hsdag home).")
    Path dir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      List<ModelSpec> todo = select(names);
      Path root = dirOrDefault(dir);
      PrintWriter out = spec.commandLine().getOut();
      for (ModelSpec m : todo) {
        if (m.simulationOnly()) {
          if (names != null && !names.isEmpty()) {
            throw new UserInputException(m.name() + " is simulation-only: its " + m.build().binSize()
                + " bytes of weights are not generated (its XML is enough for the sim backend)");
          }
          continue;
        }
        GeneratedModel g = m.build();
        Path xml = ModelCatalog.xmlPath(root, m.name());
        String sha = g.writeTo(xml, seed);
        out.printf("%-17s %5d nodes %5d edges  %,13d bytes  seed %d  sha256 %s  %s%n", m.name(), g.graph().nodeCount(),
            g.graph().edgeCount(), g.binSize(), seed, sha.substring(0, 16), IrReader.defaultBinPath(xml));
        out.flush();
      }
      return ExitCodes.OK;
    }
  }

  /** {@code hsdag models list}. */
  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List the bundled models and whether their weights exist.")
  static final class ListModels implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", description = "Models folder (default: models/ of the hsdag home).")
    Path dir;

    @Option(names = "--json", description = "Print the list as JSON.")
    boolean json;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Path root = dirOrDefault(dir);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        List<Map<String, Object>> models = new ArrayList<>();
        for (ModelSpec m : ModelCatalog.all()) {
          GeneratedModel g = m.build();
          Path xml = ModelCatalog.xmlPath(root, m.name());
          Map<String, Object> e = new LinkedHashMap<>();
          e.put("name", m.name());
          e.put("xml", xml.toString());
          e.put("nodes", g.graph().nodeCount());
          e.put("edges", g.graph().edgeCount());
          e.put("bin_bytes", g.binSize());
          e.put("weights", Files.isRegularFile(IrReader.defaultBinPath(xml)));
          e.put("description", m.description());
          models.add(e);
        }
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(models));
        out.flush();
        return ExitCodes.OK;
      }
      out.printf("%-17s %5s %5s %13s  %-7s %s%n", "name", "nodes", "edges", "bin bytes", "weights", "description");
      for (ModelSpec m : ModelCatalog.all()) {
        GeneratedModel g = m.build();
        Path bin = IrReader.defaultBinPath(ModelCatalog.xmlPath(root, m.name()));
        String state = Files.isRegularFile(bin) ? "yes" : "missing";
        out.printf("%-17s %5d %5d %,13d  %-7s %s%n", m.name(), g.graph().nodeCount(), g.graph().edgeCount(),
            g.binSize(), state, m.description());
      }
      out.printf("models folder: %s (write missing weights with: %s NAME)%n", root,
          CommandName.line("models", "build"));
      out.flush();
      return ExitCodes.OK;
    }
  }

  /** {@code hsdag models weights IR.xml}: stand-in weights for an IR that came without its {@code .bin}. */
  @Command(name = "weights", mixinStandardHelpOptions = true,
      description = {"Write seeded stand-in weights for an IR whose .bin is missing: every Const region gets bytes of "
          + "its size, float weights small random values, and integer constants feeding shape inputs (Reshape targets, "
          + "Transpose orders, axes, split lengths, slice bounds) values derived from the XML's port dims, so OpenVINO "
          + "reproduces the XML's shapes. The same seed gives a byte-identical file, written atomically."})
  static final class SynthWeights implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "IR.xml", description = "The IR XML.")
    Path xml;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT.bin",
        description = "Where to write (default: the .bin beside the XML).")
    Path output;

    @Option(names = "--seed", paramLabel = "N", description = "Weights seed (default: ${DEFAULT-VALUE}).")
    long seed = ModelCatalog.DEFAULT_SEED;

    @Option(names = "--force", description = "Replace an existing .bin.")
    boolean force;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Path bin = output != null ? output : IrReader.defaultBinPath(xml);
      if (Files.isDirectory(bin) || bin.toAbsolutePath().normalize().equals(xml.toAbsolutePath().normalize())) {
        throw new UserInputException(bin + " cannot be the weights file: it is " + (Files.isDirectory(bin)
            ? "a folder" : "the model XML itself"));
      }
      if (Files.exists(bin) && !force) {
        throw new UserInputException(bin + " exists; pass --force to replace it");
      }
      // Read without the sibling .bin: it is the file being replaced.
      OpGraph graph = new IrReader().read(xml, null);
      SyntheticWeights.Written w = SyntheticWeights.write(graph, seed, bin);
      PrintWriter out = spec.commandLine().getOut();
      out.printf("%s: %,d bytes, %d regions, %d shape constants derived, seed %d, sha256 %s%n", bin, w.plan().bytes(),
          w.plan().regions().size(), w.plan().derived(), seed, w.sha256().substring(0, 16));
      for (String note : SyntheticWeights.summarize(w.plan().notes())) {
        out.println("note: " + note);
      }
      out.flush();
      return ExitCodes.OK;
    }
  }
}
