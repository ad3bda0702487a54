package dev.kruisevertx.kubectl;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;

/**
 * A namespaced apps.kruise.io/v1beta1 kind that the rollout commands read with its own status rules: the names,
 * aliases and paused field are data, only {@link #rolloutState} is the kind's.
 */
abstract class KruiseWorkloadKind implements WorkloadKind {
    private final String kind;
    private final List<String> aliases;
    private final ResourceDefinitionContext context;
    private final List<String> pausedPath;

    KruiseWorkloadKind(String kind, String plural, List<String> aliases, List<String> pausedPath) {
        this.kind = kind;
        this.aliases = List.copyOf(aliases);
        this.context = new ResourceDefinitionContext.Builder().withGroup("apps.kruise.io").withVersion("v1beta1")
                .withPlural(plural).withKind(kind).withNamespaced(true).build();
        this.pausedPath = List.copyOf(pausedPath);
    }

    @Override
    public final String kind() {
        return kind;
    }

    @Override
    public final List<String> aliases() {
        return aliases;
    }

    @Override
    public final ResourceDefinitionContext context() {
        return context;
    }

    @Override
    public final List<String> pausedPath() {
        return pausedPath;
    }
}
