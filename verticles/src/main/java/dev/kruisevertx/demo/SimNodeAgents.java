package dev.kruisevertx.demo;

import dev.kruisevertx.agent.cri.CriEndpoint;
import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.agent.crr.CrrAgent;
import dev.kruisevertx.sim.cri.SimCriServer;
import dev.kruisevertx.sim.cri.SimCriServers;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The node agent's jobs for simulated nodes: per node, the agent's ContainerRecreateRequest job ({@link CrrAgent}) and
 * its PodProbeMarker prober ({@link dev.kruisevertx.agent.podprobe.PodProbeAgent}), its container-meta job
 * ({@link dev.kruisevertx.agent.containermeta.ContainerMetaAgent}: {@code apps.kruise.io/runtime-containers-meta} and
 * restarts for env-from-metadata changes, reading each container's env from the simulated runtime's ExecSync),
 * with the agent's own CRI client ({@link GrpcCriClient}) on that node's simulated runtime socket. This is what a
 * kruise-daemon pod on each node would be; {@code demo} and {@code sim-nodes} run it so CRR works there too.
 */
public final class SimNodeAgents {
    private static final Logger LOG = LoggerFactory.getLogger(SimNodeAgents.class);

    private final List<CrrAgent> agents = new ArrayList<>();
    private final List<dev.kruisevertx.agent.podprobe.PodProbeAgent> probers = new ArrayList<>();
    private final List<dev.kruisevertx.agent.containermeta.ContainerMetaAgent> containerMetas = new ArrayList<>();
    private final List<GrpcCriClient> clients = new ArrayList<>();

    private SimNodeAgents() {
    }

    /**
     * Starts one agent per CRI server. {@code vertx} needs its native transport (unix sockets); {@code kube} is shared
     * by the agents and stays the caller's. Completes once every agent has listed its node's requests, which needs
     * the ContainerRecreateRequest CRD installed.
     */
    public static Future<SimNodeAgents> start(Vertx vertx, KubernetesClient kube, SimCriServers servers, Duration poll) {
        SimNodeAgents all = new SimNodeAgents();
        List<Future<Void>> started = new ArrayList<>();
        for (SimCriServer server : servers.servers().values()) {
            GrpcCriClient cri = new GrpcCriClient(vertx, CriEndpoint.parse(server.endpoint()),
                    GrpcCriClient.DEFAULT_CALL_TIMEOUT, null);
            CrrAgent agent = new CrrAgent(vertx, kube, cri, server.node(), poll);
            all.clients.add(cri);
            all.agents.add(agent);
            started.add(agent.start());
            dev.kruisevertx.agent.podprobe.PodProbeAgent prober =
                    new dev.kruisevertx.agent.podprobe.PodProbeAgent(vertx, kube, cri, server.node());
            all.probers.add(prober);
            started.add(prober.start());
            // Gates DaemonWatchingPod and InPlaceUpdateEnvFromMetadata at their defaults (on), as a default daemon.
            dev.kruisevertx.agent.containermeta.ContainerMetaAgent meta =
                    new dev.kruisevertx.agent.containermeta.ContainerMetaAgent(vertx, kube, cri, server.node(), true);
            all.containerMetas.add(meta);
            started.add(meta.start());
        }
        return Future.all(started)
                .map(all)
                .onSuccess(a -> LOG.info("node agents running for {} simulated nodes", a.agents.size()))
                .recover(err -> all.close().transform(x -> Future.failedFuture(err)));
    }

    public int size() {
        return agents.size();
    }

    public Future<Void> close() {
        List<Future<Void>> stopping = new ArrayList<>();
        agents.forEach(a -> stopping.add(a.stop()));
        probers.forEach(p -> stopping.add(p.stop()));
        containerMetas.forEach(m -> stopping.add(m.stop()));
        return Future.join(stopping).transform(x -> {
            List<Future<Void>> closing = new ArrayList<>();
            clients.forEach(c -> closing.add(c.close()));
            return Future.join(closing);
        }).mapEmpty();
    }
}
