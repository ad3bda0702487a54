package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment a simulated container starts with, resolved from its pod at creation as the kubelet resolves it:
 * {@code HOSTNAME}, literal values, and {@code fieldRef}s to the pod's name, namespace, uid, labels, annotations,
 * node, service account and IPs. Values from ConfigMaps, Secrets and resources are left out: the simulated runtime has
 * no use for them and its {@code env} output should not carry a secret.
 */
final class SimEnv {
    private SimEnv() {
    }

    static Map<String, String> resolve(Pod pod, Container c) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOSTNAME", pod.getMetadata().getName());
        if (c.getEnv() == null) {
            return Collections.unmodifiableMap(env);
        }
        for (EnvVar e : c.getEnv()) {
            if (e.getName() == null || e.getName().isEmpty()) {
                continue;
            }
            if (e.getValueFrom() == null) {
                env.put(e.getName(), e.getValue() == null ? "" : e.getValue());
            } else if (e.getValueFrom().getFieldRef() != null) {
                String value = field(pod, e.getValueFrom().getFieldRef().getFieldPath());
                if (value != null) {
                    env.put(e.getName(), value);
                }
            }
        }
        return Collections.unmodifiableMap(env);
    }

    /** The value a downward-API field path gives; a missing label or annotation gives "", an unknown path null. */
    private static String field(Pod pod, String path) {
        if (path == null) {
            return null;
        }
        var meta = pod.getMetadata();
        switch (path) {
            case "metadata.name":
                return meta.getName();
            case "metadata.namespace":
                return meta.getNamespace();
            case "metadata.uid":
                return meta.getUid();
            case "spec.nodeName":
                return pod.getSpec().getNodeName();
            case "spec.serviceAccountName":
                return pod.getSpec().getServiceAccountName();
            case "status.podIP":
                return pod.getStatus() == null ? null : pod.getStatus().getPodIP();
            case "status.hostIP":
                return pod.getStatus() == null ? null : pod.getStatus().getHostIP();
            default:
                break;
        }
        if (path.endsWith("']")) {
            int open = path.indexOf("['");
            if (open > 0) {
                String key = path.substring(open + 2, path.length() - 2);
                Map<String, String> source = switch (path.substring(0, open)) {
                    case "metadata.labels" -> meta.getLabels();
                    case "metadata.annotations" -> meta.getAnnotations();
                    default -> null;
                };
                if (source == null && !path.startsWith("metadata.labels[") && !path.startsWith("metadata.annotations[")) {
                    return null;
                }
                String value = source == null ? null : source.get(key);
                return value == null ? "" : value;
            }
        }
        return null;
    }
}
