package dev.kruisevertx.sim.nodes;

/** How a simulated node's kubelet behaves towards the control plane. */
public enum NodeHealth {
    /** Renews its Lease and reports Ready=True. */
    READY,
    /** Keeps renewing its Lease but reports Ready=False (reason KubeletNotReady), as a kubelet whose runtime is down. */
    NOT_READY,
    /**
     * Silent, as a node that lost its network or power: no Lease renewals, no node or pod status; the node lifecycle
     * controller then marks it Ready=Unknown.
     */
    UNREACHABLE
}
