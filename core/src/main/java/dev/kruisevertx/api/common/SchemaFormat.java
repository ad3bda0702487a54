package dev.kruisevertx.api.common;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The OpenAPI {@code format} of a string field in the generated CRD (e.g. {@code date-time} for the RFC 3339 times
 * this model keeps as strings, like fabric8's own model). fabric8's generator has no such annotation; the CRD
 * post-processing in {@code dev.kruisevertx.api.crd} applies it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface SchemaFormat {
    String value();
}
