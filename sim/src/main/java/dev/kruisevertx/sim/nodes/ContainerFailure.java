package dev.kruisevertx.sim.nodes;

/** How a simulated container misbehaves. */
public enum ContainerFailure {
    /** Starts and stays running. */
    NONE,
    /** Starts, exits with code 1, restarts with back-off, never becomes ready. */
    CRASH_LOOP,
    /** The image cannot be pulled: waiting in ErrImagePull / ImagePullBackOff, never started. */
    IMAGE_PULL_ERROR,
    /** Runs normally, but the runtime fails to stop it: CRI StopContainer answers an error. */
    STOP_ERROR
}
