package dev.kruisevertx.sim.nodes;

import java.time.Instant;
import java.util.List;

/** A command the simulated runtime was asked to run in a container (CRI ExecSync), e.g. a preStop hook. */
public record ExecRecord(String node, String podNamespace, String podName, String containerName, String containerId,
        List<String> command, Instant at) {
}
