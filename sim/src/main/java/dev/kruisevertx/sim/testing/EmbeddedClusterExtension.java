package dev.kruisevertx.sim.testing;

import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.function.Supplier;

/**
 * One embedded cluster per test class. Use {@code @ExtendWith(EmbeddedClusterExtension.class)} for the defaults
 * or {@code @RegisterExtension static EmbeddedClusterExtension cluster = new EmbeddedClusterExtension(options)};
 * test methods and constructors may take {@link EmbeddedCluster}, {@link KubernetesClient}, {@link ClusterFixture}
 * or {@link Vertx} parameters.
 */
public final class EmbeddedClusterExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private final Supplier<EmbeddedClusterOptions> options;
    private ClusterFixture fixture;

    public EmbeddedClusterExtension() {
        this(() -> new EmbeddedClusterOptions().setCrdDirectory(ClusterFixture.findCrdDirectory()));
    }

    public EmbeddedClusterExtension(EmbeddedClusterOptions options) {
        this(() -> options);
    }

    private EmbeddedClusterExtension(Supplier<EmbeddedClusterOptions> options) {
        this.options = options;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        fixture = ClusterFixture.start(options.get());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (fixture != null) {
            fixture.close();
            fixture = null;
        }
    }

    public ClusterFixture fixture() {
        return fixture;
    }

    public EmbeddedCluster cluster() {
        return fixture.cluster();
    }

    public KubernetesClient client() {
        return fixture.client();
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        return t == EmbeddedCluster.class || t == KubernetesClient.class || t == ClusterFixture.class || t == Vertx.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        if (fixture == null) {
            beforeAll(e);
        }
        if (t == EmbeddedCluster.class) {
            return fixture.cluster();
        }
        if (t == KubernetesClient.class) {
            return fixture.client();
        }
        if (t == Vertx.class) {
            return fixture.vertx();
        }
        return fixture;
    }
}
