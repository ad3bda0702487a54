package dev.kruisevertx.webhook.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sidecarset.SidecarInjection;
import dev.kruisevertx.sidecarset.SidecarSetRevisionChoice;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.pod.PodMutationStep;
import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Step 3 of {@code /mutate-pod} (OpenKruise v1.9's {@code sidecarsetMutatingPod}): for an active pod being created,
 * the SidecarSets of its namespace and the cluster-scoped ones (two index look-ups in the shared cache), minus those
 * with injection paused, outside their namespaceSelector or selector; each in the revision its injection strategy
 * chooses; injected with {@link SidecarInjection#inject}.
 *
 * <p>A pod UPDATE is left as it is: OpenKruise v1.9 re-injects on update only when its control reports a change of
 * pod availability, which its (only) open-source control never does. A SidecarSet whose selectors cannot be
 * evaluated is skipped (validation refuses such objects; one that got in anyway must not block every pod), while a
 * pinned revision that does not exist and an unreadable {@code kruise.io/sidecarset-hash} pod annotation refuse the
 * pod as in OpenKruise.
 */
public final class SidecarSetInjectionStep implements PodMutationStep {
    private static final Logger LOG = LoggerFactory.getLogger(SidecarSetInjectionStep.class);

    private final SidecarSetLookup lookup;
    private final boolean sortByName;
    private final Clock clock;
    private final DoubleSupplier random;

    /** @param sortByName feature gate EnableSortSidecarContainerByName */
    public SidecarSetInjectionStep(SidecarSetLookup lookup, boolean sortByName) {
        this(lookup, sortByName, Clock.systemUTC(), () -> ThreadLocalRandom.current().nextDouble());
    }

    public SidecarSetInjectionStep(SidecarSetLookup lookup, boolean sortByName, Clock clock, DoubleSupplier random) {
        this.lookup = lookup;
        this.sortByName = sortByName;
        this.clock = clock;
        this.random = random;
    }

    @Override
    public void mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate() || pod.getMetadata() == null || pod.getSpec() == null || !Pods.isActive(pod)) {
            return;
        }
        String namespace = pod.getMetadata().getNamespace() == null || pod.getMetadata().getNamespace().isEmpty()
                ? "default" : pod.getMetadata().getNamespace();
        List<SidecarSet> candidates = lookup.candidates(namespace);
        if (candidates.isEmpty()) {
            return;
        }
        Optional<Map<String, String>> namespaceLabels = null;
        List<SidecarSet> chosen = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<SidecarSet> ordered = new ArrayList<>(candidates);
        ordered.sort(Comparator.comparing(s -> s.getMetadata().getName()));
        for (SidecarSet set : ordered) {
            if (set.getSpec() == null) {
                continue;
            }
            Map<String, String> labels = Map.of();
            if (set.getSpec().getNamespaceSelector() != null) {
                if (namespaceLabels == null) {
                    namespaceLabels = lookup.namespaceLabels(namespace);
                }
                if (namespaceLabels.isEmpty()) {
                    continue;
                }
                labels = namespaceLabels.get();
            }
            String why;
            try {
                why = SidecarInjection.whyNotMatched(pod, set, labels);
            } catch (RuntimeException e) {
                LOG.debug("SidecarSet {} skipped for pod injection: {}", set.getMetadata().getName(), e.getMessage());
                skipped.add(set.getMetadata().getName() + " (unreadable selector)");
                continue;
            }
            if (why != null) {
                if (!why.isEmpty()) {
                    skipped.add(set.getMetadata().getName() + " (" + why + ")");
                }
                continue;
            }
            chosen.add(SidecarSetRevisionChoice.forCreate(set, pod, lookup.revisions(), random));
        }
        SidecarInjection.Plan plan = SidecarInjection.inject(pod, chosen, skipped, sortByName, clock.instant());
        if (plan.changed()) {
            pod.setMetadata(plan.pod().getMetadata());
            pod.setSpec(plan.pod().getSpec());
        }
    }
}
