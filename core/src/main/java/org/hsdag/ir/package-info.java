/**
 * OpenVINO IR v10/v11 reading and writing and the immutable {@link org.hsdag.ir.OpGraph} (nodes,
 * ports, edges, attributes, weights, constant folding of shape subgraphs). Depends only on
 * {@code org.hsdag.io}; every other package may depend on it.
 */
package org.hsdag.ir;
