/**
 * The discrete part of graph parsing: dominant edges to clusters to an assignment. Depends only on
 * {@code coarsen}; the GNN pooling and the policy depend on it.
 */
package org.hsdag.parsing;
