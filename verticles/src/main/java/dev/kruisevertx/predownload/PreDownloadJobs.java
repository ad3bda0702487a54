package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobPodSelector;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.PullPolicy;
import dev.kruisevertx.api.apps.v1beta1.SandboxConfig;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ImagePullJobs a workload creates to pre-download the images of its update revision, shaped as OpenKruise's
 * CreateJobForWorkload shapes them: named {@code <update revision>-<container>}, controlled by the workload, labelled
 * with the template's labels plus the revision's history hash, pulling on the nodes of the workload's pods not at
 * the update revision, completion Always with a 600 s TTL, one retry.
 */
public final class PreDownloadJobs {
    /** Revision label: the revision's images have been given pre-download jobs. */
    public static final String CREATED_LABEL = WellKnown.IMAGE_PREDOWNLOAD_CREATED_ANNOTATION;
    /** Revision label: the revision needs no pre-download. */
    public static final String IGNORED_LABEL = WellKnown.IMAGE_PREDOWNLOAD_IGNORED_ANNOTATION;
    /** Kubernetes' controller history label on a revision (history.ControllerRevisionHashLabel). */
    public static final String HISTORY_HASH_LABEL = "controller.kubernetes.io/hash";
    /** The pods' revision label (apps.ControllerRevisionHashLabelKey). */
    public static final String POD_REVISION_LABEL = "controller-revision-hash";
    public static final int BACKOFF_LIMIT = 1;
    public static final int TTL_SECONDS_AFTER_FINISHED = 600;

    private PreDownloadJobs() {
    }

    /** The job of one changed container image. */
    public static ImagePullJob job(HasMetadata owner, OwnerReference controllerRef, LabelSelector workloadSelector,
                                   PodTemplateSpec template, ControllerRevision update, String container,
                                   String image) {
        Map<String, String> annotations = owner.getMetadata().getAnnotations() == null ? Map.of()
                : owner.getMetadata().getAnnotations();
        String historyHash = revisionLabels(update).getOrDefault(HISTORY_HASH_LABEL, "");

        LabelSelector selector = workloadSelector == null ? new LabelSelector() : workloadSelector;
        ImagePullJobPodSelector podSelector = new ImagePullJobPodSelector();
        podSelector.setMatchLabels(selector.getMatchLabels() == null ? null : new LinkedHashMap<>(selector.getMatchLabels()));
        List<LabelSelectorRequirement> expressions = new ArrayList<>();
        if (selector.getMatchExpressions() != null) {
            expressions.addAll(selector.getMatchExpressions());
        }
        expressions.add(new LabelSelectorRequirement(POD_REVISION_LABEL, "NotIn",
                List.of(update.getMetadata().getName(), historyHash)));
        podSelector.setMatchExpressions(expressions);

        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> templateAnnotations = new LinkedHashMap<>();
        if (template != null && template.getMetadata() != null) {
            if (template.getMetadata().getLabels() != null) {
                labels.putAll(template.getMetadata().getLabels());
            }
            if (template.getMetadata().getAnnotations() != null) {
                templateAnnotations.putAll(template.getMetadata().getAnnotations());
            }
        }
        labels.put(HISTORY_HASH_LABEL, historyHash);

        List<String> pullSecrets = null;
        if (template != null && template.getSpec() != null && template.getSpec().getImagePullSecrets() != null) {
            pullSecrets = new ArrayList<>();
            for (LocalObjectReference s : template.getSpec().getImagePullSecrets()) {
                pullSecrets.add(s.getName());
            }
        }

        PullPolicy pull = new PullPolicy();
        pull.setBackoffLimit(BACKOFF_LIMIT);
        pull.setTimeoutSeconds(PreDownloadValues.timeoutSeconds(
                annotations.get(WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION)));
        CompletionPolicy completion = new CompletionPolicy();
        completion.setType("Always");
        completion.setTtlSecondsAfterFinished(TTL_SECONDS_AFTER_FINISHED);
        SandboxConfig sandbox = new SandboxConfig();
        // Go drops an empty map (omitempty); so does this.
        sandbox.setAnnotations(templateAnnotations.isEmpty() ? null : templateAnnotations);
        sandbox.setLabels(labels);

        ImagePullJobSpec spec = new ImagePullJobSpec();
        spec.setImage(image);
        spec.setPullSecrets(pullSecrets);
        spec.setPodSelector(podSelector);
        spec.setParallelism(new IntOrString(PreDownloadValues.parallelism(
                annotations.get(WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION))));
        spec.setPullPolicy(pull);
        spec.setCompletionPolicy(completion);
        spec.setSandboxConfig(sandbox);

        ImagePullJob job = new ImagePullJob();
        job.setMetadata(new ObjectMetaBuilder().withNamespace(owner.getMetadata().getNamespace())
                .withName(name(update, container)).withOwnerReferences(controllerRef)
                .withLabels(new LinkedHashMap<>(labels)).build());
        job.setSpec(spec);
        return job;
    }

    /** {@code <update revision>-<container>}. */
    public static String name(ControllerRevision update, String container) {
        return update.getMetadata().getName() + "-" + container;
    }

    static Map<String, String> revisionLabels(ControllerRevision r) {
        return r == null || r.getMetadata() == null || r.getMetadata().getLabels() == null ? Map.of()
                : r.getMetadata().getLabels();
    }

    /** Whether the revision carries the created or ignored label (any value, as OpenKruise checks presence). */
    static boolean marked(ControllerRevision r) {
        Map<String, String> labels = revisionLabels(r);
        return labels.containsKey(CREATED_LABEL) || labels.containsKey(IGNORED_LABEL);
    }

    /** The jobs of the workload (controller ownerReference) not being deleted, by name. */
    static List<String> live(List<ImagePullJob> owned) {
        List<String> names = new ArrayList<>();
        for (ImagePullJob j : owned) {
            if (j.getMetadata().getDeletionTimestamp() == null) {
                names.add(j.getMetadata().getName());
            }
        }
        return names;
    }
}
