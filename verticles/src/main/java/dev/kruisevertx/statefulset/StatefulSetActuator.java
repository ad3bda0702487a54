package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.controller.PlanStaleness;
import dev.kruisevertx.controller.SlowStart;
import dev.kruisevertx.controller.StalePlanException;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Carries out an Advanced StatefulSet plan, deciding nothing: the upkeep of every pod first; then the plan (PVCs
 * before their pod, pods created with slow start and only while the set is unchanged, deletes, lifecycle hooks, PVC
 * expansions, in-place updates); then the refresh of in-place updates and lifecycles. Each round starts every write
 * and waits for all; a hold that fails the reconcile (a stale PVC, a PVC that cannot be resized) fails it after the
 * round, so the queue retries with backoff. Failures of pod writes are noted for the status conditions.
 */
final class StatefulSetActuator {
    private static final Logger LOG = LoggerFactory.getLogger(StatefulSetActuator.class);

    private final StatefulSetPodWriter pods;
    private final StatefulSetClaimWriter claims;
    private final StatefulSetEvents events;
    private final BiFunction<String, String, StatefulSet> cachedSet;

    StatefulSetActuator(StatefulSetPodWriter pods, StatefulSetClaimWriter claims, StatefulSetEvents events,
                        BiFunction<String, String, StatefulSet> cachedSet) {
        this.pods = pods;
        this.claims = claims;
        this.events = events;
        this.cachedSet = cachedSet;
    }

    Future<Void> execute(StatefulSet set, StatefulSetPlan plan, StatefulSetConditions.Failures failures) {
        StatefulSetActions a = plan.actions();
        return all(upkeep(set, a.upkeep(), failures))
                .compose(v -> all(work(set, a, failures)))
                .compose(v -> all(refresh(a.refresh())));
    }

    private List<Supplier<Future<Void>>> upkeep(StatefulSet set, StatefulSetActions.Upkeep u,
                                                StatefulSetConditions.Failures failures) {
        List<Supplier<Future<Void>>> out = new ArrayList<>();
        for (StatefulSetActions.ClaimOwners fix : u.claimOwners()) {
            out.add(() -> {
                Future<Void> fixed = claims.fixOwners(set, fix);
                return fix.condemned() ? fixed : fixed.onFailure(failures::updateFailed);
            });
        }
        for (StatefulSetActions.Identity fix : u.identities()) {
            out.add(() -> pods.restoreIdentity(fix).onFailure(failures::updateFailed));
        }
        for (StatefulSetActions.MissingClaims m : u.missingClaims()) {
            out.add(() -> {
                Future<Void> created = claims.create(set, m.pod(), m.claims());
                return m.reportFailure() ? created.onFailure(failures::updateFailed) : created;
            });
        }
        return out;
    }

    private List<Supplier<Future<Void>>> work(StatefulSet set, StatefulSetActions a,
                                              StatefulSetConditions.Failures failures) {
        String key = set.getMetadata().getNamespace() + "/" + set.getMetadata().getName();
        List<Supplier<Future<Void>>> out = new ArrayList<>();
        for (StatefulSetActions.Hold h : a.held()) {
            if (h.why() == StatefulSetActions.Why.CLAIM_NOT_UPDATABLE) {
                events.claimNotUpdatable(set, h.claim());
            }
            if (h.failure() != null) {
                out.add(() -> Future.failedFuture(new IllegalStateException(h.failure())));
            }
        }
        List<Supplier<Future<Void>>> creations = new ArrayList<>();
        for (StatefulSetActions.Creation c : a.creations()) {
            String name = c.pod().getMetadata().getName();
            creations.add(() -> claims.create(set, name, c.claims()).compose(v -> pods.create(set, key, c.pod()))
                    .onFailure(failures::createFailed));
        }
        // Slow start, and no more pods once the set is gone, replaced or changed (expectations are raised per pod
        // as it is sent, so pods never sent leave none behind).
        out.add(() -> SlowStart.run(creations, Supplier::get, () -> PlanStaleness.reason(set,
                cachedSet.apply(set.getMetadata().getNamespace(), set.getMetadata().getName())), skipped -> {
        }).onFailure(e -> {
            if (e instanceof StalePlanException) {
                LOG.info("StatefulSet {}: pod creation {}", key, e.getMessage());
            }
        }));
        for (StatefulSetActions.Deletion d : a.deletions()) {
            out.add(() -> {
                Future<Void> deleted = pods.delete(set, key, d.pod());
                return d.claims().isEmpty() ? deleted : deleted.compose(v -> claims.delete(set, d.claims()));
            });
        }
        for (StatefulSetActions.LifecycleWrite w : a.hooks()) {
            out.add(() -> pods.writeLifecycle(w.pod(), w.change()));
        }
        for (StatefulSetActions.ClaimResize r : a.resizes()) {
            out.add(() -> claims.resize(set, r));
        }
        for (StatefulSetActions.InPlace u : a.inPlace()) {
            String name = u.pod().getMetadata().getName();
            out.add(() -> pods.updateInPlace(u).onComplete(ar -> events.inPlace(set, name, u.spec().revision(),
                    ar.cause())));
        }
        return out;
    }

    private List<Supplier<Future<Void>>> refresh(StatefulSetActions.Refresh r) {
        List<Supplier<Future<Void>>> out = new ArrayList<>();
        for (StatefulSetActions.LifecycleWrite w : r.lifecycle()) {
            out.add(() -> pods.writeLifecycle(w.pod(), w.change()));
        }
        for (StatefulSetActions.PodPatch p : r.patches()) {
            out.add(() -> pods.patch(p));
        }
        return out;
    }

    private static Future<Void> all(List<Supplier<Future<Void>>> steps) {
        List<Future<Void>> started = new ArrayList<>(steps.size());
        for (Supplier<Future<Void>> step : steps) {
            started.add(step.get());
        }
        return Future.join(started).mapEmpty();
    }
}
