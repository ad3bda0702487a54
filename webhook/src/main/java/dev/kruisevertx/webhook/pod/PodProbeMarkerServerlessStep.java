package dev.kruisevertx.webhook.pod;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerLookup;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pipeline step {@link PodMutationStage#POD_PROBE_MARKER_SERVERLESS} (gate EnablePodProbeMarkerOnServerless), as
 * OpenKruise v1.9.0's: on CREATE, the probes of the PodProbeMarkers that select the pod are written into
 * {@value PodProbeMarker#PROBE_ANNOTATION} (a JSON list of the probes without their markerPolicy) and the markers'
 * names into {@value PodProbeMarker#MARKER_LIST_ANNOTATION}, so a serverless runtime (virtual-kubelet), where no node
 * agent runs, can run them and report each result as the probe's pod condition.
 *
 * <p>A probe is taken when it has a {@code podConditionType}, names one of the pod's containers (or a restartable
 * init container) and neither its {@code container/name} nor its condition type was taken before. A pod already
 * carrying the marker-list annotation names its markers itself (they are not matched by selector). Markers are read
 * in name order, so the result does not depend on the cache's order.
 */
public final class PodProbeMarkerServerlessStep implements PodMutationStep {
    private final PodProbeMarkerLookup markers;

    public PodProbeMarkerServerlessStep(PodProbeMarkerLookup markers) {
        this.markers = markers;
    }

    @Override
    public void mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate() || (request.subResource() != null && !request.subResource().isEmpty())
                || pod.getMetadata() == null || pod.getSpec() == null) {
            return;
        }
        List<PodProbeMarker> found = markersFor(pod);
        if (found.isEmpty()) {
            return;
        }
        Set<String> containers = new HashSet<>();
        for (Container c : nonNull(pod.getSpec().getContainers())) {
            containers.add(c.getName());
        }
        for (Container c : nonNull(pod.getSpec().getInitContainers())) {
            if ("Always".equals(c.getRestartPolicy())) {
                containers.add(c.getName());
            }
        }
        Set<String> takenKeys = new HashSet<>();
        Set<String> takenConditions = new HashSet<>();
        Set<String> names = new TreeSet<>();
        ArrayNode probes = JsonNodeFactory.instance.arrayNode();
        for (PodProbeMarker ppm : found) {
            for (PodContainerProbe probe : ppm.probes()) {
                String condition = probe.getPodConditionType();
                String key = probe.getContainerName() + "/" + probe.getName();
                if (condition == null || condition.isEmpty() || takenConditions.contains(condition)
                        || takenKeys.contains(key) || !containers.contains(probe.getContainerName())) {
                    continue;
                }
                probes.add(goJson(probe));
                takenKeys.add(key);
                takenConditions.add(condition);
                names.add(ppm.getMetadata().getName());
            }
        }
        if (probes.isEmpty()) {
            return;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(pod.getMetadata().getAnnotations());
        annotations.put(PodProbeMarker.PROBE_ANNOTATION, probes.toString());
        annotations.put(PodProbeMarker.MARKER_LIST_ANNOTATION, String.join(",", names));
        pod.getMetadata().setAnnotations(annotations);
    }

    /** The markers named by the pod's marker-list annotation, else those of its namespace whose selector matches. */
    private List<PodProbeMarker> markersFor(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String listed = annotations == null ? null : annotations.get(PodProbeMarker.MARKER_LIST_ANNOTATION);
        List<PodProbeMarker> out = new ArrayList<>();
        if (listed != null && !listed.isEmpty()) {
            for (String name : listed.split(",", -1)) {
                Optional<PodProbeMarker> ppm = markers.get(namespace, name);
                ppm.ifPresent(out::add);
            }
            return out;
        }
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        for (PodProbeMarker ppm : markers.inNamespace(namespace)) {
            if (selects(ppm.spec().getSelector(), labels)) {
                out.add(ppm);
            }
        }
        out.sort(Comparator.comparing(m -> m.getMetadata().getName()));
        return out;
    }

    /** A nil, empty or invalid selector selects nothing (it cannot be fixed by waiting), as OpenKruise. */
    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector == null || (nonNull(selector.getMatchLabels()).isEmpty()
                && nonNull(selector.getMatchExpressions()).isEmpty())) {
            return false;
        }
        try {
            return LabelSelectors.matches(selector, labels);
        } catch (IllegalArgumentException invalid) {
            return false;
        }
    }

    /** The probe as Go writes an {@code appsv1alpha1.PodContainerProbe} with its markerPolicy cleared. */
    private static ObjectNode goJson(PodContainerProbe probe) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("name", probe.getName() == null ? "" : probe.getName());
        out.put("containerName", probe.getContainerName() == null ? "" : probe.getContainerName());
        out.set("probe", GoProbeJson.of(probe.getProbe()));
        out.put("podConditionType", probe.getPodConditionType());
        return out;
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static <K, V> Map<K, V> nonNull(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }
}
