package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;
import java.util.ArrayList;
import java.util.List;

/** Linear layers of the given widths with ReLU between them (none after the last). */
public final class Mlp {
  private final List<Linear> layers = new ArrayList<>();

  /** {@code widths} = input, hidden..., output; at least two entries. */
  public Mlp(ParameterStore store, String name, int... widths) {
    if (widths.length < 2) {
      throw new IllegalArgumentException("an MLP needs an input and an output width");
    }
    for (int i = 0; i + 1 < widths.length; i++) {
      layers.add(new Linear(store, name + "." + i, widths[i], widths[i + 1], true));
    }
  }

  public NDArray forward(NDArray x) {
    NDArray h = x;
    for (int i = 0; i < layers.size(); i++) {
      h = layers.get(i).forward(h);
      if (i + 1 < layers.size()) {
        h = Activation.relu(h);
      }
    }
    return h;
  }

  public List<Linear> layers() {
    return List.copyOf(layers);
  }
}
