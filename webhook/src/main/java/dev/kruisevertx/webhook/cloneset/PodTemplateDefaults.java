package dev.kruisevertx.webhook.cloneset;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatus;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Volume;

import java.util.List;
import java.util.Optional;

import static dev.kruisevertx.webhook.cloneset.WorkloadDefaults.orDefault;

/**
 * The core/v1 defaults the API server would give a pod, applied to workload templates so a template
 * compares equal to the pods made from it (OpenKruise runs the upstream defaulting functions on embedded
 * templates). Covers the pod-level fields, containers and init containers (pull policy, termination
 * message, ports, probes, lifecycle handlers, env field refs) and volumes (empty source, file modes).
 */
public final class PodTemplateDefaults {
    static final int DEFAULT_MODE = 0644;

    private PodTemplateDefaults() {
    }

    public static void apply(PodSpec spec) {
        if (spec == null) {
            return;
        }
        spec.setDnsPolicy(orDefault(spec.getDnsPolicy(), "ClusterFirst"));
        spec.setRestartPolicy(orDefault(spec.getRestartPolicy(), "Always"));
        if (spec.getTerminationGracePeriodSeconds() == null) {
            spec.setTerminationGracePeriodSeconds(30L);
        }
        if (spec.getSecurityContext() == null) {
            spec.setSecurityContext(new PodSecurityContext());
        }
        spec.setSchedulerName(orDefault(spec.getSchedulerName(), "default-scheduler"));
        containers(spec.getInitContainers());
        // OpenKruise's SetDefaultPodSpec (v1.9) gives a workload template's containers (not its init containers)
        // pull policy Always whatever the tag, so images can be updated in place; a template OpenKruise defaulted
        // then reads the same here and gets no new revision.
        if (spec.getContainers() != null) {
            for (Container c : spec.getContainers()) {
                c.setImagePullPolicy(orDefault(c.getImagePullPolicy(), "Always"));
            }
        }
        containers(spec.getContainers());
        if (spec.getVolumes() != null) {
            spec.getVolumes().forEach(PodTemplateDefaults::volume);
        }
    }

    /**
     * Kubernetes' {@code SetDefaults_Container} and the port, env, probe and handler defaults: a workload template's
     * init containers, and SidecarSet containers (OpenKruise defaults those with the upstream function).
     */
    public static void containers(List<? extends Container> containers) {
        if (containers == null) {
            return;
        }
        for (Container c : containers) {
            c.setTerminationMessagePath(orDefault(c.getTerminationMessagePath(), "/dev/termination-log"));
            c.setTerminationMessagePolicy(orDefault(c.getTerminationMessagePolicy(), "File"));
            c.setImagePullPolicy(orDefault(c.getImagePullPolicy(), pullPolicyFor(c.getImage())));
            if (c.getPorts() != null) {
                for (ContainerPort p : c.getPorts()) {
                    p.setProtocol(orDefault(p.getProtocol(), "TCP"));
                }
            }
            if (c.getEnv() != null) {
                for (EnvVar e : c.getEnv()) {
                    if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
                        ObjectFieldSelector ref = e.getValueFrom().getFieldRef();
                        ref.setApiVersion(orDefault(ref.getApiVersion(), "v1"));
                    }
                }
            }
            probe(c.getLivenessProbe());
            probe(c.getReadinessProbe());
            probe(c.getStartupProbe());
            if (c.getLifecycle() != null) {
                handler(c.getLifecycle().getPostStart());
                handler(c.getLifecycle().getPreStop());
            }
        }
    }

    /** Always for {@code :latest} or untagged images, IfNotPresent otherwise (digests included). */
    static String pullPolicyFor(String image) {
        if (image == null || image.isEmpty()) {
            return "IfNotPresent";
        }
        if (image.contains("@")) {
            return "IfNotPresent";
        }
        int slash = image.lastIndexOf('/');
        String last = image.substring(slash + 1);
        int colon = last.indexOf(':');
        if (colon < 0) {
            return "Always";
        }
        return "latest".equals(last.substring(colon + 1)) ? "Always" : "IfNotPresent";
    }

    private static void probe(Probe p) {
        if (p == null) {
            return;
        }
        if (p.getTimeoutSeconds() == null) {
            p.setTimeoutSeconds(1);
        }
        if (p.getPeriodSeconds() == null) {
            p.setPeriodSeconds(10);
        }
        if (p.getSuccessThreshold() == null) {
            p.setSuccessThreshold(1);
        }
        if (p.getFailureThreshold() == null) {
            p.setFailureThreshold(3);
        }
        httpGet(p.getHttpGet());
    }

    private static void handler(LifecycleHandler h) {
        if (h != null) {
            httpGet(h.getHttpGet());
        }
    }

    private static void httpGet(HTTPGetAction a) {
        if (a == null) {
            return;
        }
        a.setPath(orDefault(a.getPath(), "/"));
        a.setScheme(orDefault(a.getScheme(), "HTTP"));
    }

    /** Kubernetes' volume defaults (as in a pod template). */
    public static void volumes(List<Volume> volumes) {
        if (volumes != null) {
            volumes.forEach(PodTemplateDefaults::volume);
        }
    }

    private static void volume(Volume v) {
        boolean hasSource = v.getHostPath() != null || v.getEmptyDir() != null || v.getGcePersistentDisk() != null
                || v.getAwsElasticBlockStore() != null || v.getGitRepo() != null || v.getSecret() != null
                || v.getNfs() != null || v.getIscsi() != null || v.getGlusterfs() != null
                || v.getPersistentVolumeClaim() != null || v.getRbd() != null || v.getFlexVolume() != null
                || v.getCinder() != null || v.getCephfs() != null || v.getFlocker() != null
                || v.getDownwardAPI() != null || v.getFc() != null || v.getAzureFile() != null
                || v.getConfigMap() != null || v.getVsphereVolume() != null || v.getQuobyte() != null
                || v.getAzureDisk() != null || v.getPhotonPersistentDisk() != null || v.getProjected() != null
                || v.getPortworxVolume() != null || v.getScaleIO() != null || v.getStorageos() != null
                || v.getCsi() != null || v.getEphemeral() != null || v.getImage() != null
                || (v.getAdditionalProperties() != null && !v.getAdditionalProperties().isEmpty());
        if (!hasSource) {
            v.setEmptyDir(new EmptyDirVolumeSource());
        }
        Optional.ofNullable(v.getSecret()).ifPresent(x -> x.setDefaultMode(mode(x.getDefaultMode())));
        Optional.ofNullable(v.getConfigMap()).ifPresent(x -> x.setDefaultMode(mode(x.getDefaultMode())));
        Optional.ofNullable(v.getDownwardAPI()).ifPresent(x -> x.setDefaultMode(mode(x.getDefaultMode())));
        Optional.ofNullable(v.getProjected()).ifPresent(x -> x.setDefaultMode(mode(x.getDefaultMode())));
        if (v.getHostPath() != null && v.getHostPath().getType() == null) {
            v.getHostPath().setType("");
        }
    }

    /** A volume's file mode, {@link #DEFAULT_MODE} when unset. */
    private static Integer mode(Integer mode) {
        return mode == null ? DEFAULT_MODE : mode;
    }

    /** PVC template defaults: volumeMode Filesystem and status phase Pending. */
    public static void apply(PersistentVolumeClaim pvc) {
        if (pvc.getSpec() == null) {
            pvc.setSpec(new PersistentVolumeClaimSpec());
        }
        if (pvc.getSpec().getVolumeMode() == null) {
            pvc.getSpec().setVolumeMode("Filesystem");
        }
        if (pvc.getStatus() == null) {
            pvc.setStatus(new PersistentVolumeClaimStatus());
        }
        pvc.getStatus().setPhase(orDefault(pvc.getStatus().getPhase(), "Pending"));
    }
}
