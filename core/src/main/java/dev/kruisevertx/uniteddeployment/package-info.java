/**
 * UnitedDeployment logic shared by the controller and the webhook: reading a subset's replica count and the pure
 * replica allocation over the topology subsets, as OpenKruise v1.9.0 does it.
 */
package dev.kruisevertx.uniteddeployment;
