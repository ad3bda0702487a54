package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every workload controller does with its children, as kube's controller_utils and ControllerRefManager do:
 * the controller reference it sets, pods built from a template, and claiming children — its own, plus orphans
 * its selector matches (adopted by adding a controller reference), never another controller's.
 */
final class Children {
    private Children() {
    }

    static OwnerReference controllerRef(HasMetadata owner) {
        return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }

    /** kube's GetPodFromTemplate: the template's labels, annotations, finalizers and spec, owned by {@code owner}. */
    static Pod podFromTemplate(PodTemplateSpec template, HasMetadata owner, String generateName) {
        ObjectMeta tm = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        return new PodBuilder().withNewMetadata().withNamespace(owner.getMetadata().getNamespace())
                .withGenerateName(generateName)
                .withLabels(new LinkedHashMap<>(tm.getLabels() == null ? Map.of() : tm.getLabels()))
                .withAnnotations(tm.getAnnotations() == null ? null : new LinkedHashMap<>(tm.getAnnotations()))
                .withFinalizers(tm.getFinalizers() == null ? null : new ArrayList<>(tm.getFinalizers()))
                .withOwnerReferences(controllerRef(owner)).endMetadata()
                .withSpec(Serialization.clone(template.getSpec())).build();
    }

    static boolean matches(LabelSelector selector, HasMetadata o) {
        if (selector == null) {
            return false;
        }
        boolean empty = (selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
        // An empty selector matches nothing for workloads (kube refuses it at validation; never adopt everything).
        return !empty && LabelSelectors.matches(selector, o.getMetadata().getLabels() == null ? Map.of() : o.getMetadata().getLabels());
    }

    /**
     * The children of {@code owner} in {@code informer}: those it controls, plus orphans (not being deleted) that
     * {@code selector} matches, which are adopted through {@code client} first. An owner being deleted adopts
     * nothing. Adoption that fails (the child changed or went) leaves that child out this time.
     */
    static <T extends HasMetadata> List<T> claim(KubernetesClient client, SharedIndexInformer<T> informer, HasMetadata owner,
            LabelSelector selector, Class<T> type) {
        String uid = owner.getMetadata().getUid();
        List<T> out = new ArrayList<>(Caches.controlledBy(informer, uid));
        if (owner.getMetadata().getDeletionTimestamp() != null) {
            return out;
        }
        for (T o : Caches.inNamespace(informer, owner.getMetadata().getNamespace())) {
            if (Caches.controllerUid(o).isPresent() || o.getMetadata().getDeletionTimestamp() != null || !matches(selector, o)) {
                continue;
            }
            if (adopt(client, o, owner, type)) {
                out.add(o);
            }
        }
        return out;
    }

    private static <T extends HasMetadata> boolean adopt(KubernetesClient client, T child, HasMetadata owner, Class<T> type) {
        Map<String, Object> ref = new HashMap<>();
        ref.put("apiVersion", owner.getApiVersion());
        ref.put("kind", owner.getKind());
        ref.put("name", owner.getMetadata().getName());
        ref.put("uid", owner.getMetadata().getUid());
        ref.put("controller", true);
        ref.put("blockOwnerDeletion", true);
        Map<String, Object> patch = Map.of("metadata", Map.of("ownerReferences", List.of(ref)));
        try {
            client.resources(type).inNamespace(child.getMetadata().getNamespace()).withName(child.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), Serialization.asJson(patch));
            return true;
        } catch (KubernetesClientException e) {
            if (ApiErrors.isNotFound(e) || ApiErrors.isConflict(e) || ApiErrors.isInvalid(e)) {
                return false;
            }
            throw e;
        }
    }
}
