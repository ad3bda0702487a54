package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which containers end on their own, and how: the pod's {@value ContainerExit#ANNOTATION}{@code .<container>}
 * annotation, else its {@value ContainerExit#ANNOTATION} annotation, else the first {@link ExitRule} matching the
 * image. Only for restartPolicy Never and OnFailure pods: an Always pod's containers never finish.
 */
final class ContainerExits {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerExits.class);

    private final List<ExitRule> rules;

    ContainerExits(List<ExitRule> rules) {
        this.rules = rules;
    }

    Optional<ContainerExit> of(Pod pod, Container c) {
        String policy = pod.getSpec().getRestartPolicy();
        if (!"Never".equals(policy) && !"OnFailure".equals(policy)) {
            return Optional.empty();
        }
        Map<String, String> ann = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String text = ann.getOrDefault(ContainerExit.ANNOTATION + "." + c.getName(), ann.get(ContainerExit.ANNOTATION));
        if (text != null) {
            try {
                return Optional.of(ContainerExit.parse(text));
            } catch (IllegalArgumentException e) {
                LOG.warn("pod {}/{}: ignoring its {} annotation for container {}: not of the form code=N,after=DURATION",
                        pod.getMetadata().getNamespace(), pod.getMetadata().getName(), ContainerExit.ANNOTATION, c.getName());
            }
        }
        for (ExitRule r : rules) {
            if (r.matches(c.getImage())) {
                return Optional.of(r.exit());
            }
        }
        return Optional.empty();
    }

    /**
     * How an ephemeral container ends on its own: the pod's {@value ContainerExit#ANNOTATION}{@code .<container>}
     * annotation, else the first {@link ExitRule} matching its image, whatever the pod's restartPolicy (an
     * ephemeral container is never restarted). The pod-wide annotation is for the pod's own containers only.
     */
    Optional<ContainerExit> ofEphemeral(Pod pod, io.fabric8.kubernetes.api.model.EphemeralContainer c) {
        Map<String, String> ann = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String text = ann.get(ContainerExit.ANNOTATION + "." + c.getName());
        if (text != null) {
            try {
                return Optional.of(ContainerExit.parse(text));
            } catch (IllegalArgumentException e) {
                LOG.warn("pod {}/{}: ignoring its {} annotation for ephemeral container {}: not of the form "
                                + "code=N,after=DURATION", pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                        ContainerExit.ANNOTATION, c.getName());
            }
        }
        for (ExitRule r : rules) {
            if (r.matches(c.getImage())) {
                return Optional.of(r.exit());
            }
        }
        return Optional.empty();
    }

    /** Whether the kubelet starts a container again after it exited with {@code code}. */
    static boolean restarts(Pod pod, int code) {
        return "OnFailure".equals(pod.getSpec().getRestartPolicy()) && code != 0;
    }
}
