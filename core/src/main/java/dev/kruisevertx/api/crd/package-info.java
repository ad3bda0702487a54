/**
 * The CRDs of the Kruise API: fabric8's generated CRDs brought to OpenKruise's shape ({@link
 * dev.kruisevertx.api.crd.KruiseCrds}), for installing into a cluster and for the committed {@code crds/} folder.
 */
package dev.kruisevertx.api.crd;
