package dev.kruisevertx.webhook.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerContext;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestFailurePolicy;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.apps.v1alpha1.ProbeHandler;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The admission rules of ContainerRecreateRequest, as OpenKruise's mutating webhook applies them. On create: the
 * request is checked (pod name, containers, non-negative graces, a deadline of at least
 * {@value #MIN_DEADLINE_SECONDS} s, a known failure policy), defaulted (failure policy Fail, the pod's termination grace
 * period, the active label) and filled in from its pod (node name and pod uid labels, each container's preStop hook,
 * its ports when the hook is an HTTP GET, and its current container id and restart count). On update: the spec, the
 * pod-uid and node-name labels, and a set unready-acquired annotation cannot change. A pod on a virtual-kubelet node
 * ({@code type=virtual-kubelet}) gives the request that label too. Each rule failing is a
 * {@link Rejection} with the HTTP code and message OpenKruise answers with.
 */
public final class CrrAdmission {
    static final int MIN_DEADLINE_SECONDS = 3;
    /**
     * The node label (and value) of virtual-kubelet nodes (ECI, Fargate, ...), where no kruise-daemon runs; OpenKruise
     * copies it onto requests for pods there, so the virtual kubelet's provider can pick them up.
     */
    public static final String VIRTUAL_KUBELET_LABEL_KEY = "type";
    public static final String VIRTUAL_KUBELET_LABEL_VALUE = "virtual-kubelet";

    /** A refused request: 400 for a bad object, 403 for a forbidden change. */
    public static final class Rejection extends Exception {
        private final int code;

        Rejection(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    private CrrAdmission() {
    }

    /** Checks and defaults a new request in place; {@code pod} is the pod it names, if it exists. */
    public static void defaultCreate(ContainerRecreateRequest crr, Optional<Pod> pod) throws Rejection {
        defaultCreate(crr, pod, Optional.empty());
    }

    /**
     * As {@link #defaultCreate(ContainerRecreateRequest, Optional)}, with the pod's node when it exists: a node
     * labelled {@code type=virtual-kubelet} gives the request the same label.
     */
    public static void defaultCreate(ContainerRecreateRequest crr, Optional<Pod> pod, Optional<Node> node)
            throws Rejection {
        if (crr.getSpec() == null || crr.getSpec().getPodName() == null || crr.getSpec().getPodName().isEmpty()) {
            throw new Rejection(400, "podName can not be empty");
        }
        if (crr.getSpec().getStrategy() == null) {
            crr.getSpec().setStrategy(new ContainerRecreateRequestStrategy());
        }
        Map<String, String> labels = new LinkedHashMap<>(Pods.labels(crr));
        labels.put(WellKnown.CRR_ACTIVE_LABEL, "true");
        crr.getMetadata().setLabels(labels);
        if (crr.getSpec().getContainers() == null || crr.getSpec().getContainers().isEmpty()) {
            throw new Rejection(400, "containers list can not be null");
        }
        Long deadline = crr.getSpec().getActiveDeadlineSeconds();
        if (deadline != null && deadline < MIN_DEADLINE_SECONDS) {
            throw new Rejection(400, "activeDeadlineSeconds can not be less than " + MIN_DEADLINE_SECONDS + "s");
        }
        ContainerRecreateRequestStrategy strategy = crr.getSpec().getStrategy();
        if (strategy.getTerminationGracePeriodSeconds() != null && strategy.getTerminationGracePeriodSeconds() < 0) {
            throw new Rejection(400, "terminationGracePeriodSeconds must be non-negative integer");
        }
        if (strategy.getUnreadyGracePeriodSeconds() != null && strategy.getUnreadyGracePeriodSeconds() < 0) {
            throw new Rejection(400, "unreadyGracePeriodSeconds must be non-negative integer");
        }
        String policy = strategy.getFailurePolicy();
        if (policy == null || policy.isEmpty()) {
            strategy.setFailurePolicy(ContainerRecreateRequestFailurePolicy.FAIL.value());
        } else if (strategy.failurePolicyValue().isEmpty()) {
            throw new Rejection(400, "unknown failurePolicy " + policy);
        }

        Pod target = pod.orElseThrow(() -> new Rejection(400, "no found Pod named " + crr.getSpec().getPodName()));
        if (!Pods.isActive(target) && !terminatedBySidecarTerminator(target)) {
            throw new Rejection(400, "not allowed to recreate containers in an inactive Pod");
        }
        String nodeName = target.getSpec() == null ? null : target.getSpec().getNodeName();
        if (nodeName == null || nodeName.isEmpty()) {
            throw new Rejection(400, "not allowed to recreate containers in a pending Pod");
        }
        labels.put(WellKnown.CRR_NODE_NAME_LABEL, nodeName);
        labels.put(WellKnown.CRR_POD_UID_LABEL, target.getMetadata().getUid());
        if (node.isPresent() && VIRTUAL_KUBELET_LABEL_VALUE.equals(Pods.labels(node.get()).get(VIRTUAL_KUBELET_LABEL_KEY))) {
            labels.put(VIRTUAL_KUBELET_LABEL_KEY, VIRTUAL_KUBELET_LABEL_VALUE);
        }
        crr.getMetadata().setLabels(labels);
        if (strategy.getTerminationGracePeriodSeconds() == null) {
            strategy.setTerminationGracePeriodSeconds(target.getSpec().getTerminationGracePeriodSeconds());
        }

        Set<String> seen = new HashSet<>();
        for (ContainerRecreateRequestContainer c : crr.getSpec().getContainers()) {
            if (!seen.add(c.getName())) {
                throw new Rejection(400, "can not recreate " + c.getName() + " multi times");
            }
            if (c.getPreStop() != null || c.getPorts() != null || c.getStatusContext() != null) {
                throw new Rejection(400, "preStop, ports, statusContext in container are ready-only fields");
            }
            Container podContainer = target.getSpec().getContainers() == null ? null : target.getSpec().getContainers()
                    .stream().filter(x -> Objects.equals(x.getName(), c.getName())).findFirst().orElse(null);
            if (podContainer == null) {
                throw new Rejection(400, "container " + c.getName() + " not found in Pod");
            }
            ContainerStatus status = Pods.containerStatus(target, c.getName()).orElseThrow(
                    () -> new Rejection(400, "not found " + c.getName() + " containerStatus in Pod Status"));
            if (status.getContainerID() == null || status.getContainerID().isEmpty()) {
                throw new Rejection(400, "no containerID in " + c.getName()
                        + " containerStatus, maybe the container has not been initialized");
            }
            if (podContainer.getLifecycle() != null && podContainer.getLifecycle().getPreStop() != null) {
                ProbeHandler preStop = new ProbeHandler();
                preStop.setExec(podContainer.getLifecycle().getPreStop().getExec());
                preStop.setHttpGet(podContainer.getLifecycle().getPreStop().getHttpGet());
                preStop.setTcpSocket(podContainer.getLifecycle().getPreStop().getTcpSocket());
                c.setPreStop(preStop);
                if (preStop.getHttpGet() != null) {
                    c.setPorts(podContainer.getPorts());
                }
            }
            c.setStatusContext(new ContainerRecreateRequestContainerContext(status.getContainerID(),
                    status.getRestartCount() == null ? 0 : status.getRestartCount()));
        }
    }

    /** Checks an update against the stored request. */
    public static void checkUpdate(ContainerRecreateRequest crr, ContainerRecreateRequest old) throws Rejection {
        if (!Objects.equals(crr.getSpec(), old.getSpec())) {
            throw new Rejection(403, "spec of ContainerRecreateRequest is immutable");
        }
        for (String key : new String[]{WellKnown.CRR_POD_UID_LABEL, WellKnown.CRR_NODE_NAME_LABEL}) {
            if (!Objects.equals(Pods.labels(crr).get(key), Pods.labels(old).get(key))) {
                throw new Rejection(403, "not allowed to update immutable label " + key);
            }
        }
        String acquired = Pods.annotations(old).get(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
        if (acquired != null && !acquired.isEmpty()
                && !acquired.equals(Pods.annotations(crr).get(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER))) {
            throw new Rejection(403, "not allowed to update immutable annotation "
                    + WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
        }
    }

    // The sidecar terminator moves a pod to a terminal phase first and then asks for its sidecars to be stopped.
    private static boolean terminatedBySidecarTerminator(Pod pod) {
        return Pods.condition(pod, "SidecarTerminated").isPresent();
    }
}
