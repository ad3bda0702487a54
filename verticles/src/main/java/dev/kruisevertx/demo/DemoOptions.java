package dev.kruisevertx.demo;

import java.nio.file.Path;
import java.time.Duration;

/** What the demo runs with. */
public record DemoOptions(int nodes, Path kubeconfigOut, int apiPort, String metricsAddr, String healthProbeAddr,
                          String debugAddr, String featureGates, Path samplesDir, boolean untilReady, Duration timeout) {
}
