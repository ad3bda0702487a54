package dev.kruisevertx.pub;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerResizePolicy;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a pod UPDATE bears on its budget (OpenKruise's IsPodUnavailableChanged and CanResizeInplace), pure: whether it
 * may make the pod unavailable (its spec changes, or an {@code unavailable-pod.kruise.io/} label appears), and whether
 * it is only an in-place resize the kubelet applies without restarting a container (cpu or memory of the same
 * containers, resize policy NotRequired or unset, same QoS class, not a static pod).
 */
public final class PodUpdateKind {
    private static final Set<String> RESIZABLE = Set.of("cpu", "memory");

    private PodUpdateKind() {
    }

    public static boolean unavailableChanged(Pod oldPod, Pod newPod) {
        if (!Objects.equals(ApiJson.toJson(spec(oldPod)), ApiJson.toJson(spec(newPod)))) {
            return true;
        }
        return !hasUnavailableLabel(oldPod) && hasUnavailableLabel(newPod);
    }

    public static boolean canResizeInPlace(Pod oldPod, Pod newPod) {
        if (!hasUnavailableLabel(oldPod) && hasUnavailableLabel(newPod)) {
            return false;
        }
        if (!Objects.equals(ApiJson.toJson(withoutResources(spec(oldPod))),
                ApiJson.toJson(withoutResources(spec(newPod))))) {
            return false;
        }
        if (isStatic(oldPod) || isStatic(newPod) || !qos(oldPod).equals(qos(newPod))) {
            return false;
        }
        List<Container> olds = containers(oldPod);
        List<Container> news = containers(newPod);
        if (olds.size() != news.size()) {
            return false;
        }
        Map<String, Container> byName = new HashMap<>();
        olds.forEach(c -> byName.put(c.getName(), c));
        for (Container c : news) {
            Container old = byName.get(c.getName());
            if (old == null) {
                return false;
            }
            Map<String, String> policy = new HashMap<>();
            if (c.getResizePolicy() != null) {
                for (ContainerResizePolicy p : c.getResizePolicy()) {
                    policy.put(p.getResourceName(), p.getRestartPolicy());
                }
            }
            Set<String> names = new TreeSet<>();
            names.addAll(requests(old).keySet());
            names.addAll(limits(old).keySet());
            names.addAll(requests(c).keySet());
            names.addAll(limits(c).keySet());
            for (String name : names) {
                if (!changed(requests(old), requests(c), name) && !changed(limits(old), limits(c), name)) {
                    continue;
                }
                if (!RESIZABLE.contains(name)) {
                    return false;
                }
                String restart = policy.get(name);
                if (restart != null && !restart.isEmpty() && !"NotRequired".equals(restart)) {
                    return false;
                }
            }
        }
        return true;
    }

    public static boolean hasUnavailableLabel(Pod pod) {
        return Pods.labels(pod).keySet().stream().anyMatch(k -> k.startsWith(WellKnown.UNAVAILABLE_POD_LABEL_PREFIX));
    }

    private static boolean changed(Map<String, Quantity> a, Map<String, Quantity> b, String name) {
        Quantity x = a.get(name);
        Quantity y = b.get(name);
        if (x == null || y == null) {
            return x != y;
        }
        try {
            return x.getNumericalAmount().compareTo(y.getNumericalAmount()) != 0;
        } catch (IllegalArgumentException | ArithmeticException unparsable) {
            // Quantity.equals parses too (it threw on "null", hostile-input storm seed 63507754845015): compare text.
            return !(Objects.equals(x.getAmount(), y.getAmount()) && Objects.equals(x.getFormat(), y.getFormat()));
        }
    }

    /** Kubernetes' QoS class: BestEffort, Guaranteed or Burstable. */
    static String qos(Pod pod) {
        List<Container> all = new ArrayList<>(containers(pod));
        if (pod.getSpec() != null && pod.getSpec().getInitContainers() != null) {
            pod.getSpec().getInitContainers().stream().filter(Objects::nonNull).forEach(all::add);
        }
        boolean any = false;
        boolean guaranteed = true;
        for (Container c : all) {
            Map<String, Quantity> req = requests(c);
            Map<String, Quantity> lim = limits(c);
            if (!req.isEmpty() || !lim.isEmpty()) {
                any = true;
            }
            for (String r : RESIZABLE) {
                if (!lim.containsKey(r) || (req.containsKey(r) && changed(req, lim, r))) {
                    guaranteed = false;
                }
            }
        }
        if (!any) {
            return "BestEffort";
        }
        return guaranteed ? "Guaranteed" : "Burstable";
    }

    private static boolean isStatic(Pod pod) {
        String source = Pods.annotations(pod).get("kubernetes.io/config.source");
        return source != null && !"api".equals(source);
    }

    private static PodSpec spec(Pod pod) {
        return pod.getSpec() == null ? new PodSpec() : pod.getSpec();
    }

    private static PodSpec withoutResources(PodSpec spec) {
        PodSpec copy = ApiJson.serialization().clone(spec);
        if (copy.getContainers() != null) {
            // A null entry (hostile input) stays null: the specs then differ, or are equally broken.
            copy.getContainers().stream().filter(Objects::nonNull).forEach(c -> c.setResources(new ResourceRequirements()));
        }
        return copy;
    }

    /** The containers, without null entries (a hostile review may carry {@code "containers":[null]}). */
    private static List<Container> containers(Pod pod) {
        return pod.getSpec() == null || pod.getSpec().getContainers() == null ? List.of()
                : pod.getSpec().getContainers().stream().filter(Objects::nonNull).toList();
    }

    private static Map<String, Quantity> requests(Container c) {
        return c.getResources() == null || c.getResources().getRequests() == null ? Map.of()
                : c.getResources().getRequests();
    }

    private static Map<String, Quantity> limits(Container c) {
        return c.getResources() == null || c.getResources().getLimits() == null ? Map.of()
                : c.getResources().getLimits();
    }
}
