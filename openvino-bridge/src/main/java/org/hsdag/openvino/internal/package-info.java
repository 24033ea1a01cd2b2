/**
 * JavaCPP glue for the OpenVINO shim. Only {@link org.hsdag.openvino.OpenVinoAvailability} loads
 * these classes (reflectively), after checking that the native library exists.
 */
package org.hsdag.openvino.internal;
