/**
 * ResourceDistribution's pure rules, shared by the webhook and the controller: which namespaces a distribution
 * targets ({@link dev.kruisevertx.resourcedistribution.NamespaceTargeting}), what to do with the copy in each
 * ({@link dev.kruisevertx.resourcedistribution.CopyDecision}) and the status that follows
 * ({@link dev.kruisevertx.resourcedistribution.DistributionStatus}).
 */
package dev.kruisevertx.resourcedistribution;
