#!/usr/bin/env python3
"""Writes the swap fixtures: objects as OpenKruise v1.9.0 leaves them in a cluster, built by following its code at
tag v1.9.0 (not this project's writers):

- templates as its webhook stores them (apis/apps/defaults SetDefaultPodSpec: containers pull Always, the core
  pod and container defaults);
- ControllerRevision data as getPatch writes it (runtime.Encode, decoded into a map, json.Marshal: keys sorted,
  metadata.creationTimestamp null, resources {} kept, "$patch":"replace"), name <owner>-<HashControllerRevision>
  (FNV-1 32 over the data then the collision count as decimal text, rand.SafeEncodeString), labels the template's
  plus controller.kubernetes.io/hash, annotations the owner's (CloneSet: plus
  kruise.io/cloneset-volumeclaimtemplate-hash "" without volumeClaimTemplates);
- CloneSet pods as newVersionedPods + WriteRevisionHash + SetPodLifecycle(PreparingNormal) then Normal leave them,
  with the KruisePodReady readiness gate its pod webhook adds (the conditions of the readiness gates, True, are
  what its controllers wrote: the test writes them once the kubelet runs the pods);
  in-place state as inplaceupdate writes it (apps.kruise.io/inplace-update-state, and the pre-v1.0 key);
- Advanced StatefulSet pods as newStatefulSetPod (pod-name and pod-index labels, hostname, subdomain, claim
  volumes) and PVCs as getPersistentVolumeClaims (template labels plus the selector's);
- a ContainerRecreateRequest as its webhook (active, node-name, pod-uid labels; strategy defaults) and daemon
  (phase Recreating) leave it.

Placeholders the test fills in: __NS__, __UID_<Kind>_<name>__, __POD_UID_<pod>__, __NODE0__.. __NODE2__.
Run: python3 generate.py (writes *.json next to it).
"""
import json
import os

ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789"
T0 = "2026-11-24T10:00:00Z"
T1 = "2026-11-24T10:05:00Z"
HERE = os.path.dirname(os.path.abspath(__file__))


def go_json(obj):
    # encoding/json of a map[string]interface{}: keys sorted, no spaces, <>& escaped.
    s = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def hash_revision(data, collision_count=0):
    h = 0x811C9DC5
    for b in data.encode("utf-8") + str(collision_count).encode("ascii"):
        h = (h * 0x01000193) & 0xFFFFFFFF  # FNV-1: multiply, then xor
        h ^= b
    return "".join(ALPHANUMS[b % len(ALPHANUMS)] for b in str(h).encode("ascii"))


def container(image, name="nginx"):
    return {"name": name, "image": image, "imagePullPolicy": "Always",
            "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}},
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}


def template(labels, image):
    return {"metadata": {"labels": dict(labels)},
            "spec": {"containers": [container(image)], "restartPolicy": "Always",
                     "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst", "securityContext": {},
                     "schedulerName": "default-scheduler"}}


def revision_data(tpl):
    t = json.loads(json.dumps(tpl))
    t["metadata"] = dict(t["metadata"], creationTimestamp=None)
    t["$patch"] = "replace"
    return go_json({"spec": {"template": t}})


def revision(kind, api_version, owner, tpl, number, owner_annotations, cloneset=True):
    data = revision_data(tpl)
    h = hash_revision(data)
    annotations = dict(owner_annotations)
    if cloneset:
        annotations["kruise.io/cloneset-volumeclaimtemplate-hash"] = ""
    labels = dict(tpl["metadata"]["labels"], **{"controller.kubernetes.io/hash": h})
    return owner + "-" + h, h, data, {
        "apiVersion": "apps/v1", "kind": "ControllerRevision",
        "metadata": {"name": owner + "-" + h, "namespace": "__NS__", "labels": labels, "annotations": annotations,
                     "ownerReferences": [owner_ref(kind, api_version, owner)]},
        "data": json.loads(data), "revision": number}


def owner_ref(kind, api_version, name):
    return {"apiVersion": api_version, "kind": kind, "name": name, "uid": "__UID_%s_%s__" % (kind, name),
            "controller": True, "blockOwnerDeletion": True}


def cloneset_pod(cs, tpl, rev_name, short, instance_id, node, state="Normal", short_form=False, extra_labels=None,
                 annotations=None, finalizers=None):
    labels = dict(tpl["metadata"]["labels"])
    labels["controller-revision-hash"] = short if short_form else rev_name
    labels["pod-template-hash"] = short
    labels["apps.kruise.io/cloneset-instance-id"] = instance_id
    labels["lifecycle.apps.kruise.io/state"] = state
    labels.update(extra_labels or {})
    ann = {"lifecycle.apps.kruise.io/timestamp": T0}
    ann.update(annotations or {})
    spec = json.loads(json.dumps(tpl["spec"]))
    # InPlaceUpdateReady from the controller (InjectReadinessGate), KruisePodReady from its pod webhook
    # (injectPodReadinessGate: pods owned by a kruise workload).
    spec["readinessGates"] = [{"conditionType": "InPlaceUpdateReady"}, {"conditionType": "KruisePodReady"}]
    spec["nodeName"] = node
    meta = {"name": cs + "-" + instance_id, "namespace": "__NS__", "labels": labels, "annotations": ann,
            "ownerReferences": [owner_ref("CloneSet", "apps.kruise.io/v1alpha1", cs)]}
    if finalizers:
        meta["finalizers"] = finalizers
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    return pod


def cloneset(name, labels, tpl, replicas, strategy, status, annotations=None, lifecycle=None, min_ready=0):
    spec = {"replicas": replicas, "selector": {"matchLabels": dict(labels)}, "template": tpl,
            "revisionHistoryLimit": 10, "minReadySeconds": min_ready, "updateStrategy": strategy,
            "scaleStrategy": {"disablePVCReuse": False}}
    if lifecycle:
        spec["lifecycle"] = lifecycle
    return {"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "metadata": {"name": name, "namespace": "__NS__", "annotations": annotations or {}},
            "spec": spec, "status": status}


def cs_status(replicas, update_rev, current_rev, updated, ready=None, available=None, update_ready=None,
              expected_updated=None, generation=1):
    ready = replicas if ready is None else ready
    return {"observedGeneration": generation, "replicas": replicas, "readyReplicas": ready,
            "availableReplicas": ready if available is None else available,
            "updatedReplicas": updated, "updatedReadyReplicas": updated if update_ready is None else update_ready,
            "updatedAvailableReplicas": updated if update_ready is None else update_ready,
            "expectedUpdatedReplicas": updated if expected_updated is None else expected_updated,
            "updateRevision": update_rev, "currentRevision": current_rev, "collisionCount": 0,
            "labelSelector": None}


def write(name, objects):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(objects, f, indent=1, sort_keys=False)
        f.write("\n")


def selector_text(labels):
    return ",".join("%s=%s" % kv for kv in sorted(labels.items()))


def main():
    pins = {}
    inplace = {"type": "InPlaceIfPossible", "partition": 0, "maxUnavailable": "20%", "maxSurge": 0,
               "inPlaceUpdateStrategy": {}}

    # web: every pod at the update revision, two of them updated in place from v1 (new and pre-v1.0 state keys);
    # a ContainerRecreateRequest in flight on the third.
    labels = {"app": "web"}
    t1, t2 = template(labels, "nginx:1.26"), template(labels, "nginx:1.27")
    ann = {"owner": "shop"}
    r1, h1, _, rev1 = revision("CloneSet", "apps.kruise.io/v1alpha1", "web", t1, 1, ann)
    r2, h2, d2, rev2 = revision("CloneSet", "apps.kruise.io/v1alpha1", "web", t2, 2, ann)
    pins["web"] = {"revision": r2, "data": d2}
    status = cs_status(3, r2, r2, 3)
    status["labelSelector"] = selector_text(labels)
    cs = cloneset("web", labels, t2, 3, inplace, status, annotations=ann, min_ready=3)
    state_new = {"revision": r2, "updateTimestamp": T1,
                 "lastContainerStatuses": {"nginx": {"imageID": "docker.io/library/nginx@sha256:" + "1" * 64}},
                 "updateImages": True,
                 "containerBatchesRecord": [{"timestamp": T1, "containers": ["nginx"]}]}
    state_old = {"revision": r2, "updateTimestamp": T1,
                 "lastContainerStatuses": {"nginx": {"imageID": "docker.io/library/nginx@sha256:" + "1" * 64}}}
    pods = [
        cloneset_pod("web", t2, r2, h2, "k8x2p", "__NODE0__",
                     annotations={"apps.kruise.io/inplace-update-state": json.dumps(state_new, separators=(",", ":"))}),
        cloneset_pod("web", t2, r2, h2, "m4q7z", "__NODE1__",
                     annotations={"inplace-update-state": json.dumps(state_old, separators=(",", ":"))}),
        cloneset_pod("web", t2, r2, h2, "t9w5c", "__NODE2__"),
    ]
    crr = {"apiVersion": "apps.kruise.io/v1alpha1", "kind": "ContainerRecreateRequest",
           "metadata": {"name": "web-t9w5c-restart", "namespace": "__NS__",
                        "labels": {"crr.apps.kruise.io/active": "true", "crr.apps.kruise.io/node-name": "__NODE2__",
                                   "crr.apps.kruise.io/pod-uid": "__POD_UID_web-t9w5c__"}},
           "spec": {"podName": "web-t9w5c", "containers": [{"name": "nginx"}],
                    "strategy": {"failurePolicy": "Fail", "terminationGracePeriodSeconds": 30},
                    "activeDeadlineSeconds": 3600, "ttlSecondsAfterFinished": 1800},
           "status": {"phase": "Recreating"}}
    write("cloneset-web.json", [cs, rev1, rev2] + pods + [crr])

    # api: a partitioned rollout in the middle (partition 2 of 4: two pods stay at v1), pods labelled in the short
    # form (CloneSetShortHash).
    labels = {"app": "api"}
    t1, t2 = template(labels, "nginx:1.26"), template(labels, "nginx:1.27")
    r1, h1, _, rev1 = revision("CloneSet", "apps.kruise.io/v1alpha1", "api", t1, 1, {})
    r2, h2, _, rev2 = revision("CloneSet", "apps.kruise.io/v1alpha1", "api", t2, 2, {})
    strategy = {"type": "ReCreate", "partition": 2, "maxUnavailable": "20%", "maxSurge": 0}
    status = cs_status(4, r2, r1, 2)
    status["labelSelector"] = selector_text(labels)
    cs = cloneset("api", labels, t2, 4, strategy, status)
    pods = [cloneset_pod("api", t1, r1, h1, "a1b2c", "__NODE0__", short_form=True),
            cloneset_pod("api", t1, r1, h1, "d3f4g", "__NODE1__", short_form=True),
            cloneset_pod("api", t2, r2, h2, "h5j6k", "__NODE2__", short_form=True),
            cloneset_pod("api", t2, r2, h2, "l7m8n", "__NODE0__", short_form=True)]
    write("cloneset-api.json", [cs, rev1, rev2] + pods)

    # hooked: lifecycle hooks held. After a scale-down from 2 to 1 and a template change, one pod waits in
    # PreparingDelete (preDelete finalizer still on), the other in PreparingUpdate (inPlaceUpdate hook label on).
    labels = {"app": "hooked"}
    t1, t2 = template(labels, "nginx:1.26"), template(labels, "nginx:1.27")
    r1, h1, _, rev1 = revision("CloneSet", "apps.kruise.io/v1alpha1", "hooked", t1, 1, {})
    r2, h2, _, rev2 = revision("CloneSet", "apps.kruise.io/v1alpha1", "hooked", t2, 2, {})
    lifecycle = {"preDelete": {"finalizersHandler": ["example.io/drain"]},
                 "inPlaceUpdate": {"labelsHandler": {"example.io/serving": "true"}}}
    status = cs_status(2, r2, r1, 0, ready=2, available=0, expected_updated=1)
    status["labelSelector"] = selector_text(labels)
    cs = cloneset("hooked", labels, t2, 1, dict(inplace, maxUnavailable=1), status, lifecycle=lifecycle)
    hook_labels = {"example.io/serving": "true"}
    pods = [cloneset_pod("hooked", t1, r1, h1, "p1q2r", "__NODE0__", state="PreparingUpdate",
                         extra_labels=hook_labels, annotations={"lifecycle.apps.kruise.io/timestamp": T1},
                         finalizers=["example.io/drain"]),
            cloneset_pod("hooked", t1, r1, h1, "s3t4v", "__NODE1__", state="PreparingDelete",
                         extra_labels=hook_labels, annotations={"lifecycle.apps.kruise.io/timestamp": T1},
                         finalizers=["example.io/drain"])]
    write("cloneset-hooked.json", [cs, rev1, rev2] + pods)

    # edited: its template changed (nginx:1.28) while OpenKruise was stopped: the takeover check names it.
    labels = {"app": "edited"}
    t1 = template(labels, "nginx:1.26")
    r1, h1, _, rev1 = revision("CloneSet", "apps.kruise.io/v1alpha1", "edited", t1, 1, {})
    status = cs_status(1, r1, r1, 1)
    status["labelSelector"] = selector_text(labels)
    cs = cloneset("edited", labels, template(labels, "nginx:1.28"), 1, inplace, status)
    pins["edited"] = {"revision": r1}
    write("cloneset-edited.json", [cs, rev1, cloneset_pod("edited", t1, r1, h1, "e1e2e", "__NODE1__")])

    # db: an Advanced StatefulSet with ordinal 1 reserved (pods 0, 2, 3) and a PVC per pod.
    labels = {"app": "db"}
    t1 = template(labels, "nginx:1.26")
    r1, h1, d1, rev1 = revision("StatefulSet", "apps.kruise.io/v1beta1", "db", t1, 1, {"owner": "data"},
                                cloneset=False)
    pins["db"] = {"revision": r1, "data": d1}
    vct = {"metadata": {"name": "data", "labels": {"tier": "storage"}},
           "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                    "volumeMode": "Filesystem"}, "status": {"phase": "Pending"}}
    sts = {"apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
           "metadata": {"name": "db", "namespace": "__NS__", "annotations": {"owner": "data"}},
           "spec": {"replicas": 3, "reserveOrdinals": [1], "serviceName": "db", "selector": {"matchLabels": labels},
                    "template": t1, "volumeClaimTemplates": [vct], "podManagementPolicy": "OrderedReady",
                    "revisionHistoryLimit": 10,
                    "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {
                        "partition": 0, "maxUnavailable": 1, "podUpdatePolicy": "ReCreate", "minReadySeconds": 0}},
                    "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"}},
           "status": {"observedGeneration": 1, "replicas": 3, "readyReplicas": 3, "availableReplicas": 3,
                      "currentReplicas": 3, "updatedReplicas": 3, "updatedReadyReplicas": 3,
                      "updatedAvailableReplicas": 3, "currentRevision": r1, "updateRevision": r1,
                      "collisionCount": 0, "labelSelector": selector_text(labels)}}
    objects = [sts, rev1]
    for i, ordinal in enumerate([0, 2, 3]):
        name = "db-%d" % ordinal
        spec = json.loads(json.dumps(t1["spec"]))
        spec["volumes"] = [{"name": "data", "persistentVolumeClaim": {"claimName": "data-" + name}}]
        spec["hostname"] = name
        spec["subdomain"] = "db"
        spec["nodeName"] = "__NODE%d__" % i
        spec["readinessGates"] = [{"conditionType": "KruisePodReady"}]
        plabels = dict(labels, **{"controller-revision-hash": r1, "statefulset.kubernetes.io/pod-name": name,
                                  "apps.kubernetes.io/pod-index": str(ordinal)})
        objects.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                        "metadata": {"name": "data-" + name, "namespace": "__NS__",
                                     "labels": {"tier": "storage", "app": "db"}},
                        "spec": vct["spec"]})
        objects.append({"apiVersion": "v1", "kind": "Pod",
                        "metadata": {"name": name, "namespace": "__NS__", "labels": plabels,
                                     "ownerReferences": [owner_ref("StatefulSet", "apps.kruise.io/v1beta1", "db")]},
                        "spec": spec})
    write("asts-db.json", objects)

    # The revision OpenKruise would write for web's template changed to nginx:1.28 (the reverse direction).
    t3 = template({"app": "web"}, "nginx:1.28")
    r3, _, d3, o3 = revision("CloneSet", "apps.kruise.io/v1alpha1", "web", t3, 3, {"owner": "shop"})
    pins["web-next"] = {"revision": r3, "data": d3, "labels": o3["metadata"]["labels"],
                        "annotations": o3["metadata"]["annotations"]}
    t4 = template({"app": "db"}, "nginx:1.28")
    r4, _, d4, o4 = revision("StatefulSet", "apps.kruise.io/v1beta1", "db", t4, 2, {"owner": "data"},
                             cloneset=False)
    pins["db-next"] = {"revision": r4, "data": d4, "labels": o4["metadata"]["labels"],
                       "annotations": o4["metadata"]["annotations"]}
    with open(os.path.join(HERE, "pinned-revisions.json"), "w") as f:
        json.dump(pins, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
