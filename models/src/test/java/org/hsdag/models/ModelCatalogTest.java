package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelCatalogTest {
  @Test
  void listsTheBenchmarksAndTheTinyModels() {
    assertEquals(List.of("resnet50", "inception_v3", "bert_base", "resnet50_299", "bert_base_8", "tiny_chain",
        "tiny_diamond", "tiny_two_branch",
        "tiny_transformer", "decoder_9b", "tiny_decoder"), ModelCatalog.names());
    assertEquals(ModelCatalog.names().size(), new HashSet<>(ModelCatalog.names()).size());
    assertTrue(ModelCatalog.get("tiny_diamond").tiny());
    assertTrue(!ModelCatalog.get("bert_base").tiny());
  }

  @Test
  void thePaperInputModelsTakeThePapersInputs() {
    org.hsdag.ir.OpGraph resnet = ModelCatalog.get("resnet50_299").build().graph();
    assertEquals(List.of(1L, 3L, 299L, 299L), dims(resnet, "input"));
    assertEquals(ModelCatalog.get("resnet50").build().graph().nodeCount(), resnet.nodeCount());
    org.hsdag.ir.OpGraph bert = ModelCatalog.get("bert_base_8").build().graph();
    assertEquals(List.of(1L, 8L), dims(bert, "input_ids"));
    assertEquals(ModelCatalog.get("bert_base").build().graph().nodeCount(), bert.nodeCount());
  }

  private static List<Long> dims(org.hsdag.ir.OpGraph g, String parameter) {
    long[] d = g.node(g.indexOf(parameter)).outputs().get(0).dims();
    return java.util.Arrays.stream(d).boxed().toList();
  }

  @Test
  void locatesTheModelsFolderFromTheRootTheModuleOrBelow(@TempDir Path repo) throws IOException {
    Path models = repo.resolve("models");
    Files.createDirectories(models.resolve("resnet50"));
    Files.writeString(models.resolve("resnet50").resolve("resnet50.xml"), "<net/>");
    Path deep = Files.createDirectories(repo.resolve("bench").resolve("src"));
    assertEquals(models, ModelCatalog.locate(repo));
    assertEquals(models, ModelCatalog.locate(models));
    assertEquals(models, ModelCatalog.locate(deep));
    assertEquals(ModelCatalog.xmlPath(models, "bert_base"), models.resolve("bert_base").resolve("bert_base.xml"));
  }

  @Test
  void fallsBackToModelsUnderTheStartWhenNothingIsFound(@TempDir Path empty) {
    assertEquals(empty.resolve("models"), ModelCatalog.locate(empty));
  }

  @Test
  void ensureWeightsGeneratesOnlyMissingBinsOfCatalogModels(@TempDir Path dir) throws IOException {
    Path xml = ModelCatalog.xmlPath(dir, "tiny_diamond");
    Files.createDirectories(xml.getParent());
    Files.writeString(xml, ModelCatalog.get("tiny_diamond").build().xml());
    Path bin = org.hsdag.ir.IrReader.defaultBinPath(xml);
    assertTrue(ModelCatalog.findByXml(xml).isPresent());
    assertTrue(ModelCatalog.ensureWeights(xml, ModelCatalog.DEFAULT_SEED));
    assertEquals(ModelCatalog.get("tiny_diamond").build().binSize(), Files.size(bin));
    assertTrue(!ModelCatalog.ensureWeights(xml, ModelCatalog.DEFAULT_SEED), "existing weights are kept");

    Path edited = ModelCatalog.xmlPath(dir, "tiny_chain");
    Files.createDirectories(edited.getParent());
    Files.writeString(edited, ModelCatalog.get("tiny_chain").build().xml().replace("tiny_chain", "mine"));
    assertTrue(ModelCatalog.findByXml(edited).isEmpty(), "a different file of the same name is not ours");
    assertTrue(!ModelCatalog.ensureWeights(edited, ModelCatalog.DEFAULT_SEED));
    assertTrue(!Files.exists(org.hsdag.ir.IrReader.defaultBinPath(edited)));
  }
}
