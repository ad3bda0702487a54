package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bytes Go's {@code encoding/json} writes for a value of a Go struct type that was decoded from a JSON tree:
 * struct fields in declaration order, {@code omitempty} dropping false, 0, "" and empty or nil slices, maps and
 * pointers (never struct values), unknown keys dropped (Go's decoder ignores them), map keys sorted by their bytes,
 * {@code resource.Quantity} in its Go form ({@link GoQuantity}), {@code IntOrString} as a number or a string, and
 * strings escaped as Go does (HTML characters, U+2028/U+2029, {@code \b} and {@code \f} since Go 1.22).
 *
 * <p>Hashes OpenKruise computes over {@code json.Marshal} output (the SidecarSet hash) must be reproduced byte for
 * byte, which sorted-key JSON of this project's model cannot do; {@link #CONTAINER} and friends describe the Go
 * types of Kubernetes v0.32 (what OpenKruise v1.9 builds with).
 */
public final class GoJson {
    private GoJson() {
    }

    public sealed interface Type permits Str, Bool, Int, Ptr, Struct, Slice, MapOf, Quantity, IntOrString, Time, Raw {
    }

    /** {@code metav1.Time} as a struct field: never omitted, {@code null} when zero, else the stored text. */
    public record Time() implements Type {
    }

    /** A value whose Go form is the JSON as written (types this encoder does not model): only nil is empty. */
    public record Raw() implements Type {
    }

    public record Str() implements Type {
    }

    public record Bool() implements Type {
    }

    public record Int() implements Type {
    }

    /** A pointer: nil is omitted (omitempty) or {@code null}; a set pointer is written even when it points to zero. */
    public record Ptr(Type elem) implements Type {
    }

    public record Struct(List<Field> fields, boolean keepUnknown) implements Type {
        public Struct(List<Field> fields) {
            this(fields, false);
        }
    }

    public record Slice(Type elem) implements Type {
    }

    public record MapOf(Type elem) implements Type {
    }

    /** {@code resource.Quantity}; {@code roundUpMilli} for resource lists, which Kubernetes defaulting rounds up. */
    public record Quantity(boolean roundUpMilli) implements Type {
    }

    public record IntOrString() implements Type {
    }

    /** One struct field; a null name is an embedded ({@code json:",inline"}) struct whose fields are flattened. */
    public record Field(String name, Type type, boolean omitEmpty) {
    }

    public static final Type STR = new Str();
    public static final Type BOOL = new Bool();
    public static final Type INT = new Int();

    public static Field f(String name, Type type) {
        return new Field(name, type, false);
    }

    public static Field o(String name, Type type) {
        return new Field(name, type, true);
    }

    public static Field inline(Struct type) {
        return new Field(null, type, false);
    }

    public static Struct struct(Field... fields) {
        return new Struct(List.of(fields));
    }

    public static Ptr ptr(Type t) {
        return new Ptr(t);
    }

    public static Slice slice(Type t) {
        return new Slice(t);
    }

    // Kubernetes core/v1 types (k8s.io/api v0.32), fields in declaration order with their json tags.
    public static final Struct LOCAL_OBJECT_REFERENCE = struct(o("name", STR));
    public static final Struct OBJECT_FIELD_SELECTOR = struct(o("apiVersion", STR), f("fieldPath", STR));
    public static final Struct RESOURCE_FIELD_SELECTOR = struct(o("containerName", STR), f("resource", STR),
            o("divisor", new Quantity(false)));
    public static final Struct KEY_SELECTOR = struct(inline(LOCAL_OBJECT_REFERENCE), f("key", STR), o("optional", ptr(BOOL)));
    public static final Struct ENV_VAR_SOURCE = struct(o("fieldRef", ptr(OBJECT_FIELD_SELECTOR)),
            o("resourceFieldRef", ptr(RESOURCE_FIELD_SELECTOR)), o("configMapKeyRef", ptr(KEY_SELECTOR)),
            o("secretKeyRef", ptr(KEY_SELECTOR)));
    public static final Struct ENV_VAR = struct(f("name", STR), o("value", STR), o("valueFrom", ptr(ENV_VAR_SOURCE)));
    public static final Struct ENV_SOURCE_REF = struct(inline(LOCAL_OBJECT_REFERENCE), o("optional", ptr(BOOL)));
    public static final Struct ENV_FROM_SOURCE = struct(o("prefix", STR), o("configMapRef", ptr(ENV_SOURCE_REF)),
            o("secretRef", ptr(ENV_SOURCE_REF)));
    public static final Struct CONTAINER_PORT = struct(o("name", STR), o("hostPort", INT), f("containerPort", INT),
            o("protocol", STR), o("hostIP", STR));
    public static final Struct RESOURCE_REQUIREMENTS = struct(o("limits", new MapOf(new Quantity(true))),
            o("requests", new MapOf(new Quantity(true))),
            o("claims", slice(struct(f("name", STR), o("request", STR)))));
    public static final Struct RESIZE_POLICY = struct(f("resourceName", STR), f("restartPolicy", STR));
    public static final Struct VOLUME_MOUNT = struct(f("name", STR), o("readOnly", BOOL), o("recursiveReadOnly", ptr(STR)),
            f("mountPath", STR), o("subPath", STR), o("mountPropagation", ptr(STR)), o("subPathExpr", STR));
    public static final Struct VOLUME_DEVICE = struct(f("name", STR), f("devicePath", STR));
    public static final Struct EXEC_ACTION = struct(o("command", slice(STR)));
    public static final Struct HTTP_GET_ACTION = struct(o("path", STR), f("port", new IntOrString()), o("host", STR),
            o("scheme", STR), o("httpHeaders", slice(struct(f("name", STR), f("value", STR)))));
    public static final Struct TCP_SOCKET_ACTION = struct(f("port", new IntOrString()), o("host", STR));
    public static final Struct GRPC_ACTION = struct(f("port", INT), f("service", ptr(STR)));
    public static final Struct PROBE = struct(inline(struct(o("exec", ptr(EXEC_ACTION)), o("httpGet", ptr(HTTP_GET_ACTION)),
                    o("tcpSocket", ptr(TCP_SOCKET_ACTION)), o("grpc", ptr(GRPC_ACTION)))),
            o("initialDelaySeconds", INT), o("timeoutSeconds", INT), o("periodSeconds", INT),
            o("successThreshold", INT), o("failureThreshold", INT), o("terminationGracePeriodSeconds", ptr(INT)));
    public static final Struct LIFECYCLE_HANDLER = struct(o("exec", ptr(EXEC_ACTION)), o("httpGet", ptr(HTTP_GET_ACTION)),
            o("tcpSocket", ptr(TCP_SOCKET_ACTION)), o("sleep", ptr(struct(f("seconds", INT)))));
    public static final Struct LIFECYCLE = struct(o("postStart", ptr(LIFECYCLE_HANDLER)), o("preStop", ptr(LIFECYCLE_HANDLER)));
    public static final Struct PROFILE = struct(f("type", STR), o("localhostProfile", ptr(STR)));
    public static final Struct SECURITY_CONTEXT = struct(
            o("capabilities", ptr(struct(o("add", slice(STR)), o("drop", slice(STR))))),
            o("privileged", ptr(BOOL)),
            o("seLinuxOptions", ptr(struct(o("user", STR), o("role", STR), o("type", STR), o("level", STR)))),
            o("windowsOptions", ptr(struct(o("gmsaCredentialSpecName", ptr(STR)), o("gmsaCredentialSpec", ptr(STR)),
                    o("runAsUserName", ptr(STR)), o("hostProcess", ptr(BOOL))))),
            o("runAsUser", ptr(INT)), o("runAsGroup", ptr(INT)), o("runAsNonRoot", ptr(BOOL)),
            o("readOnlyRootFilesystem", ptr(BOOL)), o("allowPrivilegeEscalation", ptr(BOOL)),
            o("procMount", ptr(STR)), o("seccompProfile", ptr(PROFILE)), o("appArmorProfile", ptr(PROFILE)));
    public static final Struct CONTAINER = container(RESOURCE_REQUIREMENTS);

    /** Kubernetes' Container with the given type of its {@code resources} field. */
    public static Struct container(Struct resources) {
        return struct(f("name", STR), o("image", STR), o("command", slice(STR)),
            o("args", slice(STR)), o("workingDir", STR), o("ports", slice(CONTAINER_PORT)),
            o("envFrom", slice(ENV_FROM_SOURCE)), o("env", slice(ENV_VAR)), o("resources", resources),
            o("resizePolicy", slice(RESIZE_POLICY)), o("restartPolicy", ptr(STR)),
            o("volumeMounts", slice(VOLUME_MOUNT)), o("volumeDevices", slice(VOLUME_DEVICE)),
            o("livenessProbe", ptr(PROBE)), o("readinessProbe", ptr(PROBE)), o("startupProbe", ptr(PROBE)),
            o("lifecycle", ptr(LIFECYCLE)), o("terminationMessagePath", STR), o("terminationMessagePolicy", STR),
            o("imagePullPolicy", STR), o("securityContext", ptr(SECURITY_CONTEXT)), o("stdin", BOOL),
            o("stdinOnce", BOOL), o("tty", BOOL));
    }

    // OpenKruise apps/v1beta1 SidecarContainer (v1.9): the embedded Container, then the SidecarSet fields.
    public static final Struct SHARE_VOLUME_POLICY = struct(o("type", STR));
    public static final Struct SIDECAR_CONTAINER = struct(inline(CONTAINER), o("podInjectPolicy", STR),
            o("upgradeStrategy", struct(o("upgradeType", STR), o("hotUpgradeEmptyImage", STR))),
            o("shareVolumePolicy", SHARE_VOLUME_POLICY),
            o("shareVolumeDevicePolicy", ptr(SHARE_VOLUME_POLICY)),
            o("transferEnv", slice(struct(o("sourceContainerName", STR),
                    o("sourceContainerNameFrom", ptr(struct(o("fieldRef", ptr(OBJECT_FIELD_SELECTOR))))),
                    o("envName", STR), o("envNames", slice(STR))))),
            o("resourcesPolicy", ptr(struct(f("targetContainersMode", STR), o("targetContainersNameRegex", STR),
                    f("resourcesExpr", struct(o("limits", ptr(struct(o("cpu", STR), o("memory", STR)))),
                            o("requests", ptr(struct(o("cpu", STR), o("memory", STR))))))))));

    /** Go's encoding of {@code value} as a value of {@code type} (a missing or null node is Go's zero value). */
    public static String encode(Type type, JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(type, value, out);
        return out.toString();
    }

    private static boolean absent(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode();
    }

    private static void write(Type type, JsonNode n, StringBuilder out) {
        if (type instanceof Str) {
            quote(absent(n) ? "" : n.asText(), out);
        } else if (type instanceof Bool) {
            out.append(!absent(n) && n.asBoolean());
        } else if (type instanceof Int) {
            out.append(absent(n) ? 0 : n.asLong());
        } else if (type instanceof Ptr p) {
            if (absent(n)) {
                out.append("null");
            } else {
                write(p.elem(), n, out);
            }
        } else if (type instanceof Struct s) {
            out.append('{');
            boolean wrote = writeFields(s, n, out, true);
            if (s.keepUnknown() && !absent(n) && n.isObject()) {
                writeUnknown(s, n, out, !wrote);
            }
            out.append('}');
        } else if (type instanceof Slice s) {
            writeSlice(s, n, out);
        } else if (type instanceof MapOf m) {
            writeMap(m, n, out);
        } else if (type instanceof Quantity q) {
            quote(absent(n) ? "0" : GoQuantity.marshal(n.asText(), q.roundUpMilli()), out);
        } else if (type instanceof Time || type instanceof Raw) {
            out.append(absent(n) ? "null" : n.toString());
        } else if (absent(n)) {
            out.append(0);
        } else if (n.isNumber()) {
            out.append(n.asLong());
        } else {
            quote(n.asText(), out);
        }
    }

    private static void writeSlice(Slice s, JsonNode n, StringBuilder out) {
        if (absent(n) || !n.isArray()) {
            out.append("null");
            return;
        }
        out.append('[');
        for (int i = 0; i < n.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            write(s.elem(), n.get(i), out);
        }
        out.append(']');
    }

    private static void writeMap(MapOf m, JsonNode n, StringBuilder out) {
        if (absent(n) || !n.isObject()) {
            out.append("null");
            return;
        }
        List<String> keys = new ArrayList<>();
        n.fieldNames().forEachRemaining(keys::add);
        keys.sort(GoJson::compareBytes);
        out.append('{');
        boolean first = true;
        for (String k : keys) {
            if (!first) {
                out.append(',');
            }
            first = false;
            quote(k, out);
            out.append(':');
            write(m.elem(), n.get(k), out);
        }
        out.append('}');
    }

    /** Writes the fields of a struct; returns whether anything was written (for the commas of inline structs). */
    private static boolean writeFields(Struct s, JsonNode n, StringBuilder out, boolean first) {
        for (Field field : s.fields()) {
            if (field.name() == null) {
                first = !writeFields((Struct) field.type(), n, out, first) && first;
                continue;
            }
            JsonNode v = absent(n) || !n.isObject() ? null : n.get(field.name());
            if (field.omitEmpty() && isEmpty(field.type(), v)) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            quote(field.name(), out);
            out.append(':');
            write(field.type(), v, out);
        }
        return !first;
    }

    /**
     * Keys of {@code n} that {@code s} does not declare, as written (the untyped tail of a struct that keeps them):
     * for types this encoder models only in part, so that nothing a template holds is lost.
     */
    private static void writeUnknown(Struct s, JsonNode n, StringBuilder out, boolean first) {
        java.util.Set<String> known = new java.util.HashSet<>();
        collectNames(s, known);
        for (java.util.Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (known.contains(k)) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            quote(k, out);
            out.append(':').append(n.get(k).toString());
        }
    }

    private static void collectNames(Struct s, java.util.Set<String> into) {
        for (Field field : s.fields()) {
            if (field.name() == null) {
                collectNames((Struct) field.type(), into);
            } else {
                into.add(field.name());
            }
        }
    }

    /** Go's omitempty test: false, 0, "", nil pointer, empty slice or map; a struct value is never empty. */
    private static boolean isEmpty(Type type, JsonNode n) {
        if (type instanceof Str) {
            return absent(n) || n.asText().isEmpty();
        } else if (type instanceof Bool) {
            return absent(n) || !n.asBoolean();
        } else if (type instanceof Int) {
            return absent(n) || n.asLong() == 0;
        } else if (type instanceof Ptr) {
            return absent(n);
        } else if (type instanceof Slice) {
            return absent(n) || !n.isArray() || n.isEmpty();
        } else if (type instanceof MapOf) {
            return absent(n) || !n.isObject() || n.isEmpty();
        } else if (type instanceof Raw) {
            return absent(n);
        }
        return false;
    }

    /** Go sorts map keys as byte strings (UTF-8), which differs from Java's UTF-16 order above U+FFFF. */
    public static int compareBytes(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** A JSON string as Go's encoder writes it with HTML escaping on (json.Marshal's default). */
    public static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '<', '>', '&', '\u2028', '\u2029' -> unicode(c, out);
                default -> {
                    if (c < 0x20) {
                        unicode(c, out);
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        // Go replaces invalid UTF-8 (what a lone surrogate becomes) with U+FFFD.
                        out.append('\ufffd');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void unicode(char c, StringBuilder out) {
        out.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
    }
}
