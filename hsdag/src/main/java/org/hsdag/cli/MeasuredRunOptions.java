package org.hsdag.cli;

import picocli.CommandLine.Mixin;

/**
 * The options of every command that measures a model: on which backend and devices, by which protocol, at which
 * input sizes ({@code tune}, {@code apply}, {@code bench}). One block, so the commands cannot drift apart.
 */
public final class MeasuredRunOptions {
  @Mixin
  public BackendOptions backend;

  @Mixin
  public DeviceOptions devices;

  @Mixin
  public ProtocolOptions protocol;

  @Mixin
  public InputShapeOptions inputShapes;
}
