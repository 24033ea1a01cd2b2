/**
 * Builders of the benchmark models (ResNet-50, Inception-V3, BERT-base and tiny test models) as IR
 * v11 with generated weights, shape inference, and the model catalog. Depends on {@code ir} and
 * {@code io}; the CLI, bench and tests depend on it.
 */
package org.hsdag.models;
