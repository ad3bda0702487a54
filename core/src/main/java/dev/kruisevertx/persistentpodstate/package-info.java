/**
 * PersistentPodState's pure rules (OpenKruise v1.9.0): which workloads it serves, which PersistentPodState a pod
 * belongs to, what the controller records for each pod, what the workload annotations generate, and what the pod
 * webhook injects at creation. No API calls, no clock.
 */
package dev.kruisevertx.persistentpodstate;
