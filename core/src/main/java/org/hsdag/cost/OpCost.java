package org.hsdag.cost;

/**
 * The device-independent cost of one operation, from its IR shapes and attributes.
 *
 * @param opClass the cost class (selects the device efficiency)
 * @param flops floating-point (or integer) operations, a multiply-add counting two
 * @param bytes bytes read and written (inputs, weights and outputs)
 * @param dynamic whether the op has a dynamic dimension (some devices, e.g. NPUs, cannot run it)
 */
public record OpCost(OpClass opClass, double flops, double bytes, boolean dynamic) {}
