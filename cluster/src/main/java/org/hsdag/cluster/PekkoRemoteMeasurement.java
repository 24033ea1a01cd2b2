package org.hsdag.cluster;

import java.util.List;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.cli.RemoteMeasurement;
import org.hsdag.ir.OpGraph;

/** {@code --cluster} through Apache Pekko Cluster; found by {@link java.util.ServiceLoader}. */
public final class PekkoRemoteMeasurement implements RemoteMeasurement {
  /** The role of the member that hands out tasks (a tune or bench). */
  static final String COORDINATOR_ROLE = "coordinator";

  @Override
  public LatencyBackend connect(Request request, LatencyBackend local, OpGraph graph) {
    ClusterSettings.HostPort seed = ClusterSettings.parseHostPort(request.seedNode(), "--cluster");
    ClusterSettings.requireReachable(request.bindHost(), "--cluster-bind");
    ClusterSettings settings = ClusterSettings.of(request.bindHost(), 0, List.of(seed.toString()),
        List.of(COORDINATOR_ROLE),
        TlsFiles.forRole(request.tlsDir(), CertificateRoles.Role.COORDINATOR, "--cluster-tls"));
    return ClusterBackend.start(settings, request, local, graph);
  }
}
