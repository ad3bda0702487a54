package dev.kruisevertx.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The part every controller definition shares: its name and primary kind, given once to the constructor, so a
 * controller only writes what differs ({@link #create}, and any of the defaults it changes).
 */
public abstract class NamedControllerDefinition implements ControllerDefinition {
    private final String name;
    private final Class<? extends HasMetadata> primaryType;

    protected NamedControllerDefinition(String name, Class<? extends HasMetadata> primaryType) {
        this.name = name;
        this.primaryType = primaryType;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public Class<? extends HasMetadata> primaryType() {
        return primaryType;
    }
}
