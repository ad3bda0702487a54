package dev.kruisevertx.kubectl;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The chart's pre-delete check: uninstalling kruise deletes its CRDs and with them every CloneSet, Advanced
 * StatefulSet and Advanced DaemonSet and their pods, so the uninstall is refused while any of them exists.
 */
public final class UninstallCheck {
    /** A kind that blocks uninstall, with the API versions to try (a cluster may serve only some). */
    record Guarded(String kind, String plural, List<String> versions) {
    }

    static final List<Guarded> GUARDED = List.of(
            new Guarded("CloneSet", "clonesets", List.of("v1alpha1")),
            new Guarded("Advanced StatefulSet", "statefulsets", List.of("v1beta1", "v1alpha1")),
            new Guarded("Advanced DaemonSet", "daemonsets", List.of("v1alpha1")));

    private static final int NAMES_SHOWN = 5;

    private UninstallCheck() {
    }

    /** Returns true (and says so) when nothing blocks the uninstall; otherwise prints what is left to err. */
    public static boolean run(KubernetesClient client, PrintStream out, PrintStream err) {
        List<String> blocking = new ArrayList<>();
        for (Guarded g : GUARDED) {
            List<GenericKubernetesResource> items = list(client, g);
            if (!items.isEmpty()) {
                List<String> names = items.stream().limit(NAMES_SHOWN)
                        .map(i -> i.getMetadata().getNamespace() + "/" + i.getMetadata().getName()).toList();
                blocking.add(items.size() + " " + g.kind() + (items.size() == 1 ? "" : "s") + " (" + String.join(", ", names)
                        + (items.size() > NAMES_SHOWN ? ", ..." : "") + ")");
            }
        }
        if (blocking.isEmpty()) {
            out.println("no CloneSet, Advanced StatefulSet or Advanced DaemonSet left: kruise can be uninstalled");
            return true;
        }
        err.println("error: refusing to uninstall kruise while these workloads exist (deleting the CRDs would delete"
                + " them and their pods): " + String.join("; ", blocking) + ". Delete them first, then uninstall again.");
        return false;
    }

    private static List<GenericKubernetesResource> list(KubernetesClient client, Guarded g) {
        for (String version : g.versions()) {
            ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder().withGroup("apps.kruise.io")
                    .withVersion(version).withPlural(g.plural()).withNamespaced(true).build();
            try {
                return client.genericKubernetesResources(ctx).inAnyNamespace().list().getItems();
            } catch (KubernetesClientException e) {
                // 404: this version (or the whole CRD) is not served; try the next one, then count none.
                if (!ApiErrors.isNotFound(e)) {
                    throw new CliException("cannot list " + g.plural() + ".apps.kruise.io/" + version + ": " + e.getMessage());
                }
            }
        }
        return List.of();
    }
}
