/**
 * Small read-only pod helpers (readiness, availability, owners, deletion cost, label selectors, specified-delete),
 * condition editing on owned copies, the shared KruisePodReady gate, and JSON patches from a pod to its changed copy.
 */
package dev.kruisevertx.podutil;
