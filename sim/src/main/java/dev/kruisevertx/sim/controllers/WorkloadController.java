package dev.kruisevertx.sim.controllers;

import java.time.Duration;
import java.util.Optional;

/** One of kube-controller-manager's workload controllers: brings one object (namespace/name) to its desired state. */
interface WorkloadController {
    /** The kind it owns, as its queue keys and logs name it. */
    String kind();

    /**
     * One pass over the object as the informers show it now: reads the caches, writes through the client.
     * Returns when to look again without an event (a deadline, minReadySeconds passing), if ever.
     */
    Optional<Duration> sync(String namespace, String name);
}
