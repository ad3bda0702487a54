package dev.kruisevertx.api.common;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The {@code enum:} of a string field in the generated CRD, for the few fields whose OpenKruise CRD lists one
 * (kubebuilder {@code validation:Enum}); most policy fields have none, and then neither does ours. Applied by the
 * CRD post-processing in {@code dev.kruisevertx.api.crd}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface SchemaEnum {
    String[] value();
}
