package dev.kruisevertx.image;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * Writes the image puller's Events through the spam filter (kruise-daemon's recorder: 25 per object,
 * then one per 5 minutes). Best effort: an Event the filter drops or the API server refuses is logged at debug level
 * and never fails the pull. Blocking (one create per Event): call from a worker thread, never an event loop.
 */
public final class PullEventRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(PullEventRecorder.class);

    private final KubernetesClient client;
    private final EventSpamFilter filter;
    private final Clock clock;

    public PullEventRecorder(KubernetesClient client, EventSpamFilter filter, Clock clock) {
        this.client = client;
        this.filter = filter;
        this.clock = clock;
    }

    /**
     * @param host the node whose puller reports them
     * @return how many of the Events were written
     */
    public int record(String host, List<PullEvents.PullEvent> events) {
        int written = 0;
        for (PullEvents.PullEvent e : events) {
            if (!filter.allow(EventSpamFilter.key(PullEvents.COMPONENT, host, e.on()))) {
                LOG.debug("event {} on {} {} dropped by the spam filter", e.reason(), e.on().getKind(),
                        e.on().getName());
                continue;
            }
            io.fabric8.kubernetes.api.model.Event event = PullEvents.toEvent(e, host, clock.instant());
            try {
                client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
                written++;
            } catch (RuntimeException err) {
                LOG.debug("event {} on {} {} not recorded: {}", e.reason(), e.on().getKind(), e.on().getName(),
                        err.getMessage());
            }
        }
        return written;
    }
}
