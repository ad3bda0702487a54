package dev.kruisevertx.webhook.validation;

import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Kubernetes' pod spec validation (ValidatePodSpec of k8s.io/kubernetes pkg/apis/core/validation), with its field
 * paths and messages, for the rules a pod spec built by merging (a WorkloadSpread subset patch over a workload's
 * template) can break: volumes (names, exactly one source), containers and init containers (names unique across both,
 * image, ports, env names, volume mounts, pull and termination-message policies, resource quantities), restart and
 * DNS policies, grace and deadline seconds, node selector, host and subdomain names, the service account name,
 * tolerations and node affinity terms. Policies are checked when set: the spec comes from an object the API server
 * already defaulted. Not covered: probes, lifecycle handlers, security contexts, volume source details, topology
 * spread constraints, overhead, resource claims.
 */
public final class PodSpecRules {
    public static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> DNS_POLICIES = List.of("ClusterFirst", "ClusterFirstWithHostNet", "Default", "None");
    static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    static final List<String> TERMINATION_MESSAGE_POLICIES = List.of("File", "FallbackToLogsOnError");
    static final String PORT_RANGE = "must be between 1 and 65535, inclusive";
    static final String ENV_NAME = "a valid environment variable name must consist of alphabetic characters, digits, "
            + "'_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or "
            + "'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
    static final String LABEL_SYNTAX = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            + "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    static final String SUBDOMAIN_SYNTAX = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    private static final Pattern ENV = Pattern.compile("[-._a-zA-Z][-._a-zA-Z0-9]*");
    private static final Pattern PORT_NAME_CHARS = Pattern.compile("[-a-z0-9]+");
    private static final Pattern HAS_LETTER = Pattern.compile(".*[a-z].*");
    private static final long MAX_ACTIVE_DEADLINE = Integer.MAX_VALUE;

    private PodSpecRules() {
    }

    /** Validates {@code spec}; errors are named under {@code path} (e.g. {@code spec.subsets[0].patch}). */
    public static void validate(PodSpec spec, String path, List<FieldError> errors) {
        if (spec == null) {
            errors.add(FieldError.required(path + ".containers", ""));
            return;
        }
        Set<String> volumes = volumes(spec.getVolumes(), path + ".volumes", errors);
        Set<String> names = new HashSet<>();
        // Containers first: Kubernetes names an init container that reuses a container's name as the duplicate.
        if (spec.getContainers() == null || spec.getContainers().isEmpty()) {
            errors.add(FieldError.required(path + ".containers", ""));
        } else {
            containers(spec.getContainers(), path + ".containers", names, volumes, errors);
        }
        containers(spec.getInitContainers(), path + ".initContainers", names, volumes, errors);
        String restart = spec.getRestartPolicy();
        if (restart != null && !restart.isEmpty() && !RESTART_POLICIES.contains(restart)) {
            errors.add(FieldError.notSupported(path + ".restartPolicy", restart, RESTART_POLICIES));
        }
        String dns = spec.getDnsPolicy();
        if (dns != null && !dns.isEmpty() && !DNS_POLICIES.contains(dns)) {
            errors.add(FieldError.notSupported(path + ".dnsPolicy", dns, DNS_POLICIES));
        }
        if ("None".equals(dns) && (spec.getDnsConfig() == null || spec.getDnsConfig().getNameservers() == null
                || spec.getDnsConfig().getNameservers().isEmpty())) {
            errors.add(FieldError.required(path + ".dnsConfig", "must provide `dnsConfig` when `dnsPolicy` is None"));
        }
        if (spec.getTerminationGracePeriodSeconds() != null && spec.getTerminationGracePeriodSeconds() < 0) {
            errors.add(FieldError.invalid(path + ".terminationGracePeriodSeconds",
                    spec.getTerminationGracePeriodSeconds(), "must be greater than or equal to 0"));
        }
        Long deadline = spec.getActiveDeadlineSeconds();
        if (deadline != null && (deadline < 1 || deadline > MAX_ACTIVE_DEADLINE)) {
            errors.add(FieldError.invalid(path + ".activeDeadlineSeconds", deadline,
                    "must be between 1 and 2147483647, inclusive"));
        }
        LabelRules.validateLabels(spec.getNodeSelector(), path + ".nodeSelector", errors);
        dnsLabel(spec.getHostname(), path + ".hostname", errors);
        dnsLabel(spec.getSubdomain(), path + ".subdomain", errors);
        String sa = spec.getServiceAccountName();
        if (sa != null && !sa.isEmpty() && !LabelRules.isDnsSubdomain(sa)) {
            errors.add(FieldError.invalid(path + ".serviceAccountName", sa, SUBDOMAIN_SYNTAX));
        }
        String priorityClass = spec.getPriorityClassName();
        if (priorityClass != null && !priorityClass.isEmpty() && !LabelRules.isDnsSubdomain(priorityClass)) {
            errors.add(FieldError.invalid(path + ".priorityClassName", priorityClass, SUBDOMAIN_SYNTAX));
        }
        if (spec.getTolerations() != null) {
            NodeSchedulingRules.validateTolerations(present(spec.getTolerations(), path + ".tolerations", errors),
                    path + ".tolerations", errors);
        }
        affinity(spec.getAffinity(), path + ".affinity", errors);
        ResourceQuantities.checkPod(spec, path, errors);
    }

    private static Set<String> volumes(List<Volume> declared, String path, List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        if (declared == null) {
            return names;
        }
        for (int i = 0; i < declared.size(); i++) {
            Volume v = declared.get(i);
            String at = path + "[" + i + "]";
            if (v == null) {
                errors.add(FieldError.required(at, ""));
                continue;
            }
            String n = v.getName();
            if (n == null || n.isEmpty()) {
                errors.add(FieldError.required(at + ".name", ""));
            } else if (!LabelRules.isDnsLabel(n)) {
                errors.add(FieldError.invalid(at + ".name", n, LABEL_SYNTAX));
            } else if (!names.add(n)) {
                errors.add(FieldError.duplicate(at + ".name", n));
            }
            int sources = sources(v);
            if (sources == 0) {
                errors.add(FieldError.required(at, "must specify a volume type"));
            } else if (sources > 1) {
                errors.add(FieldError.forbidden(at, "may not specify more than 1 volume type"));
            }
        }
        return names;
    }

    /** The volume's source fields that are set: every property except its name. */
    private static int sources(Volume v) {
        Map<String, Object> tree = dev.kruisevertx.api.common.ApiJson.serialization().convertValue(v, Map.class);
        int n = 0;
        for (var e : tree.entrySet()) {
            if (!"name".equals(e.getKey()) && e.getValue() != null) {
                n++;
            }
        }
        return n;
    }

    private static void containers(List<Container> containers, String path, Set<String> names, Set<String> volumes,
                                   List<FieldError> errors) {
        if (containers == null) {
            return;
        }
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            String at = path + "[" + i + "]";
            if (c == null) {
                errors.add(FieldError.required(at, ""));
                continue;
            }
            if (c.getName() == null || c.getName().isEmpty()) {
                errors.add(FieldError.required(at + ".name", ""));
            } else if (!LabelRules.isDnsLabel(c.getName())) {
                errors.add(FieldError.invalid(at + ".name", c.getName(), LABEL_SYNTAX));
            } else if (!names.add(c.getName())) {
                errors.add(FieldError.duplicate(at + ".name", c.getName()));
            }
            if (c.getImage() == null || c.getImage().isBlank()) {
                errors.add(FieldError.required(at + ".image", ""));
            }
            if (c.getImagePullPolicy() != null && !c.getImagePullPolicy().isEmpty()
                    && !PULL_POLICIES.contains(c.getImagePullPolicy())) {
                errors.add(FieldError.notSupported(at + ".imagePullPolicy", c.getImagePullPolicy(), PULL_POLICIES));
            }
            if (c.getTerminationMessagePolicy() != null && !c.getTerminationMessagePolicy().isEmpty()
                    && !TERMINATION_MESSAGE_POLICIES.contains(c.getTerminationMessagePolicy())) {
                errors.add(FieldError.notSupported(at + ".terminationMessagePolicy", c.getTerminationMessagePolicy(),
                        TERMINATION_MESSAGE_POLICIES));
            }
            ports(c.getPorts(), at + ".ports", errors);
            env(c.getEnv(), at + ".env", errors);
            mounts(c.getVolumeMounts(), at + ".volumeMounts", volumes, errors);
        }
    }

    private static void ports(List<ContainerPort> ports, String path, List<FieldError> errors) {
        if (ports == null) {
            return;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            ContainerPort p = ports.get(i);
            String at = path + "[" + i + "]";
            if (p == null) {
                errors.add(FieldError.required(at, ""));
                continue;
            }
            String name = p.getName();
            if (name != null && !name.isEmpty()) {
                String problem = portNameProblem(name);
                if (problem != null) {
                    errors.add(FieldError.invalid(at + ".name", name, problem));
                } else if (!names.add(name)) {
                    errors.add(FieldError.duplicate(at + ".name", name));
                }
            }
            Integer port = p.getContainerPort();
            if (port == null || port == 0) {
                errors.add(FieldError.required(at + ".containerPort", ""));
            } else if (port < 1 || port > 65535) {
                errors.add(FieldError.invalid(at + ".containerPort", port, PORT_RANGE));
            }
            Integer host = p.getHostPort();
            if (host != null && host != 0 && (host < 1 || host > 65535)) {
                errors.add(FieldError.invalid(at + ".hostPort", host, PORT_RANGE));
            }
            String protocol = p.getProtocol();
            if (protocol == null || protocol.isEmpty()) {
                errors.add(FieldError.required(at + ".protocol", ""));
            } else if (!PROTOCOLS.contains(protocol)) {
                errors.add(FieldError.notSupported(at + ".protocol", protocol, PROTOCOLS));
            }
        }
    }

    /** Kubernetes' IsValidPortName (an IANA service name). */
    static String portNameProblem(String name) {
        if (name.length() > 15) {
            return "must be no more than 15 characters";
        }
        if (!PORT_NAME_CHARS.matcher(name).matches()) {
            return "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)";
        }
        if (!HAS_LETTER.matcher(name).matches()) {
            return "must contain at least one letter (a-z)";
        }
        if (name.contains("--")) {
            return "must not contain consecutive hyphens";
        }
        if (name.startsWith("-") || name.endsWith("-")) {
            return "must not begin or end with a hyphen";
        }
        return null;
    }

    private static void env(List<EnvVar> env, String path, List<FieldError> errors) {
        if (env == null) {
            return;
        }
        for (int i = 0; i < env.size(); i++) {
            EnvVar e = env.get(i);
            String at = path + "[" + i + "]";
            String name = e == null ? null : e.getName();
            if (name == null || name.isEmpty()) {
                errors.add(FieldError.required(at + ".name", ""));
            } else if (!ENV.matcher(name).matches()) {
                errors.add(FieldError.invalid(at + ".name", name, ENV_NAME));
            }
            if (e != null && e.getValue() != null && !e.getValue().isEmpty() && e.getValueFrom() != null) {
                errors.add(FieldError.invalid(at + ".valueFrom", "",
                        "may not be specified when `value` is not empty"));
            }
        }
    }

    private static void mounts(List<VolumeMount> mounts, String path, Set<String> volumes, List<FieldError> errors) {
        if (mounts == null) {
            return;
        }
        Set<String> paths = new HashSet<>();
        for (int i = 0; i < mounts.size(); i++) {
            VolumeMount m = mounts.get(i);
            String at = path + "[" + i + "]";
            if (m == null) {
                errors.add(FieldError.required(at, ""));
                continue;
            }
            if (m.getName() == null || m.getName().isEmpty()) {
                errors.add(FieldError.required(at + ".name", ""));
            } else if (!volumes.contains(m.getName())) {
                errors.add(FieldError.notFound(at + ".name", m.getName()));
            }
            if (m.getMountPath() == null || m.getMountPath().isEmpty()) {
                errors.add(FieldError.required(at + ".mountPath", ""));
            } else if (!paths.add(m.getMountPath())) {
                errors.add(FieldError.invalid(at + ".mountPath", m.getMountPath(), "must be unique"));
            }
        }
    }

    /**
     * The list without its null entries, each reported as required (a merged spec may hold {@code [null]}). Indexes
     * of the later entries then shift in the rules that get the rest; the null itself is named at its own index.
     */
    private static <T> List<T> present(List<T> list, String path, List<FieldError> errors) {
        List<T> out = new java.util.ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == null) {
                errors.add(FieldError.required(path + "[" + i + "]", ""));
            } else {
                out.add(list.get(i));
            }
        }
        return out;
    }

    private static void dnsLabel(String value, String path, List<FieldError> errors) {
        if (value != null && !value.isEmpty() && !LabelRules.isDnsLabel(value)) {
            errors.add(FieldError.invalid(path, value, LABEL_SYNTAX));
        }
    }

    private static void affinity(Affinity affinity, String path, List<FieldError> errors) {
        if (affinity == null || affinity.getNodeAffinity() == null) {
            return;
        }
        var node = affinity.getNodeAffinity();
        String np = path + ".nodeAffinity";
        var required = node.getRequiredDuringSchedulingIgnoredDuringExecution();
        if (required != null) {
            List<NodeSelectorTerm> terms = required.getNodeSelectorTerms();
            String rp = np + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
            if (terms == null || terms.isEmpty()) {
                errors.add(FieldError.required(rp, "must have at least one node selector term"));
            } else {
                for (int i = 0; i < terms.size(); i++) {
                    if (terms.get(i) == null) {
                        errors.add(FieldError.required(rp + "[" + i + "]", ""));
                    } else {
                        NodeSchedulingRules.validateNodeSelectorTerm(terms.get(i), false, rp + "[" + i + "]", errors);
                    }
                }
            }
        }
        if (node.getPreferredDuringSchedulingIgnoredDuringExecution() != null) {
            String pp = np + ".preferredDuringSchedulingIgnoredDuringExecution";
            NodeSchedulingRules.validatePreferredSchedulingTerms(
                    present(node.getPreferredDuringSchedulingIgnoredDuringExecution(), pp, errors), pp, errors);
        }
    }
}
