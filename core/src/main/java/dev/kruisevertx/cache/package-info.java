/**
 * The process-wide watch cache: one shared fabric8 informer per kind, indexes, cache events and their
 * delivery over the Vert.x event bus.
 *
 * <h2>Read-only contract</h2>
 * Objects handed out by {@link dev.kruisevertx.cache.CachedResource} and carried by
 * {@link dev.kruisevertx.cache.CacheEvent} are the cached instances themselves, shared by every
 * controller and webhook handler; nothing is copied on read. Never modify them. To change an object,
 * build a copy ({@code new PodBuilder(cached)}) and write the change to the API server, preferably as a
 * patch; the cache learns the new state from its watch, and expectations
 * ({@code dev.kruisevertx.expectations}) keep controllers from acting before it has. Set
 * {@code KUBE_CACHE_MUTATION_DETECTOR=true} to have violations reported
 * ({@link dev.kruisevertx.cache.CacheMutationDetector}).
 */
package dev.kruisevertx.cache;
