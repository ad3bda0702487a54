/**
 * In-place update of workload pods, shared by CloneSet and Advanced StatefulSet: {@link
 * dev.kruisevertx.inplace.InPlaceUpdateCalculator} decides from two revisions whether (and what) can change in place;
 * {@link dev.kruisevertx.inplace.InPlaceUpdater} turns that into pod copies to write and follows the update (grace
 * period, container batches by launch priority, completion, InPlaceUpdateReady). Pure functions, no API calls.
 */
package dev.kruisevertx.inplace;
