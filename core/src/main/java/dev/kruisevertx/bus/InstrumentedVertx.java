package dev.kruisevertx.bus;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.VertxMetrics;

/**
 * Builds the process's Vert.x instance with event-bus metrics wired in through Vert.x's metrics SPI, plus an
 * inbound interceptor that times handlers.
 */
public final class InstrumentedVertx {
    private InstrumentedVertx() {
    }

    public record Instrumented(Vertx vertx, EventBusMetrics eventBusMetrics) {
    }

    public static Instrumented create(VertxOptions options, MeterRegistry registry) {
        EventBusMetrics busMetrics = new EventBusMetrics(registry);
        VertxMetricsFactory factory = vertxOptions -> new VertxMetrics() {
            @Override
            public io.vertx.core.spi.metrics.EventBusMetrics<?> createEventBusMetrics() {
                return busMetrics;
            }
        };
        VertxOptions withMetrics = new VertxOptions(options).setMetricsOptions(new MetricsOptions().setEnabled(true));
        Vertx vertx = Vertx.builder().with(withMetrics).withMetrics(factory).build();
        vertx.eventBus().addInboundInterceptor(delivery -> {
            long started = System.nanoTime();
            try {
                delivery.next();
            } finally {
                busMetrics.handled(delivery.message().address(), System.nanoTime() - started);
            }
        });
        return new Instrumented(vertx, busMetrics);
    }
}
