/**
 * The throughput experiment: latency- and throughput-tuned placements compared on both objectives,
 * beside the best single device and AUTO's emulation (simulator). Depends on the core and the
 * simulator; nothing depends on it.
 */
package org.hsdag.bench.throughput;
