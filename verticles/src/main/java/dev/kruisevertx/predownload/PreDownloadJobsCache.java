package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.cache.WatchCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The ImagePullJobs a workload controller reads for pre-download. Its informer starts on first use, and only when
 * the ImagePullJob CRD is served (OpenKruise disables pre-download without it): a workload controller must keep
 * working where the CRD is missing, so the kind is not among its required types. Pre-download waits until the
 * informer synced. {@link #ready()} may ask the API server and must run on a worker thread.
 */
public final class PreDownloadJobsCache {
    private static final Logger LOG = LoggerFactory.getLogger(PreDownloadJobsCache.class);
    static final Duration RECHECK_MISSING_CRD = Duration.ofMinutes(1);

    private final WatchCache cache;
    private final Clock clock;
    private final String controller;
    private volatile boolean started;
    private volatile Instant missingSince;

    public PreDownloadJobsCache(WatchCache cache, Clock clock, String controller) {
        this.cache = cache;
        this.clock = clock;
        this.controller = controller;
    }

    /** Whether the jobs can be read: the CRD is served and the informer synced. Blocking the first time. */
    public synchronized boolean ready() {
        if (started) {
            return cache.resource(ImagePullJob.class).hasSynced();
        }
        Instant now = clock.instant();
        if (missingSince != null && Duration.between(missingSince, now).compareTo(RECHECK_MISSING_CRD) < 0) {
            return false;
        }
        boolean served;
        try {
            served = cache.isServed(ImagePullJob.class);
        } catch (RuntimeException e) {
            LOG.info("{}: could not tell whether ImagePullJobs are served ({}); image pre-download waits", controller,
                    e.getClass().getSimpleName());
            missingSince = now;
            return false;
        }
        if (!served) {
            if (missingSince == null) {
                LOG.info("{}: the ImagePullJob CRD is not installed; no image pre-download", controller);
            }
            missingSince = now;
            return false;
        }
        cache.start(ImagePullJob.class);
        started = true;
        return cache.resource(ImagePullJob.class).hasSynced();
    }

    /** The jobs the owner controls; empty before {@link #ready()}. */
    public List<ImagePullJob> controlledBy(String ownerUid) {
        return started ? cache.resource(ImagePullJob.class).controlledBy(ownerUid) : List.of();
    }
}
