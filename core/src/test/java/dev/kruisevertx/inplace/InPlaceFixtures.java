package dev.kruisevertx.inplace;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Templates, revisions and pods for in-place update tests. */
final class InPlaceFixtures {
    private InPlaceFixtures() {
    }

    static Container container(String name, String image, Integer priority) {
        ContainerBuilder b = new ContainerBuilder().withName(name).withImage(image);
        if (priority != null) {
            b.addNewEnv().withName(WellKnown.CONTAINER_LAUNCH_PRIORITY_ENV).withValue(priority.toString()).endEnv();
        }
        return b.build();
    }

    static Container envFromLabel(Container c, String env, String labelKey) {
        return new ContainerBuilder(c).addNewEnv().withName(env).withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.labels['" + labelKey + "']").endFieldRef().endValueFrom().endEnv().build();
    }

    static Container envFromAnnotation(Container c, String env, String key) {
        return new ContainerBuilder(c).addNewEnv().withName(env).withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.annotations['" + key + "']").endFieldRef().endValueFrom().endEnv().build();
    }

    static PodTemplateSpec template(Map<String, String> labels, Map<String, String> annotations, Container... cs) {
        return new PodTemplateSpecBuilder().withNewMetadata().withLabels(labels).withAnnotations(annotations)
                .endMetadata().withNewSpec().withContainers(cs).endSpec().build();
    }

    static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** A ControllerRevision holding the template the way OpenKruise's CloneSet stores it. */
    static ControllerRevision revision(String name, PodTemplateSpec template) {
        Map<String, Object> tpl = ApiJson.serialization().convertValue(template, Map.class);
        tpl.put("$patch", "replace");
        Map<String, Object> data = Map.of("spec", Map.of("template", tpl));
        return new ControllerRevisionBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withRevision(1L).withData(data).build();
    }

    /** A running pod created from {@code template} at {@code revision}, with the in-place gate and statuses. */
    static Pod pod(PodTemplateSpec template, String revision) {
        Pod pod = new PodBuilder().withNewMetadata().withName("demo-abcde").withNamespace("default")
                .withResourceVersion("7").withLabels(new LinkedHashMap<>(template.getMetadata().getLabels()))
                .withAnnotations(new LinkedHashMap<>(template.getMetadata().getAnnotations())).endMetadata()
                .withSpec(new PodSpecBuilder(template.getSpec()).build())
                .build();
        RevisionLabels.cloneSet(false).write(pod.getMetadata().getLabels(), revision);
        InPlaceUpdater.injectReadinessGate(pod.getSpec());
        List<ContainerStatus> statuses = new ArrayList<>();
        for (Container c : pod.getSpec().getContainers()) {
            statuses.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                    .withImageID("docker-pullable://" + c.getImage() + "@sha256:old-" + c.getName())
                    .withContainerID("containerd://" + c.getName() + "-1").withReady(true).withRestartCount(0).build());
        }
        return new PodBuilder(pod).withNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime("2026-01-01T00:00:00Z").endCondition()
                .addNewCondition().withType("ContainersReady").withStatus("True").endCondition()
                .addNewCondition().withType(WellKnown.INPLACE_UPDATE_READY_CONDITION).withStatus("True").endCondition()
                .withContainerStatuses(statuses).endStatus().build();
    }

    /** The pod after the kubelet restarted {@code name} with its spec image (a new imageID and containerID). */
    static Pod restarted(Pod pod, String name, boolean ready) {
        Pod copy = new PodBuilder(pod).build();
        String image = copy.getSpec().getContainers().stream().filter(c -> c.getName().equals(name)).findFirst()
                .orElseThrow().getImage();
        for (ContainerStatus s : copy.getStatus().getContainerStatuses()) {
            if (s.getName().equals(name)) {
                s.setImage(image);
                s.setImageID("docker-pullable://" + image + "@sha256:new-" + name);
                s.setContainerID("containerd://" + name + "-2");
                s.setReady(ready);
            }
        }
        return copy;
    }

    static String json(Object o) {
        return ApiJson.toJson(o);
    }
}
