package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.launchpriority.LaunchPriority;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Step 4 of the pod pipeline (OpenKruise's containerLaunchPriorityInitialization): on CREATE of a pod with two or
 * more containers and either the annotation {@code apps.kruise.io/container-launch-priority: Ordered} or differing
 * {@code KRUISE_CONTAINER_PRIORITY} env values, every container gets the env {@code KRUISE_CONTAINER_BARRIER} from
 * ConfigMap {@code <pod>-barrier} key {@code p_<priority>}. A pod with only {@code generateName} gets its name here,
 * as OpenKruise does, since the barrier is named after it. A priority that is no integer refuses the pod.
 */
public final class ContainerLaunchPriorityStep implements PodMutationStep {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The API server's name generator alphabet (no vowels, no look-alikes) and suffix length. */
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int SUFFIX = 5;
    private static final int MAX_PREFIX = 63 - SUFFIX;

    @Override
    public void mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate()) {
            return;
        }
        Optional<int[]> priorities = LaunchPriority.priorities(pod);
        if (priorities.isEmpty()) {
            return;
        }
        if ((pod.getMetadata().getName() == null || pod.getMetadata().getName().isEmpty())
                && pod.getMetadata().getGenerateName() != null && !pod.getMetadata().getGenerateName().isEmpty()) {
            pod.getMetadata().setName(generateName(pod.getMetadata().getGenerateName()));
        }
        String name = pod.getMetadata().getName() == null ? "" : pod.getMetadata().getName();
        int[] p = priorities.get();
        List<Container> containers = pod.getSpec().getContainers();
        for (int i = 0; i < p.length; i++) {
            Container c = containers.get(i);
            List<EnvVar> env = c.getEnv() == null ? new ArrayList<>() : new ArrayList<>(c.getEnv());
            env.add(LaunchPriority.barrierEnv(p[i], name));
            c.setEnv(env);
        }
    }

    static String generateName(String prefix) {
        String base = prefix.length() > MAX_PREFIX ? prefix.substring(0, MAX_PREFIX) : prefix;
        StringBuilder b = new StringBuilder(base);
        for (int i = 0; i < SUFFIX; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }
}
