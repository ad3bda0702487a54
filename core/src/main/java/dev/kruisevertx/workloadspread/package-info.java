/**
 * WorkloadSpread logic shared by the pod webhook (subset choice, what a pod gets) and the controller (deletion
 * cost, status): pure functions over the model, each matching OpenKruise v1.9.0, with no I/O.
 */
package dev.kruisevertx.workloadspread;
