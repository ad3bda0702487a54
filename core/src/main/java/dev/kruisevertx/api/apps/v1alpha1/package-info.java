/**
 * {@code apps.kruise.io/v1alpha1}: the storage version of CloneSet (and, in OpenKruise v1.9.0, of
 * ContainerRecreateRequest, UnitedDeployment, WorkloadSpread, ResourceDistribution and PersistentPodState).
 * Values shared between kinds (lifecycle hooks, update priority and scatter, in-place update) live in
 * {@code dev.kruisevertx.api.common}.
 */
package dev.kruisevertx.api.apps.v1alpha1;
