package dev.kruisevertx.webhook.validation;

import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;

import java.util.List;

/**
 * Names of workloads whose derived objects must be able to exist. A workload's name goes into the names and labels of
 * what its controller creates; a name the API server accepts for the workload itself can still make every one of
 * those creations fail, and the controller would retry them forever. So the name is held to what the derived objects
 * allow:
 * <ul>
 * <li>a ControllerRevision is {@code <name>-<hash>}, the hash being Kubernetes' 32-bit FNV printed in decimal (at
 * most {@value #REVISION_HASH_LENGTH} characters), and its name is a DNS subdomain (at most 253 characters);</li>
 * <li>an Advanced StatefulSet's pods carry that revision name in the label {@code controller-revision-hash} and their
 * own name {@code <name>-<ordinal>} in {@code statefulset.kubernetes.io/pod-name} and as hostname, all at most 63
 * characters; with at most 52 characters for the set, both fit for every ordinal an int can hold (10 digits).</li>
 * </ul>
 */
public final class WorkloadNames {
    /** Longest revision hash: a 32-bit unsigned number in decimal. */
    public static final int REVISION_HASH_LENGTH = 10;
    /** Characters the API server appends to a generateName prefix. */
    public static final int GENERATED_SUFFIX_LENGTH = 5;
    /** The API server cuts a generateName prefix to this many characters before adding the suffix. */
    static final int GENERATE_NAME_PREFIX_CUT = 63 - GENERATED_SUFFIX_LENGTH;
    public static final int DNS_SUBDOMAIN_MAX = 253;
    public static final int DNS_LABEL_MAX = 63;
    /** Longest CloneSet name: its ControllerRevision names stay DNS subdomains. */
    public static final int CLONESET_MAX = DNS_SUBDOMAIN_MAX - 1 - REVISION_HASH_LENGTH;
    /** Longest Advanced StatefulSet name: revision label values, pod names and hostnames stay within 63. */
    public static final int STATEFULSET_MAX = DNS_LABEL_MAX - 1 - REVISION_HASH_LENGTH;

    static final String SUBDOMAIN_SYNTAX = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character";
    /** Kubernetes' message for a value that is not a DNS label. */
    public static final String LABEL_SYNTAX = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character";

    private WorkloadNames() {
    }

    /**
     * Checks {@code metadata.name} (or, when it is empty, {@code metadata.generateName}).
     *
     * @param max      the longest name whose derived objects can all exist
     * @param dnsLabel whether the name must be a DNS label (no dots), not only a DNS subdomain
     * @param why      what the limit comes from, appended to a too-long error
     */
    public static void check(ObjectMeta meta, int max, boolean dnsLabel, String why, List<FieldError> errors) {
        String name = meta == null ? null : meta.getName();
        String generateName = meta == null ? null : meta.getGenerateName();
        if (name != null && !name.isEmpty()) {
            checkName("metadata.name", name, max, dnsLabel, why, errors);
        } else if (generateName != null && !generateName.isEmpty()) {
            // The API server keeps at most 58 characters of the prefix and adds 5 random ones.
            String prefix = generateName.length() > GENERATE_NAME_PREFIX_CUT
                    ? generateName.substring(0, GENERATE_NAME_PREFIX_CUT) : generateName;
            String masked = prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 1) + "a" : prefix;
            if (prefix.length() + GENERATED_SUFFIX_LENGTH > max) {
                errors.add(FieldError.tooLong("metadata.generateName", max - GENERATED_SUFFIX_LENGTH,
                        why + "; the API server adds " + GENERATED_SUFFIX_LENGTH + " characters"));
            } else if (!syntaxOk(masked, dnsLabel)) {
                errors.add(FieldError.invalid("metadata.generateName", generateName,
                        dnsLabel ? LABEL_SYNTAX : SUBDOMAIN_SYNTAX));
            }
        } else {
            errors.add(FieldError.required("metadata.name", "name or generateName is required"));
        }
    }

    /**
     * {@link #check} for a create, or an update that renames (which the API server refuses anyway). A name is
     * immutable, so one that predates a limit is not held against later updates.
     *
     * @param old the stored object's metadata on an update, else null
     */
    public static void checkUnlessKept(ObjectMeta meta, ObjectMeta old, int max, boolean dnsLabel, String why,
                                       List<FieldError> errors) {
        boolean kept = old != null && meta != null && java.util.Objects.equals(old.getName(), meta.getName());
        if (!kept) {
            check(meta, max, dnsLabel, why, errors);
        }
    }

    private static void checkName(String field, String name, int max, boolean dnsLabel, String why,
                                  List<FieldError> errors) {
        if (name.length() > max) {
            errors.add(FieldError.tooLong(field, max, why));
        } else if (!syntaxOk(name, dnsLabel)) {
            errors.add(FieldError.invalid(field, name, dnsLabel ? LABEL_SYNTAX : SUBDOMAIN_SYNTAX));
        }
    }

    private static boolean syntaxOk(String name, boolean dnsLabel) {
        return dnsLabel ? LabelRules.isDnsLabel(name) : LabelRules.isDnsSubdomain(name);
    }

    /** The path of {@code spec.volumeClaimTemplates[index].metadata.name}. */
    public static String claimTemplateNamePath(int index) {
        return "spec.volumeClaimTemplates[" + index + "].metadata.name";
    }

    /**
     * The name of a volumeClaimTemplate, required and a DNS label: it names a volume of every pod. Uniqueness and the
     * length of the PVC names made from it are the workload's own checks.
     *
     * @return the name, or null when it failed (the error added)
     */
    public static String claimTemplateName(PersistentVolumeClaim template, int index, List<FieldError> errors) {
        String n = template == null || template.getMetadata() == null ? null : template.getMetadata().getName();
        String p = claimTemplateNamePath(index);
        if (n == null || n.isEmpty()) {
            errors.add(FieldError.required(p, ""));
            return null;
        }
        if (!LabelRules.isDnsLabel(n)) {
            errors.add(FieldError.invalid(p, n, LABEL_SYNTAX + " (at most 63 characters)"));
            return null;
        }
        return n;
    }
}
