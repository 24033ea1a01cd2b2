package org.hsdag.backend;

import java.nio.file.Path;
import org.hsdag.ir.OpGraph;

/**
 * A backend capability: it compiles the model file itself (the real runtime), so it must be given
 * the IR file a graph was read from, weights included, before it measures that graph.
 */
public interface ModelFileBinding {
  /**
   * Binds {@code graph} to the IR file {@code xml} it was read from (the {@code .bin} beside it holds the weights).
   *
   * @throws IllegalArgumentException when the file does not hold this graph
   */
  void bindModelFile(OpGraph graph, Path xml);
}
