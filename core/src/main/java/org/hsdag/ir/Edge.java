package org.hsdag.ir;

/**
 * A data edge between dense node indices.
 *
 * @param source producing node index
 * @param sourceOutput position of the port in the producer's output list
 * @param target consuming node index
 * @param targetInput position of the port in the consumer's input list
 */
public record Edge(int source, int sourceOutput, int target, int targetInput) {}
