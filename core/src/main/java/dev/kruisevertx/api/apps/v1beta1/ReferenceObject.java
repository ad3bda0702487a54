package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.common.UnknownFields;

/** A secret a NodeImage tag is pulled with: namespace/name, and mode {@code batch} for the copies an ImagePullJob makes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ReferenceObject extends UnknownFields {
    private String namespace;
    private String name;
    private String mode;

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public static final String MODE_BATCH = "batch";

    public ReferenceObject() {
    }

    public ReferenceObject(String namespace, String name) {
        this.namespace = namespace;
        this.name = name;
    }

    /** {@code namespace/name}, or the name alone without a namespace (OpenKruise's String()). */
    @Override
    public String toString() {
        return namespace == null || namespace.isEmpty() ? String.valueOf(name) : namespace + "/" + name;
    }

    /** OpenKruise's ParseReferenceObject: {@code name} or {@code namespace/name}. */
    public static ReferenceObject parse(String s) {
        if (s == null || s.isEmpty()) {
            return new ReferenceObject();
        }
        int slash = s.indexOf('/');
        if (slash < 0) {
            return new ReferenceObject(null, s);
        }
        int next = s.indexOf('/', slash + 1);
        return new ReferenceObject(s.substring(0, slash), s.substring(slash + 1, next < 0 ? s.length() : next));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReferenceObject r && java.util.Objects.equals(namespace, r.namespace)
                && java.util.Objects.equals(name, r.name) && java.util.Objects.equals(mode, r.mode);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(namespace, name, mode);
    }
}
