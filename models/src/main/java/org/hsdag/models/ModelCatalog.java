package org.hsdag.models;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The models hsdag ships as IR: the three paper benchmarks (also at the paper's own inputs:
 * {@code resnet50_299}, {@code bert_base_8}; {@code inception_v3} is already 299) and the tiny test models. Their XML is
 * committed under {@code models/<name>/<name>.xml}; the {@code .bin} beside it is generated from
 * {@link #DEFAULT_SEED} by {@code hsdag models build}. {@link #modelsDir()} finds that folder from
 * {@code -Dhsdag.home} (set by the launcher) or the working directory.
 */
public final class ModelCatalog {
  /** Seed of the weights written by {@code hsdag models build} unless {@code --seed} is given. */
  public static final long DEFAULT_SEED = 20240601L;

  private static final List<ModelSpec> MODELS = List.of(
      new ModelSpec("resnet50", "ResNet-50, 1x3x224x224, FP16 weights (ONNX-frontend layout, 396 nodes)",
          ResNet50::build),
      new ModelSpec("inception_v3", "Inception-V3 (torchvision), 1x3x299x299, FP16 weights", InceptionV3::build),
      new ModelSpec("bert_base", "BERT-base uncased, batch 1, sequence 128, 12 layers + pooler, FP16 weights",
          BertBase::build),
      new ModelSpec("resnet50_299",
          "ResNet-50 at the paper's input 1x3x299x299 (as the HSDAG code timed it), FP16 weights",
          ResNet50::paperInput),
      new ModelSpec("bert_base_8", "BERT-base uncased at the paper's input: batch 1, 8 tokens, FP16 weights",
          () -> BertBase.build(BertBase.PAPER_8)),
      new ModelSpec("tiny_chain", "test model: conv-relu chain with a classifier", TinyModels::chain),
      new ModelSpec("tiny_diamond", "test model: two conv branches joined by an Add", TinyModels::diamond),
      new ModelSpec("tiny_two_branch", "test model: Inception-style block with a Concat", TinyModels::twoBranch),
      new ModelSpec("tiny_transformer", "test model: one BERT encoder layer (hidden 32, seq 16)",
          TinyModels::transformer),
      new ModelSpec("decoder_9b", "decoder-only transformer, 32 blocks, hidden 4096, 128 tokens: 17.7 GB of FP16 "
          + "weights, more than a 16 GB dGPU holds (simulation only: weights are not generated)",
          () -> DecoderModel.build(DecoderModel.DECODER_9B), true),
      new ModelSpec("tiny_decoder", "test model: the decoder_9b graph at toy sizes (2 blocks, hidden 64, seq 16)",
          () -> DecoderModel.build(DecoderModel.TINY)));

  private ModelCatalog() {}

  /** All models, benchmarks first. */
  public static List<ModelSpec> all() {
    return MODELS;
  }

  /** Names of all models. */
  public static List<String> names() {
    return MODELS.stream().map(ModelSpec::name).collect(Collectors.toList());
  }

  /**
   * The model called {@code name}.
   *
   * @throws IllegalArgumentException naming the known models when there is none
   */
  public static ModelSpec get(String name) {
    for (ModelSpec m : MODELS) {
      if (m.name().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown model '" + name + "' (known: " + String.join(", ", names()) + ")");
  }

  /**
   * The repository's {@code models/} folder: {@code <hsdag.home>/models} when the system property is
   * set, else the first of {@code ./models}, {@code .} (inside the module) or a parent's
   * {@code models/} that holds {@code resnet50/resnet50.xml}; {@code ./models} when none does.
   */
  public static Path modelsDir() {
    String home = System.getProperty("hsdag.home");
    if (home != null && !home.isBlank()) {
      return Path.of(home).resolve("models");
    }
    return locate(Path.of("").toAbsolutePath());
  }

  /** The {@code models/} folder found from {@code start} as described in {@link #modelsDir()}. */
  public static Path locate(Path start) {
    for (Path p = start; p != null; p = p.getParent()) {
      if (holdsModels(p.resolve("models"))) {
        return p.resolve("models");
      }
      if (holdsModels(p)) {
        return p;
      }
    }
    return start.resolve("models");
  }

  private static boolean holdsModels(Path dir) {
    return Files.isRegularFile(dir.resolve("resnet50").resolve("resnet50.xml"));
  }

  /** {@code <dir>/<name>/<name>.xml}. */
  public static Path xmlPath(Path dir, String name) {
    return dir.resolve(name).resolve(name + ".xml");
  }

  /**
   * The catalog model whose generated XML is {@code xml}: the file is {@code <name>/<name>.xml} for a
   * catalog name and its text equals what the builder produces (a user's own file of the same name
   * is not mistaken for it).
   */
  public static Optional<ModelSpec> findByXml(Path xml) throws IOException {
    Path file = xml.getFileName();
    Path parent = xml.toAbsolutePath().getParent();
    if (file == null || parent == null || parent.getFileName() == null || !Files.isRegularFile(xml)) {
      return Optional.empty();
    }
    String base = file.toString().endsWith(".xml") ? file.toString().substring(0, file.toString().length() - 4) : "";
    if (!base.equals(parent.getFileName().toString()) || !names().contains(base)) {
      return Optional.empty();
    }
    ModelSpec spec = get(base);
    return Files.readString(xml, StandardCharsets.UTF_8).equals(spec.build().xml()) ? Optional.of(spec)
        : Optional.empty();
  }

  /**
   * Writes the {@code .bin} of a bundled model when it is missing, so commands given
   * {@code models/resnet50/resnet50.xml} work without a separate {@code hsdag models build}.
   *
   * @return true when weights were generated; false when they exist, {@code xml} is not a catalog model or the model
   *     is simulation-only
   */
  public static boolean ensureWeights(Path xml, long seed) throws IOException {
    if (Files.isRegularFile(org.hsdag.ir.IrReader.defaultBinPath(xml))) {
      return false;
    }
    Optional<ModelSpec> spec = findByXml(xml);
    if (spec.isEmpty() || spec.get().simulationOnly()) {
      return false;
    }
    spec.get().build().writeTo(xml, seed);
    return true;
  }

  /** The XML of {@code name} in {@link #modelsDir()}. */
  public static Path xmlPath(String name) {
    return xmlPath(modelsDir(), name);
  }
}
