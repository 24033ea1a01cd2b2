package org.hsdag.search;

import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;

/**
 * What a strategy searches over.
 *
 * @param graph the model
 * @param devices the devices to place on, in priority order
 * @param support which devices can run each node (strategies must never propose a disallowed
 *     device when an allowed one exists)
 * @param budget measurements the tuner will spend (strategies may plan with it)
 * @param seed the strategy's seed (split from the run's master seed)
 * @param protocol the measurement protocol in use
 * @param backendName backend that measures, for logs
 */
public record SearchContext(
    OpGraph graph,
    DeviceSet devices,
    SupportMatrix support,
    int budget,
    long seed,
    MeasurementProtocol protocol,
    String backendName) {}
