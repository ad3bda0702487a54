/**
 * SidecarSet logic shared by the webhook (defaulting, pod injection) and the controller: hashes, and later the
 * injection and upgrade decisions.
 */
package dev.kruisevertx.sidecarset;
