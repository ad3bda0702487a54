/**
 * Pod lifecycle hooks (preNormal, inPlaceUpdate, preDelete) and the {@code lifecycle.apps.kruise.io/state} label:
 * {@link dev.kruisevertx.lifecycle.Lifecycles} reads and changes states (returning copies),
 * {@link dev.kruisevertx.lifecycle.LifecycleTransitions} decides where a pod goes next. Pure functions.
 */
package dev.kruisevertx.lifecycle;
