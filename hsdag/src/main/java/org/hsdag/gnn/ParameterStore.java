package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Named trainable tensors on one long-lived manager, in creation order. Initial values come from
 * a Java {@link SplittableRandom} (not torch's RNG) so a seed fixes them on any machine; values can
 * be read and written as float arrays for checkpoints.
 */
public final class ParameterStore implements AutoCloseable {
  private final NDManager manager;
  private final SplittableRandom rng;
  private final DataType dataType;
  private final Map<String, NDArray> parameters = new LinkedHashMap<>();

  public ParameterStore(NDManager parent, long seed) {
    this(parent, seed, DataType.FLOAT32);
  }

  public ParameterStore(NDManager parent, long seed, DataType dataType) {
    this.manager = parent.newSubManager();
    this.rng = new SplittableRandom(seed);
    this.dataType = dataType;
  }

  /** A {@code rows × cols} matrix, Glorot-uniform initialised (PyG/torch default for GCN). */
  public NDArray glorot(String name, int rows, int cols) {
    double a = Math.sqrt(6.0 / (rows + cols));
    float[] v = new float[rows * cols];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) ((rng.nextDouble() * 2 - 1) * a);
    }
    return add(name, v, new Shape(rows, cols));
  }

  /** A zero-initialised tensor. */
  public NDArray zeros(String name, Shape shape) {
    return add(name, new float[Math.toIntExact(shape.size())], shape);
  }

  /** A tensor with the given initial values. */
  public NDArray add(String name, float[] values, Shape shape) {
    if (parameters.containsKey(name)) {
      throw new IllegalArgumentException("duplicate parameter " + name);
    }
    NDArray p = manager.create(values, shape);
    if (dataType != DataType.FLOAT32) {
      NDArray wide = p.toType(dataType, true);
      p.close();
      p = wide;
    }
    p.setName(name);
    p.setRequiresGradient(true);
    parameters.put(name, p);
    return p;
  }

  public NDArray get(String name) {
    NDArray p = parameters.get(name);
    if (p == null) {
      throw new IllegalArgumentException("no parameter " + name);
    }
    return p;
  }

  /** Parameters in creation order. */
  public Map<String, NDArray> all() {
    return Collections.unmodifiableMap(parameters);
  }

  public List<String> names() {
    return new ArrayList<>(parameters.keySet());
  }

  /** Total number of scalars. */
  public long size() {
    long s = 0;
    for (NDArray p : parameters.values()) {
      s += p.size();
    }
    return s;
  }

  public float[] values(String name) {
    return get(name).toFloatArray();
  }

  /** Overwrites a parameter's values in place (keeps its identity and gradient flag). */
  public void load(String name, float[] values) {
    NDArray p = get(name);
    checkSize(p, name, values.length);
    try (NDArray src = manager.create(values, p.getShape())) {
      overwrite(p, src);
    }
  }

  /** Like {@link #load(String, float[])}, from doubles (rounded to the parameter's precision). */
  public void load(String name, double[] values) {
    NDArray p = get(name);
    checkSize(p, name, values.length);
    try (NDArray src = manager.create(values, p.getShape())) {
      overwrite(p, src);
    }
  }

  private static void checkSize(NDArray p, String name, int length) {
    if (length != p.size()) {
      throw new IllegalArgumentException("parameter " + name + " has " + p.size() + " values, got " + length);
    }
  }

  private static void overwrite(NDArray p, NDArray src) {
    // addi converts src to the parameter's precision.
    try (NDArray detached = p.stopGradient()) {
      detached.subi(detached).addi(src);
    }
  }

  public NDManager manager() {
    return manager;
  }

  @Override
  public void close() {
    manager.close();
  }
}
