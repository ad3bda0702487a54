package dev.kruisevertx.agent.cri;

import dev.kruisevertx.cri.v1.VersionResponse;

/** A runtime socket that answered Version and ListImages, and what it said it is. */
public record DiscoveredRuntime(CriEndpoint endpoint, VersionResponse version) {
    @Override
    public String toString() {
        return version.getRuntimeName() + " " + version.getRuntimeVersion()
                + " (CRI " + version.getRuntimeApiVersion() + ") on " + endpoint;
    }
}
