package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * OpenKruise's syncJobPullSecrets as a table: which copies in kruise-daemon-config a job creates, claims, releases
 * or deletes. A row: the job's state and pull secrets, the copies there (name, source, references), the sources that
 * exist, and the expected claims ({@code source->copy|new:references}), releases ({@code copy:references}, empty =
 * delete), in-place references and missing sources.
 */
class PullSecretSyncTest {
    static final String NS = "app";
    static final String DAEMON = "kruise-daemon-config";

    static Stream<Arguments> cases() {
        return Stream.of(
                row("no pull secrets, running: nothing", "running", "", "", "", "", "", "", ""),
                row("new source: create a copy", "running", "a", "", "a", "a->new:app/job", "", "", ""),
                row("two sources: two copies", "running", "a,b", "", "a,b", "a->new:app/job;b->new:app/job", "", "", ""),
                row("duplicate names count once", "running", "a,a", "", "a", "a->new:app/job", "", "", ""),
                row("absent source: skipped and reported", "running", "a,gone", "", "a",
                        "a->new:app/job", "", "", "gone"),
                row("all absent", "running", "gone", "", "", "", "", "", "gone"),
                row("a copy of the source exists: claim it, add the job", "running", "a",
                        "a-111111=app/a:app/other", "a", "a->a-111111:app/job,app/other", "", "", ""),
                row("already referenced: claim unchanged", "running", "a", "a-111111=app/a:app/job", "a",
                        "a->a-111111:app/job", "", "", ""),
                row("two copies of one source: the first by name", "running", "a",
                        "a-222222=app/a:x/y;a-111111=app/a:x/z", "a", "a->a-111111:app/job,x/z", "", "", ""),
                row("two copies: the one naming the job wins, the other is left", "running", "a",
                        "a-111111=app/a:x/z;a-222222=app/a:app/job", "a", "a->a-222222:app/job", "", "", ""),
                row("two copies both naming the job: the loser is released", "running", "a",
                        "a-111111=app/a:app/job;a-222222=app/a:app/job", "a", "a->a-222222:app/job",
                        "a-111111:", "", ""),
                row("source dropped from the spec: released and deleted", "running", "",
                        "a-111111=app/a:app/job", "a", "", "a-111111:", "", ""),
                row("source dropped, shared: only the reference goes", "running", "b",
                        "a-111111=app/a:app/job,x/y", "a,b", "b->new:app/job", "a-111111:x/y", "", ""),
                row("finished: every copy naming it released", "finished", "a",
                        "a-111111=app/a:app/job;b-111111=app/b:app/job,o/p", "a,b", "",
                        "a-111111:;b-111111:o/p", "", ""),
                row("deleting: released", "deleting", "a", "a-111111=app/a:app/job", "a", "", "a-111111:", "", ""),
                row("finished without pull secrets still releases", "finished", "",
                        "a-111111=app/a:app/job", "a", "", "a-111111:", "", ""),
                row("finished: copies of others untouched", "finished", "a", "a-111111=app/a:x/y", "a",
                        "", "", "", ""),
                row("copy of another namespace's same name is not ours", "running", "a",
                        "a-111111=other/a:x/y", "a", "a->new:app/job", "", "", ""),
                row("copy without annotations is ignored", "running", "a", "stray=:", "a", "a->new:app/job",
                        "", "", ""),
                row("malformed references are dropped", "running", "a", "a-111111=app/a:junk,app/other", "a",
                        "a->a-111111:app/job,app/other", "", "", ""),
                row("job in the daemon namespace: used in place", "in-daemon", "a,b", "", "",
                        "", "", DAEMON + "/a," + DAEMON + "/b", "")
        );
    }

    static Arguments row(String name, String state, String pull, String copies, String sources, String claims,
                         String releases, String inPlace, String missing) {
        return Arguments.of(name, state, pull, copies, sources, claims, releases, inPlace, missing);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, String state, String pull, String copies, String sources, String claims,
                 String releases, String inPlace, String missing) {
        ImagePullJob job = new ImagePullJob();
        job.setMetadata(new ObjectMetaBuilder().withName("job")
                .withNamespace("in-daemon".equals(state) ? DAEMON : NS).withUid("u").build());
        job.setSpec(new ImagePullJobSpec());
        job.getSpec().setPullSecrets(split(pull, ","));
        if ("finished".equals(state)) {
            job.setStatus(new ImagePullJobStatus());
            job.getStatus().setCompletionTime("2026-11-24T00:00:00Z");
        } else if ("deleting".equals(state)) {
            job.getMetadata().setDeletionTimestamp("2026-11-24T00:00:00Z");
        }
        List<Secret> copyList = new ArrayList<>();
        for (String c : split(copies, ";")) {
            String copyName = c.substring(0, c.indexOf('='));
            String source = c.substring(c.indexOf('=') + 1, c.indexOf(':'));
            String refs = c.substring(c.indexOf(':') + 1);
            Map<String, String> ann = source.isEmpty() ? null
                    : Map.of(PullSecretSync.SOURCE_KEY, source, PullSecretSync.REFERENCES, refs);
            copyList.add(new SecretBuilder().withNewMetadata().withNamespace(DAEMON).withName(copyName)
                    .withAnnotations(ann).endMetadata().build());
        }
        List<String> existing = split(sources, ",");
        PullSecretSync.Plan plan = PullSecretSync.decide(job, DAEMON, copyList, n -> existing.contains(n)
                ? new SecretBuilder().withNewMetadata().withNamespace(NS).withName(n).endMetadata().build() : null);
        assertEquals(claims, String.join(";", plan.claims().stream().map(c -> c.source().getMetadata().getName()
                + "->" + (c.copy() == null ? "new" : c.copy().getMetadata().getName()) + ":" + c.references())
                .toList()), "claims");
        assertEquals(releases, String.join(";", plan.releases().stream()
                .map(r -> r.copy().getMetadata().getName() + ":" + r.references()).toList()), "releases");
        assertEquals(inPlace, String.join(",", plan.inPlace().stream().map(Object::toString).toList()), "in place");
        assertEquals(missing, String.join(",", plan.missingSources()), "missing");
    }

    static List<String> split(String s, String sep) {
        return s.isEmpty() ? List.of() : List.of(s.split(sep));
    }
}
