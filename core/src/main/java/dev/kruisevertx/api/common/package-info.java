/**
 * Values shared by the Kruise kinds, as in OpenKruise's {@code apis/apps/pub}: lifecycle hooks and states, update
 * priority and scatter strategies, in-place update strategy and state, int-or-percent arithmetic, and every
 * well-known label/annotation/condition key ({@link dev.kruisevertx.api.common.WellKnown}).
 *
 * <p>All model classes follow Go's JSON: fields that are pointers in OpenKruise are boxed and omitted when null;
 * non-pointer {@code omitempty} numbers and booleans are primitives omitted when zero/false; fields not known to
 * this model are kept ({@link dev.kruisevertx.api.common.UnknownFields}) so objects round-trip unchanged.
 */
package dev.kruisevertx.api.common;
