package dev.kruisevertx.bus;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyFailure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-address event-bus counters fed by Vert.x's metrics SPI (sent, received, delivered, discarded, pending)
 * plus handler time measured by an inbound interceptor. Exposed as Prometheus metrics and as JSON on
 * {@code /debug/eventbus}, so a stuck or slow controller shows up as a growing pending count on its address.
 *
 * <p>Reply addresses are generated per request; they are folded into one {@code __vertx.reply} series so the
 * number of series stays bounded.
 */
public final class EventBusMetrics implements io.vertx.core.spi.metrics.EventBusMetrics<EventBusMetrics.AddressStats> {

    /** Counters of one address. */
    public static final class AddressStats {
        final String address;
        final AtomicLong handlers = new AtomicLong();
        final AtomicLong pending = new AtomicLong();
        final Counter sent;
        final Counter published;
        final Counter received;
        final Counter delivered;
        final Counter discarded;
        final Counter replyFailures;
        final Timer handlerTime;

        AddressStats(MeterRegistry registry, String address) {
            this.address = address;
            sent = counter(registry, "kruise_eventbus_messages_sent", address, "Messages sent (point to point)");
            published = counter(registry, "kruise_eventbus_messages_published", address, "Messages published");
            received = counter(registry, "kruise_eventbus_messages_received", address, "Messages received");
            delivered = counter(registry, "kruise_eventbus_messages_delivered", address, "Messages handed to a handler");
            discarded = counter(registry, "kruise_eventbus_messages_discarded", address, "Messages discarded (consumer buffer full or closed)");
            replyFailures = counter(registry, "kruise_eventbus_reply_failures", address, "Failed replies");
            handlerTime = Timer.builder("kruise_eventbus_handler").description("Time spent in handlers")
                    .tag("address", address).register(registry);
            Gauge.builder("kruise_eventbus_messages_pending", pending, AtomicLong::get)
                    .description("Messages scheduled to a handler and not yet delivered")
                    .tag("address", address).register(registry);
            Gauge.builder("kruise_eventbus_handlers", handlers, AtomicLong::get)
                    .description("Registered handlers").tag("address", address).register(registry);
        }

        private static Counter counter(MeterRegistry registry, String name, String address, String help) {
            return Counter.builder(name).description(help).tag("address", address).register(registry);
        }

        Map<String, Object> toMap() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("handlers", handlers.get());
            out.put("pending", pending.get());
            out.put("sent", (long) sent.count());
            out.put("published", (long) published.count());
            out.put("received", (long) received.count());
            out.put("delivered", (long) delivered.count());
            out.put("discarded", (long) discarded.count());
            out.put("replyFailures", (long) replyFailures.count());
            out.put("handlerCount", handlerTime.count());
            out.put("handlerTotalMillis", handlerTime.totalTime(TimeUnit.MILLISECONDS));
            out.put("handlerMaxMillis", handlerTime.max(TimeUnit.MILLISECONDS));
            return out;
        }
    }

    private final MeterRegistry registry;
    private final Map<String, AddressStats> stats = new ConcurrentHashMap<>();

    public EventBusMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    static String series(String address) {
        return address.startsWith("__vertx.reply") ? "__vertx.reply" : address;
    }

    AddressStats stats(String address) {
        return stats.computeIfAbsent(series(address), a -> new AddressStats(registry, a));
    }

    /** Called by the inbound interceptor with the time a handler took. */
    void handled(String address, long nanos) {
        stats(address).handlerTime.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The JSON view served on {@code /debug/eventbus}: address to counters, sorted by address. */
    public Map<String, Map<String, Object>> snapshot() {
        Map<String, Map<String, Object>> out = new TreeMap<>();
        stats.forEach((address, s) -> out.put(address, s.toMap()));
        return out;
    }

    @Override
    public AddressStats handlerRegistered(String address) {
        AddressStats s = stats(address);
        s.handlers.incrementAndGet();
        return s;
    }

    @Override
    public void handlerUnregistered(AddressStats handler) {
        if (handler != null) {
            handler.handlers.decrementAndGet();
        }
    }

    @Override
    public void scheduleMessage(AddressStats handler, boolean local) {
        if (handler != null) {
            handler.pending.incrementAndGet();
        }
    }

    @Override
    public void discardMessage(AddressStats handler, boolean local, Message<?> msg) {
        if (handler != null) {
            handler.pending.decrementAndGet();
            handler.discarded.increment();
        }
    }

    @Override
    public void messageDelivered(AddressStats handler, boolean local) {
        if (handler != null) {
            handler.pending.decrementAndGet();
            handler.delivered.increment();
        }
    }

    @Override
    public void messageSent(String address, boolean publish, boolean local, boolean remote) {
        AddressStats s = stats(address);
        (publish ? s.published : s.sent).increment();
    }

    @Override
    public void messageReceived(String address, boolean publish, boolean local, int handlers) {
        stats(address).received.increment();
    }

    @Override
    public void replyFailure(String address, ReplyFailure failure) {
        stats(address).replyFailures.increment();
    }
}
