package org.hsdag.models;

/** Helpers shared by the model builders. */
final class Models {
  private Models() {}

  /** Model-level rt_info naming the generator, so a reader can tell these IRs from converted ones. */
  static String generatorInfo(Class<?> builder, String name) {
    return "<rt_info><hsdag_generator value=\"" + builder.getName() + "\"/>"
        + "<hsdag_weights value=\"pseudo-random f16 from a seed; write the .bin with: hsdag models build " + name
        + "\"/></rt_info>";
  }
}
