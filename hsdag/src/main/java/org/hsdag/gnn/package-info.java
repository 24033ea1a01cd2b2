/**
 * The PyG-equivalent layers in DJL (GCN convolution, edge scorer, graph-parsing pooling, linear and
 * MLP blocks), their parameter store and Adam. Depends on {@code coarsen} and {@code parsing} and on
 * no search or CLI code; the policy, trainer and strategies depend on it.
 */
package org.hsdag.gnn;
