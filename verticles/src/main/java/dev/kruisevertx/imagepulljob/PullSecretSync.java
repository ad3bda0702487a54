package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ReferenceObject;
import io.fabric8.kubernetes.api.model.Secret;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Which copies of an ImagePullJob's {@code pullSecrets} the manager keeps in the daemon config namespace
 * ({@code kruise-daemon-config}), as OpenKruise's syncJobPullSecrets decides it: the node agent may read secrets only
 * there, so each source secret a running job names is copied once (named {@code <source>-<6 hex>}, annotated with
 * its source and the jobs that use it) and shared by every job naming the same source; a job that finishes, is being
 * deleted or stops naming a source is taken off the copy's references, and a copy nobody references is deleted.
 * Pure: the caller lists the copies and looks the sources up from the cache.
 */
public final class PullSecretSync {
    /** The copy's source secret, {@code namespace/name}. */
    public static final String SOURCE_KEY = "imagepulljobs.kruise.io/source-key";
    /** The jobs using the copy, sorted {@code namespace/name} joined by commas; empty means delete the copy. */
    public static final String REFERENCES = "imagepulljobs.kruise.io/references";
    /** {@code batch} on copies made by this version: their NodeImage references go with the image's tags. */
    public static final String MODE = "imagepulljobs.kruise.io/mode";
    /** OpenKruise reads the namespace from this environment variable, default {@code kruise-daemon-config}. */
    public static final String NAMESPACE_ENV = "KRUISE_DAEMON_CONFIG_NS";
    public static final String DEFAULT_NAMESPACE = "kruise-daemon-config";

    /**
     * Use {@code source} through the copy {@code copy} (null: create one) with {@code references} as the copy's
     * references annotation.
     */
    public record Claim(Secret source, Secret copy, String references) {
    }

    /** Set the copy's references to {@code references}, or delete it when that is empty. */
    public record Release(Secret copy, String references) {
        public boolean delete() {
            return references.isEmpty();
        }
    }

    /**
     * @param inPlace          the job lives in the daemon config namespace: its secrets are used as they are
     * @param missingSources   names the job asks for that do not exist (skipped, as OpenKruise does, with a warning)
     */
    public record Plan(List<Claim> claims, List<Release> releases, List<ReferenceObject> inPlace,
                       List<String> missingSources) {
        public static final Plan NONE = new Plan(List.of(), List.of(), List.of(), List.of());

        public boolean empty() {
            return claims.isEmpty() && releases.isEmpty() && inPlace.isEmpty();
        }
    }

    private PullSecretSync() {
    }

    public static String namespace() {
        String ns = System.getenv(NAMESPACE_ENV);
        return ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns;
    }

    static boolean running(ImagePullJob job) {
        return job.getMetadata().getDeletionTimestamp() == null
                && (job.getStatus() == null || job.getStatus().getCompletionTime() == null);
    }

    /**
     * @param copies  the secrets in the daemon config namespace
     * @param sources a source secret of the job's namespace by name, or null when absent
     */
    public static Plan decide(ImagePullJob job, String daemonNamespace, List<Secret> copies,
                              Function<String, Secret> sources) {
        List<String> wanted = job.getSpec() == null || job.getSpec().getPullSecrets() == null ? List.of()
                : job.getSpec().getPullSecrets().stream().filter(Objects::nonNull).distinct().toList();
        String ns = job.getMetadata().getNamespace();
        // OpenKruise returns early for a running job without pull secrets, so a job whose last pull secret was
        // removed keeps its copy until it finishes; here the copy is released at once (copies are few: cheap).
        if (wanted.isEmpty() && running(job) && copies.isEmpty()) {
            return Plan.NONE;
        }
        if (daemonNamespace.equals(ns)) {
            return new Plan(List.of(), List.of(),
                    wanted.stream().map(n -> new ReferenceObject(ns, n)).toList(), List.of());
        }
        String jobKey = ns + "/" + job.getMetadata().getName();
        // Sorted by name so the same copy is chosen every time when older versions left several for one source.
        List<Secret> sorted = new ArrayList<>(copies);
        sorted.sort(Comparator.comparing(s -> s.getMetadata().getName()));
        Map<String, Secret> chosen = new LinkedHashMap<>();
        if (running(job)) {
            wanted.forEach(n -> chosen.put(ns + "/" + n, null));
        }
        List<Release> releases = new ArrayList<>();
        for (Secret copy : sorted) {
            if (copy.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            TreeSet<String> refs = references(copy);
            boolean ours = refs.contains(jobKey);
            String source = annotation(copy, SOURCE_KEY);
            if (running(job) && source != null && chosen.containsKey(source)) {
                if (chosen.get(source) == null || ours) {
                    chosen.put(source, copy);
                }
                continue;
            }
            if (ours) {
                refs.remove(jobKey);
                releases.add(new Release(copy, String.join(",", refs)));
            }
        }
        // A copy passed over for another one of the same source still names the job: release it too.
        for (Secret copy : sorted) {
            String source = annotation(copy, SOURCE_KEY);
            if (copy.getMetadata().getDeletionTimestamp() == null && running(job) && source != null
                    && chosen.containsKey(source) && chosen.get(source) != copy && references(copy).contains(jobKey)) {
                TreeSet<String> refs = references(copy);
                refs.remove(jobKey);
                releases.add(new Release(copy, String.join(",", refs)));
            }
        }
        List<Claim> claims = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Secret> e : chosen.entrySet()) {
            String name = e.getKey().substring(ns.length() + 1);
            Secret source = sources.apply(name);
            if (source == null) {
                missing.add(name);
                continue;
            }
            TreeSet<String> refs = e.getValue() == null ? new TreeSet<>() : references(e.getValue());
            refs.add(jobKey);
            claims.add(new Claim(source, e.getValue(), String.join(",", refs)));
        }
        return new Plan(claims, releases, List.of(), missing);
    }

    static TreeSet<String> references(Secret copy) {
        String v = annotation(copy, REFERENCES);
        TreeSet<String> refs = new TreeSet<>();
        if (v != null && !v.isEmpty()) {
            Arrays.stream(v.split(",")).map(String::trim).filter(s -> s.indexOf('/') > 0).forEach(refs::add);
        }
        return refs;
    }

    static String annotation(Secret s, String key) {
        return s.getMetadata().getAnnotations() == null ? null : s.getMetadata().getAnnotations().get(key);
    }

    /** Whether a claimed copy needs a write: its data or references differ from what the claim wants. */
    public static boolean copyOutdated(Claim claim) {
        Secret copy = claim.copy();
        return !Objects.equals(claim.references(), annotation(copy, REFERENCES))
                || !Objects.equals(nullIfEmpty(claim.source().getData()), nullIfEmpty(copy.getData()))
                || !Objects.equals(nullIfEmpty(claim.source().getStringData()), nullIfEmpty(copy.getStringData()));
    }

    private static Map<String, String> nullIfEmpty(Map<String, String> m) {
        return m == null || m.isEmpty() ? null : m;
    }

    /** The NodeImage reference to a copy: {@code batch} mode for copies this version made (OpenKruise's mode flag). */
    public static ReferenceObject referenceTo(Secret copy) {
        ReferenceObject r = new ReferenceObject(copy.getMetadata().getNamespace(), copy.getMetadata().getName());
        r.setMode(annotation(copy, MODE));
        return r;
    }
}
