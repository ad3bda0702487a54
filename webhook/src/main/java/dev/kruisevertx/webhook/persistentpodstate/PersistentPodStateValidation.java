package dev.kruisevertx.webhook.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateRetentionPolicyType;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateSpec;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.common.WireEnum;
import dev.kruisevertx.persistentpodstate.PpsWorkloads;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.WorkloadNames;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * OpenKruise v1.9.0's validation of a PersistentPodState: a complete targetRef to a StatefulSet (apps or
 * apps.kruise.io) or a whitelisted kind, a required or a preferred topology, the targetRef unchanged on update, and
 * no other PersistentPodState of the namespace on the same workload (group, kind and name).
 *
 * <p>Stricter than OpenKruise, because each of these would otherwise make every later pod creation of the workload
 * fail at the API server or be silently ignored: preferred weights within 1..100, topology keys that are valid label
 * keys, annotation keys present, and a known retention policy.
 */
public final class PersistentPodStateValidation {
    static final String WHITELIST_TEXT = "TargetReference.Kind must be StatefulSet or in "
            + "PPS_Watch_Custom_Workload_WhiteList";
    /** Keys per topology term and persistent annotations; a node has far fewer labels than this. */
    static final int MAX_KEYS = 64;

    private PersistentPodStateValidation() {
    }

    public static List<FieldError> validate(PersistentPodState pps, PersistentPodState old,
                                            List<PersistentPodState> inNamespace, CustomWorkloadWhiteList whiteList) {
        List<FieldError> errors = new ArrayList<>();
        WorkloadNames.check(pps.getMetadata(), WorkloadNames.DNS_SUBDOMAIN_MAX, false,
                "PersistentPodState names are DNS subdomains", errors);
        PersistentPodStateSpec spec = pps.spec();
        TargetReference ref = spec.targetRef();
        if (empty(ref.getApiVersion()) || empty(ref.getName()) || empty(ref.getKind())) {
            errors.add(FieldError.invalid("spec.TargetReference", ref,
                    "empty TargetReference is not valid for PersistentPodState."));
        }
        if (!PpsWorkloads.supported(ref.getApiVersion(), ref.getKind(), whiteList)) {
            errors.add(FieldError.invalid("spec.TargetReference", ref, WHITELIST_TEXT));
        }
        if (spec.getRequiredPersistentTopology() == null && (spec.getPreferredPersistentTopology() == null
                || spec.getPreferredPersistentTopology().isEmpty())) {
            errors.add(FieldError.invalid("spec", "{requiredPersistentTopology: null, preferredPersistentTopology: []}",
                    "TopologyConstraint and TopologyPreference cannot be empty at the same time"));
        }
        checkStricter(spec, errors);
        if (old != null && !sameRef(ref, old.spec().targetRef())) {
            errors.add(FieldError.required("spec.targetRef", "targetRef cannot be modified"));
        }
        for (PersistentPodState other : inNamespace) {
            if (Objects.equals(other.getMetadata().getName(), pps.getMetadata().getName())) {
                continue;
            }
            if (PpsWorkloads.sameWorkload(ref, other.spec().targetRef())) {
                errors.add(FieldError.invalid("spec.targetReference", ref,
                        "targetReference is in conflict with other PersistentPodState " + other.getMetadata().getName()));
                break;
            }
        }
        return errors;
    }

    private static void checkStricter(PersistentPodStateSpec spec, List<FieldError> errors) {
        if (spec.getRequiredPersistentTopology() != null) {
            checkKeys(spec.getRequiredPersistentTopology(), "spec.requiredPersistentTopology.nodeTopologyKeys", errors);
        }
        List<PreferredTopologyTerm> preferred = spec.getPreferredPersistentTopology() == null ? List.of()
                : spec.getPreferredPersistentTopology();
        for (int i = 0; i < preferred.size(); i++) {
            PreferredTopologyTerm t = preferred.get(i);
            String at = "spec.preferredPersistentTopology[" + i + "]";
            if (t == null) {
                errors.add(FieldError.required(at, "a preferred term must not be null"));
                continue;
            }
            if (t.getWeight() < 1 || t.getWeight() > 100) {
                errors.add(FieldError.invalid(at + ".weight", t.getWeight(), "must be in the range 1-100 (it becomes "
                        + "a preferred node-affinity weight)"));
            }
            checkKeys(t.preference(), at + ".preference.nodeTopologyKeys", errors);
        }
        List<PersistentPodAnnotation> annotations = spec.getPersistentPodAnnotations() == null ? List.of()
                : spec.getPersistentPodAnnotations();
        if (annotations.size() > MAX_KEYS) {
            errors.add(FieldError.tooLong("spec.persistentPodAnnotations", MAX_KEYS, "at most " + MAX_KEYS
                    + " annotation keys"));
        }
        for (int i = 0; i < annotations.size() && i < MAX_KEYS; i++) {
            PersistentPodAnnotation a = annotations.get(i);
            if (a == null || empty(a.getKey())) {
                errors.add(FieldError.required("spec.persistentPodAnnotations[" + i + "].key", "an annotation key is "
                        + "required"));
            }
        }
        String retention = spec.getPersistentPodStateRetentionPolicy();
        if (!empty(retention) && spec.retentionPolicyValue().isEmpty()) {
            errors.add(FieldError.notSupported("spec.persistentPodStateRetentionPolicy", retention,
                    WireEnum.values(PersistentPodStateRetentionPolicyType.class)));
        }
    }

    private static void checkKeys(NodeTopologyTerm term, String at, List<FieldError> errors) {
        List<String> keys = term.keys();
        if (keys.size() > MAX_KEYS) {
            errors.add(FieldError.tooLong(at, MAX_KEYS, "at most " + MAX_KEYS + " node label keys"));
            return;
        }
        for (int i = 0; i < keys.size(); i++) {
            String problem = LabelRules.keyProblem(keys.get(i));
            if (problem != null) {
                errors.add(FieldError.invalid(at + "[" + i + "]", shorten(keys.get(i)), problem));
            }
        }
    }

    private static boolean sameRef(TargetReference a, TargetReference b) {
        return Objects.equals(nz(a.getApiVersion()), nz(b.getApiVersion())) && Objects.equals(nz(a.getKind()),
                nz(b.getKind())) && Objects.equals(nz(a.getName()), nz(b.getName()));
    }

    private static String shorten(String s) {
        return s == null ? "null" : s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }
}
