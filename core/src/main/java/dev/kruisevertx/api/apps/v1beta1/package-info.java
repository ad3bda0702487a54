/**
 * {@code apps.kruise.io/v1beta1}: in OpenKruise v1.9.0 the storage version of StatefulSet and served (not stored)
 * for the kinds whose storage version is still v1alpha1. Kinds are added here by the issues that implement them.
 */
package dev.kruisevertx.api.apps.v1beta1;
