/**
 * {@code policy.kruise.io/v1alpha1}: PodUnavailableBudget, the storage version in OpenKruise v1.9.0. Added by the
 * issue that implements it.
 */
package dev.kruisevertx.api.policy.v1alpha1;
