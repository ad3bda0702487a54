package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PodUpdateStrategyType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every decision of the Advanced StatefulSet planner, one row each: the set and its pods in, the exact plan out —
 * which pods are created (at which revision, with which PVCs), deleted (and why), updated in place, moved by a
 * lifecycle hook, held back and why, kept in line (upkeep) and refreshed. Each row goes through the controller's own
 * snapshot, state builder and planner ({@link StatefulSetPlanCase}).
 */
class StatefulSetPlannerTableTest {
    private static final String INPLACE = PodUpdateStrategyType.IN_PLACE_IF_POSSIBLE.value();
    private static final String INPLACE_ONLY = PodUpdateStrategyType.IN_PLACE_ONLY.value();
    private static final String DELETE = "Delete";
    private static final String RETAIN = "Retain";

    static StatefulSetPlanCase c(String name) {
        return new StatefulSetPlanCase(name);
    }

    static Arguments row(StatefulSetPlanCase c, String... expected) {
        return Arguments.of(c, List.of(expected));
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                // Scaling, OrderedReady
                row(c("ordered: an empty set creates web-0 only"), "create web-0@new"),
                row(c("ordered: the next ordinal once its predecessor is ready").pods("0:new:ready"),
                        "create web-1@new"),
                row(c("ordered: waits while a predecessor is not ready").pods("0:new:pending")),
                row(c("ordered: a failed pod is replaced first").pods("0:new:failed"), "delete web-0 (FAILED)"),
                row(c("ordered: scale-down deletes the highest ordinal, one at a time").replicas(1)
                        .pods("0:new:ready", "1:new:ready", "2:new:ready"), "delete web-2 (CONDEMNED)"),
                row(c("ordered: scale-down waits while another pod is not ready").replicas(1)
                        .pods("0:new:ready", "1:new:pending", "2:new:ready")),
                row(c("ordered: scale-down waits for a condemned pod to terminate").replicas(1)
                        .pods("0:new:ready", "1:new:ready", "2:new:terminating")),
                // Scaling, Parallel
                row(c("parallel: every missing ordinal at once").parallel(),
                        "create web-0@new", "create web-1@new", "create web-2@new"),
                row(c("parallel: scaleStrategy.maxUnavailable limits creation").parallel().replicas(4)
                        .scaleMaxUnavailable(2), "create web-0@new", "create web-1@new"),
                row(c("parallel: scale-down deletes every condemned pod, highest first").parallel().replicas(1)
                        .pods("0:new:ready", "1:new:ready", "2:new:ready"),
                        "delete web-2 (CONDEMNED)", "delete web-1 (CONDEMNED)"),
                row(c("parallel: a failed pod is replaced while the missing ones are created").parallel()
                        .pods("0:new:failed", "1:new:ready"), "create web-2@new", "delete web-0 (FAILED)"),
                // reserveOrdinals
                row(c("reserveOrdinals: the reserved ordinal is skipped").parallel().reserve(1),
                        "create web-0@new", "create web-2@new", "create web-3@new"),
                row(c("reserveOrdinals: a pod on a reserved ordinal is condemned").parallel().reserve(1)
                        .pods("0:new:ready", "1:new:ready", "2:new:ready"),
                        "create web-3@new", "delete web-1 (CONDEMNED)"),
                row(c("reserveOrdinals: ordered starts after the reserved ordinal").replicas(2).reserve(0),
                        "create web-1@new"),
                // ordinals.start
                row(c("ordinals.start: the first pod is web-5").replicas(2).start(5), "create web-5@new"),
                row(c("ordinals.start: raising it condemns the lower pods").parallel().replicas(2).start(1)
                        .pods("0:new:ready", "1:new:ready"), "create web-2@new", "delete web-0 (CONDEMNED)"),
                row(c("ordinals.start: ignored without gate StatefulSetStartOrdinal").replicas(2).startWithoutGate(5),
                        "create web-0@new"),
                // partition
                row(c("partition: ordinals below it keep their revision").partition(2)
                        .pods("0:old:ready", "1:old:ready", "2:old:ready"), "delete web-2 (UPDATE)"),
                row(c("partition: nothing to do once every ordinal from it is updated").partition(2)
                        .pods("0:old:ready", "1:old:ready", "2:new:ready")),
                row(c("partition: a pod recreated below it gets the current revision").partition(2)
                        .pods("1:old:ready", "2:new:ready"), "create web-0@old"),
                // rolling update and maxUnavailable
                row(c("ordered update: the highest old pod is recreated").pods("0:old:ready", "1:old:ready",
                        "2:old:ready"), "delete web-2 (UPDATE)"),
                row(c("ordered update: waits for the updated pod to be ready").pods("0:old:ready", "1:old:ready",
                        "2:new:pending")),
                row(c("parallel update: maxUnavailable 2 recreates two").parallel().maxUnavailable("2")
                        .pods("0:old:ready", "1:old:ready", "2:old:ready"),
                        "delete web-2 (UPDATE)", "delete web-1 (UPDATE)"),
                row(c("parallel update: maxUnavailable 50% of 4 is 2").parallel().replicas(4).maxUnavailable("50%")
                        .pods("0:old:ready", "1:old:ready", "2:old:ready", "3:old:ready"),
                        "delete web-3 (UPDATE)", "delete web-2 (UPDATE)"),
                row(c("parallel update: an unavailable pod uses up maxUnavailable").parallel()
                        .pods("0:old:ready", "1:old:ready", "2:new:pending")),
                row(c("paused: no update").rolling(r -> r.setPaused(true))
                        .pods("0:old:ready", "1:old:ready", "2:old:ready")),
                row(c("OnDelete: pods are updated only when deleted").onDelete()
                        .pods("0:old:ready", "1:old:ready", "2:old:ready")),
                // unorderedUpdate.priorityStrategy
                row(c("priority: the front pod goes first").parallel().frontFirst()
                        .pods("0:old:ready:front", "1:old:ready", "2:old:ready"), "delete web-0 (UPDATE)"),
                row(c("priority: ignored under OrderedReady").frontFirst()
                        .pods("0:old:ready:front", "1:old:ready", "2:old:ready"), "delete web-2 (UPDATE)"),
                row(c("no priority: the highest ordinal goes first").parallel()
                        .pods("0:old:ready:front", "1:old:ready", "2:old:ready"), "delete web-2 (UPDATE)"),
                // in-place or recreate
                row(c("InPlaceIfPossible: an image change is made in place").policy(INPLACE)
                        .pods("0:old:ready", "1:old:ready", "2:old:ready"), "in-place web-2"),
                row(c("InPlaceIfPossible: other changes recreate the pod").policy(INPLACE).envChanged()
                        .pods("0:old:ready", "1:old:ready", "2:old:ready"), "delete web-2 (UPDATE)"),
                row(c("InPlaceOnly: a pod that cannot be updated in place waits").policy(INPLACE_ONLY).envChanged()
                        .pods("0:old:ready", "1:old:ready", "2:old:ready")),
                row(c("InPlaceIfPossible: parallel, maxUnavailable 3 updates all").parallel().maxUnavailable("3")
                        .policy(INPLACE).pods("0:old:ready", "1:old:ready", "2:old:ready"),
                        "in-place web-2", "in-place web-1", "in-place web-0"),
                // PVCs and their retention
                row(c("PVCs: a new pod's PVCs are created with it").replicas(1).volumes(RETAIN, RETAIN),
                        "create web-0@new with [data-web-0]"),
                row(c("PVCs: a retained PVC is mounted again").replicas(1).volumes(RETAIN, RETAIN).claim("0"),
                        "create web-0@new"),
                row(c("PVCs: whenScaled Delete holds a pod whose PVC belongs to an earlier pod").replicas(1)
                        .volumes(DELETE, RETAIN).claim("0:stale"), "hold web-0: STALE_CLAIM data-web-0"),
                row(c("PVCs: whenScaled Retain ignores an earlier pod's reference").replicas(1)
                        .volumes(RETAIN, RETAIN).claim("0:stale"), "create web-0@new"),
                row(c("PVCs: whenScaled Delete deletes a condemned pod's PVC with it").replicas(1)
                        .volumes(DELETE, RETAIN).claim("0").claim("1").pods("0:new:ready", "1:new:ready"),
                        "delete web-1 (CONDEMNED) and [data-web-1]", "owners of data-web-1 (condemned)"),
                row(c("PVCs: whenScaled Retain keeps a condemned pod's PVC").replicas(1).volumes(RETAIN, RETAIN)
                        .claim("0").claim("1").pods("0:new:ready", "1:new:ready"), "delete web-1 (CONDEMNED)"),
                row(c("PVCs: whenDeleted Delete makes the set own its pods' PVCs").replicas(2)
                        .volumes(RETAIN, DELETE).claim("0").claim("1").pods("0:new:ready", "1:new:ready"),
                        "owners of data-web-0", "owners of data-web-1"),
                row(c("PVCs: whenDeleted Delete, already owned by the set").replicas(2).volumes(RETAIN, DELETE)
                        .claim("0:setOwned").claim("1:setOwned").pods("0:new:ready", "1:new:ready")),
                row(c("PVCs: a pending pod's missing PVC is created").replicas(1).volumes(RETAIN, RETAIN)
                        .pods("0:new:pending"), "missing PVCs of web-0 [data-web-0]"),
                row(c("PVCs: OnPodRollingUpdate expands a small PVC first").replicas(1).volumes(RETAIN, RETAIN)
                        .resizeOnRollingUpdate().claim("0:small").pods("0:new:ready"),
                        "resize data-web-0", "requeue 5s"),
                row(c("PVCs: OnPodRollingUpdate holds a PVC that differs in more than size").replicas(1)
                        .volumes(RETAIN, RETAIN).resizeOnRollingUpdate().claim("0:otherMode").pods("0:new:ready"),
                        "hold web-0: CLAIM_NOT_UPDATABLE data-web-0", "requeue 5s"),
                // lifecycle hooks
                row(c("preDelete: a hooked condemned pod goes PreparingDelete instead of away").parallel().replicas(1)
                        .hook(true, false).pods("0:new:ready", "1:new:ready:hooked"),
                        "web-1 -> PreparingDelete", "hold web-1: PRE_DELETE_HOOK"),
                row(c("preDelete: a pod already PreparingDelete waits").parallel().replicas(1).hook(true, false)
                        .pods("0:new:ready", "1:new:ready:hooked:PreparingDelete"), "hold web-1: PRE_DELETE_HOOK"),
                row(c("preDelete: an unhooked condemned pod is deleted").parallel().replicas(1).hook(true, false)
                        .pods("0:new:ready", "1:new:ready"), "delete web-1 (CONDEMNED)"),
                row(c("preDelete: a failed pod is replaced though hooked").replicas(1).hook(true, false)
                        .pods("0:new:failed:hooked"), "delete web-0 (FAILED)"),
                row(c("inPlaceUpdate hook: a hooked pod goes PreparingUpdate first").policy(INPLACE).hook(false, true)
                        .pods("0:old:ready", "1:old:ready", "2:old:ready:hooked"),
                        "web-2 -> PreparingUpdate", "hold web-2: IN_PLACE_UPDATE_HOOK"),
                row(c("inPlaceUpdate hook: PreparingUpdate and still hooked waits").policy(INPLACE).hook(false, true)
                        .pods("0:old:ready", "1:old:ready", "2:old:ready:hooked:PreparingUpdate"),
                        "hold web-2: IN_PLACE_UPDATE_HOOK"),
                row(c("inPlaceUpdate hook: released, the pod is updated").policy(INPLACE).hook(false, true)
                        .pods("0:old:ready", "1:old:ready", "2:old:ready:PreparingUpdate"), "in-place web-2"),
                row(c("inPlaceUpdate hook: a PreparingDelete pod is not updated").policy(INPLACE).hook(false, true)
                        .pods("0:old:ready", "1:old:ready", "2:old:ready:PreparingDelete"),
                        "hold web-2: UPDATE_NOT_ALLOWED"),
                // minReadySeconds
                row(c("minReadySeconds: ordered waits for a fresh pod and looks again").minReady(5)
                        .pods("0:new:fresh"), "requeue 4s"),
                row(c("minReadySeconds: a pod ready long enough lets the next one start").minReady(5)
                        .pods("0:new:ready"), "create web-1@new"),
                row(c("minReadySeconds: a parallel update waits for the updated pod").parallel().minReady(5)
                        .pods("0:old:ready", "1:old:ready", "2:new:fresh"), "requeue 4s"),
                // upkeep
                row(c("upkeep: a pod that lost its identity labels gets them back").replicas(1)
                        .pods("0:new:ready:unnamed"),
                        "identity of web-0 [statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index,"
                                + " apps.kruise.io/pod-index]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(StatefulSetPlanCase c, List<String> expected) {
        assertEquals(expected, c.plan());
    }
}
