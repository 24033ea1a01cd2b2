/**
 * Measuring on a fleet through Apache Pekko Cluster: the coordinator that hands tasks to labelled
 * workers, the worker command, TLS set-up ({@code cluster init}) and the JSON wire messages.
 * Depends on the hsdag core ({@code backend}, {@code cli}, {@code tune}, ...); nothing in the core
 * depends on it: the CLI finds it through {@code ServiceLoader}, so a single-machine run loads no
 * Pekko class.
 */
package org.hsdag.cluster;
