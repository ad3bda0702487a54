package dev.kruisevertx.api.common;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a model class whose superclass is an embedded Kubernetes type that OpenKruise's CRD leaves schemaless (Go's
 * {@code corev1.Container `json:",inline"`} with {@code +kubebuilder:validation:Schemaless}): the CRD lists only the
 * fields the class itself declares and preserves every other field.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SchemalessBase {
}
