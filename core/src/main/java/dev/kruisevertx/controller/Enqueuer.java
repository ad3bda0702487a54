package dev.kruisevertx.controller;

import java.time.Duration;

/** What an event mapper may do with the keys it derives from a cache event. */
public interface Enqueuer {
    void add(Request request);

    void addAfter(Request request, Duration delay);
}
