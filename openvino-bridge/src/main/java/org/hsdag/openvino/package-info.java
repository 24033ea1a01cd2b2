/**
 * The real OpenVINO backend: {@link org.hsdag.openvino.OpenVinoBackend} times placements through
 * HETERO manual affinities, over a project-owned C++17 shim ({@code src/main/cpp/hsdag_ov_shim.h})
 * mapped by JavaCPP in {@code org.hsdag.openvino.internal}. The native part is built by
 * {@code native/provision.sh} (run by the build, and by {@code ./hsdag.sh openvino install}) against a
 * provisioned OpenVINO; everything else here — placement-to-affinity mapping
 * ({@link org.hsdag.placement.HeteroAffinity}), profiling records, calibration of simulator
 * profiles, availability reporting — is pure Java and works without OpenVINO.
 */
package org.hsdag.openvino;
