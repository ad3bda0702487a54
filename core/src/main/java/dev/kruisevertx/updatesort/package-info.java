/**
 * Order of pods in a rolling update: priority strategy (weights or ordered keys), scatter strategy, and the full
 * CloneSet order ({@link dev.kruisevertx.updatesort.UpdateOrder}). Sorters work on indexes into a pod list.
 */
package dev.kruisevertx.updatesort;
