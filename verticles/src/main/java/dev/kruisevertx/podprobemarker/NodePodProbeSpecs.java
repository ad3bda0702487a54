package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.ContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Pure edits of a NodePodProbe spec: a PodProbeMarker's probes merged in for its pods on the node (named ports
 * resolved to numbers from the container), or taken out. Never modifies its inputs (they are cached objects).
 */
public final class NodePodProbeSpecs {
    /** Separates the marker's name from the probe's in a NodePodProbe probe name. */
    public static final String SEPARATOR = "#";

    private NodePodProbeSpecs() {
    }

    /** The NodePodProbe name of a marker's probe: {@code <marker>#<probe>}. */
    public static String probeName(String markerName, String probeName) {
        return markerName + SEPARATOR + probeName;
    }

    /**
     * {@code spec} with {@code ppm}'s probes set for each of {@code pods}: an existing entry of the pod (same name,
     * namespace and uid) gets its IP filled in if empty and the marker's probes replaced (probes the marker no longer
     * has are dropped); a pod without an entry gets one. A probe whose named port the container does not declare is
     * left out, as OpenKruise.
     */
    public static NodePodProbeSpec withMarker(NodePodProbeSpec spec, PodProbeMarker ppm, List<Pod> pods) {
        List<PodProbe> out = copy(spec);
        String marker = ppm.getMetadata().getName();
        for (Pod pod : pods) {
            List<ContainerProbe> probes = resolvedProbes(ppm, pod);
            PodProbe entry = null;
            for (PodProbe p : out) {
                if (pod.getMetadata().getName().equals(p.getName())
                        && pod.getMetadata().getNamespace().equals(p.getNamespace())
                        && pod.getMetadata().getUid().equals(p.getUid())) {
                    entry = p;
                    break;
                }
            }
            if (entry == null) {
                entry = new PodProbe();
                entry.setName(pod.getMetadata().getName());
                entry.setNamespace(pod.getMetadata().getNamespace());
                entry.setUid(pod.getMetadata().getUid());
                entry.setIp(podIp(pod));
                out.add(entry);
            } else if (entry.getIp() == null || entry.getIp().isEmpty()) {
                entry.setIp(podIp(pod));
            }
            // Probes already listed keep their place (an unchanged marker writes an identical spec); the marker's
            // probes it no longer has are dropped; new ones are appended.
            java.util.Map<String, ContainerProbe> wanted = new java.util.LinkedHashMap<>();
            probes.forEach(c -> wanted.put(c.getName(), c));
            List<ContainerProbe> merged = new ArrayList<>();
            for (ContainerProbe c : entry.getProbes() == null ? List.<ContainerProbe>of() : entry.getProbes()) {
                if (!isOf(c, marker)) {
                    merged.add(c);
                } else if (wanted.containsKey(c.getName())) {
                    merged.add(wanted.remove(c.getName()));
                }
            }
            merged.addAll(wanted.values());
            entry.setProbes(merged.isEmpty() ? null : merged);
        }
        return spec(out);
    }

    /** {@code spec} without the probes of the marker {@code namespace/name}; pod entries left empty are dropped. */
    public static NodePodProbeSpec withoutMarker(NodePodProbeSpec spec, String namespace, String name) {
        List<PodProbe> out = new ArrayList<>();
        for (PodProbe p : copy(spec)) {
            if (!namespace.equals(p.getNamespace())) {
                out.add(p);
                continue;
            }
            List<ContainerProbe> kept = new ArrayList<>();
            for (ContainerProbe c : p.getProbes() == null ? List.<ContainerProbe>of() : p.getProbes()) {
                if (!isOf(c, name)) {
                    kept.add(c);
                }
            }
            if (!kept.isEmpty()) {
                p.setProbes(kept);
                out.add(p);
            }
        }
        return spec(out);
    }

    /** Whether the spec holds any probe of the marker {@code namespace/name}. */
    public static boolean hasMarker(NodePodProbeSpec spec, String namespace, String name) {
        if (spec == null || spec.getPodProbes() == null) {
            return false;
        }
        for (PodProbe p : spec.getPodProbes()) {
            if (namespace.equals(p.getNamespace()) && p.getProbes() != null
                    && p.getProbes().stream().anyMatch(c -> isOf(c, name))) {
                return true;
            }
        }
        return false;
    }

    static boolean isOf(ContainerProbe probe, String marker) {
        return probe.getName() != null && probe.getName().startsWith(marker + SEPARATOR);
    }

    /** The marker's probes for one pod, named ports resolved; probes whose port cannot be resolved are left out. */
    static List<ContainerProbe> resolvedProbes(PodProbeMarker ppm, Pod pod) {
        List<ContainerProbe> out = new ArrayList<>();
        for (PodContainerProbe p : ppm.probes()) {
            Optional<Probe> probe = resolvePorts(p, pod);
            if (probe.isEmpty()) {
                continue;
            }
            ContainerProbe c = new ContainerProbe();
            c.setName(probeName(ppm.getMetadata().getName(), p.getName()));
            c.setContainerName(p.getContainerName());
            c.setProbe(probe.get());
            out.add(c);
        }
        return out;
    }

    static Optional<Probe> resolvePorts(PodContainerProbe p, Pod pod) {
        Probe probe = p.getProbe();
        if (probe == null) {
            return Optional.empty();
        }
        IntOrString port = probe.getHttpGet() != null ? probe.getHttpGet().getPort()
                : probe.getTcpSocket() != null ? probe.getTcpSocket().getPort() : null;
        if (port == null || port.getStrVal() == null) {
            return Optional.of(probe);
        }
        Optional<Integer> number = containerPort(pod, p.getContainerName(), port.getStrVal());
        if (number.isEmpty()) {
            return Optional.empty();
        }
        ProbeBuilder b = new ProbeBuilder(probe);
        if (probe.getHttpGet() != null) {
            b.editHttpGet().withPort(new IntOrString(number.get())).endHttpGet();
        } else {
            b.editTcpSocket().withPort(new IntOrString(number.get())).endTcpSocket();
        }
        return Optional.of(b.build());
    }

    /** Kubernetes' ExtractPort: a named port of the container, or a number written as a string. */
    static Optional<Integer> containerPort(Pod pod, String containerName, String portName) {
        if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
            return Optional.empty();
        }
        for (Container c : pod.getSpec().getContainers()) {
            if (!c.getName().equals(containerName)) {
                continue;
            }
            for (ContainerPort cp : c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts()) {
                if (portName.equals(cp.getName()) && cp.getContainerPort() != null) {
                    return Optional.of(cp.getContainerPort());
                }
            }
            try {
                int n = Integer.parseInt(portName);
                return n > 0 && n < 65536 ? Optional.of(n) : Optional.empty();
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static String podIp(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPodIP() == null ? "" : pod.getStatus().getPodIP();
    }

    private static List<PodProbe> copy(NodePodProbeSpec spec) {
        List<PodProbe> out = new ArrayList<>();
        if (spec == null || spec.getPodProbes() == null) {
            return out;
        }
        for (PodProbe p : spec.getPodProbes()) {
            PodProbe c = new PodProbe();
            c.setName(p.getName());
            c.setNamespace(p.getNamespace());
            c.setUid(p.getUid());
            c.setIp(p.getIp());
            c.setProbes(p.getProbes() == null ? null : new ArrayList<>(p.getProbes()));
            p.getAdditionalProperties().forEach(c::setAdditionalProperty);
            out.add(c);
        }
        return out;
    }

    private static NodePodProbeSpec spec(List<PodProbe> podProbes) {
        NodePodProbeSpec s = new NodePodProbeSpec();
        s.setPodProbes(podProbes.isEmpty() ? null : podProbes);
        return s;
    }

    /** Equality of two specs where a missing list equals an empty one. */
    public static boolean same(NodePodProbeSpec a, NodePodProbeSpec b) {
        List<PodProbe> la = a == null || a.getPodProbes() == null ? List.of() : a.getPodProbes();
        List<PodProbe> lb = b == null || b.getPodProbes() == null ? List.of() : b.getPodProbes();
        return la.equals(lb);
    }
}
