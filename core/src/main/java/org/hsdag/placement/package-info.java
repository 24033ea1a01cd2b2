/**
 * Device sets, per-operation {@link org.hsdag.placement.Placement}s and their JSON files, the
 * HETERO placement rules, and split placements. Depends on {@code ir} and {@code io}; backends,
 * planners, strategies and the CLI depend on it.
 */
package org.hsdag.placement;
