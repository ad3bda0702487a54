package dev.kruisevertx.api.crd;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.SchemaEnum;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.SchemalessBase;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.CustomResource;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Brings a CRD written by fabric8's generator to the shape controller-gen gives OpenKruise's CRDs:
 * <ul>
 *   <li>printer columns in the order they are declared on the class (the generator sorts them by JSON path, but
 *       kubectl prints them in CRD order), without the redundant {@code priority: 0};</li>
 *   <li>{@code names.listKind};</li>
 *   <li>{@code apiVersion}, {@code kind} and {@code metadata} in the root schema;</li>
 *   <li>label selectors marked {@code x-kubernetes-map-type: atomic} with {@code key} and {@code operator} required
 *       in their match expressions;</li>
 *   <li>{@code format: int32}/{@code int64} on integers, from the Java field types, and formats declared with
 *       {@link SchemaFormat}.</li>
 * </ul>
 * Works on the JSON tree so it needs nothing from the generator at run time.
 */
final class CrdPostProcessor {
    private static final ObjectMapper INTROSPECTION = new ObjectMapper();
    private static final int MAX_DEPTH = 64;

    private CrdPostProcessor() {
    }

    static JsonNode process(JsonNode generated, List<Class<? extends CustomResource<?, ?>>> versions) {
        ObjectNode crd = generated.deepCopy();
        ObjectNode names = (ObjectNode) crd.path("spec").path("names");
        if (!names.has("listKind")) {
            names.put("listKind", names.path("kind").asText() + "List");
        }
        for (JsonNode v : crd.path("spec").path("versions")) {
            ObjectNode version = (ObjectNode) v;
            Class<? extends CustomResource<?, ?>> kind = classFor(version.path("name").asText(), versions);
            orderPrinterColumns(version, kind);
            JsonNode root = version.path("schema").path("openAPIV3Schema");
            if (root instanceof ObjectNode rootSchema) {
                addTypeMeta(rootSchema);
                JavaType resource = INTROSPECTION.getTypeFactory().constructType(kind);
                JavaType base = resource.findSuperType(CustomResource.class);
                ObjectNode props = (ObjectNode) rootSchema.path("properties");
                walk(props.path("spec"), base.containedType(0), 0);
                walk(props.path("status"), base.containedType(1), 0);
                markSelectorsAtomic(rootSchema);
            }
        }
        return crd;
    }

    private static Class<? extends CustomResource<?, ?>> classFor(String version,
            List<Class<? extends CustomResource<?, ?>>> versions) {
        for (Class<? extends CustomResource<?, ?>> kind : versions) {
            if (HasMetadata.getVersion(kind).equals(version)) {
                return kind;
            }
        }
        throw new IllegalStateException("generated CRD has version " + version + " but no class in KruiseCrds.KINDS "
                + "declares it");
    }

    private static void orderPrinterColumns(ObjectNode version, Class<?> kind) {
        JsonNode columns = version.path("additionalPrinterColumns");
        if (!columns.isArray()) {
            return;
        }
        List<JsonNode> remaining = new ArrayList<>();
        columns.forEach(remaining::add);
        ArrayNode ordered = JsonNodeFactory.instance.arrayNode();
        for (AdditionalPrinterColumn declared : kind.getAnnotationsByType(AdditionalPrinterColumn.class)) {
            for (Iterator<JsonNode> it = remaining.iterator(); it.hasNext(); ) {
                JsonNode c = it.next();
                if (c.path("name").asText().equals(declared.name())
                        && c.path("jsonPath").asText().equals(declared.jsonPath())) {
                    ordered.add(c);
                    it.remove();
                    break;
                }
            }
        }
        // Columns declared another way (e.g. @PrinterColumn on a field) keep the generator's order, after these.
        remaining.forEach(ordered::add);
        for (JsonNode c : ordered) {
            if (c.path("priority").asInt(0) == 0) {
                ((ObjectNode) c).remove("priority");
            }
        }
        version.set("additionalPrinterColumns", ordered);
    }

    private static void addTypeMeta(ObjectNode root) {
        ObjectNode props = root.has("properties") ? (ObjectNode) root.get("properties") : root.putObject("properties");
        if (!props.has("apiVersion")) {
            props.putObject("apiVersion").put("type", "string");
        }
        if (!props.has("kind")) {
            props.putObject("kind").put("type", "string");
        }
        if (!props.has("metadata")) {
            props.putObject("metadata").put("type", "object");
        }
        sortProperties(root);
    }

    private static void sortProperties(ObjectNode schema) {
        JsonNode props = schema.get("properties");
        if (props instanceof ObjectNode p) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            p.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue()));
            p.removeAll();
            p.setAll(sorted);
        }
    }

    /** Adds integer and declared formats by walking the schema alongside the Java type it was generated from. */
    private static void walk(JsonNode node, JavaType type, int depth) {
        if (!(node instanceof ObjectNode schema) || type == null || depth > MAX_DEPTH) {
            return;
        }
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !schema.has("properties")
                || schema.has("x-kubernetes-int-or-string")) {
            return;
        }
        Class<?> raw = type.getRawClass();
        if (raw == IntOrString.class || raw == Quantity.class) {
            return;
        }
        if (type.isCollectionLikeType() || type.isArrayType()) {
            walk(schema.get("items"), type.getContentType(), depth + 1);
            return;
        }
        if (type.isMapLikeType()) {
            walk(schema.get("additionalProperties"), type.getContentType(), depth + 1);
            return;
        }
        if ("integer".equals(schema.path("type").asText()) && !schema.has("format")) {
            if (raw == int.class || raw == Integer.class || raw == short.class || raw == Short.class) {
                schema.put("format", "int32");
            } else if (raw == long.class || raw == Long.class) {
                schema.put("format", "int64");
            }
            return;
        }
        JsonNode props = schema.get("properties");
        if (!(props instanceof ObjectNode properties)) {
            return;
        }
        if (raw.isAnnotationPresent(SchemalessBase.class)) {
            keepOnlyDeclared(schema, properties, raw);
        }
        BeanDescription bean = INTROSPECTION.getDeserializationConfig().introspect(type);
        for (BeanPropertyDefinition p : bean.findProperties()) {
            JsonNode child = properties.get(p.getName());
            if (child == null) {
                continue;
            }
            SchemaFormat format = annotation(p, SchemaFormat.class);
            if (format != null && child instanceof ObjectNode c) {
                // On a map the format is its values' (OpenKruise's map[string]metav1.Time), else the field's own.
                ObjectNode target = p.getPrimaryType().isMapLikeType() && c.get("additionalProperties") instanceof ObjectNode v
                        ? v : c;
                if (!target.has("format")) {
                    target.put("format", format.value());
                }
            }
            SchemaEnum values = annotation(p, SchemaEnum.class);
            if (values != null && child instanceof ObjectNode c && !c.has("enum")) {
                ArrayNode list = c.putArray("enum");
                for (String v : values.value()) {
                    list.add(v);
                }
            }
            walk(child, p.getPrimaryType(), depth + 1);
        }
    }

    /** The schema of a {@link SchemalessBase} class: its own fields typed, its superclass's fields preserved. */
    private static void keepOnlyDeclared(ObjectNode schema, ObjectNode properties, Class<?> raw) {
        java.util.Set<String> own = new java.util.HashSet<>();
        for (BeanPropertyDefinition p : INTROSPECTION.getDeserializationConfig()
                .introspect(INTROSPECTION.constructType(raw)).findProperties()) {
            AnnotatedMember field = p.getField();
            if (field != null && field.getDeclaringClass() == raw) {
                own.add(p.getName());
            }
        }
        properties.retain(own);
        schema.remove("required");
        schema.put("x-kubernetes-preserve-unknown-fields", true);
    }

    private static <A extends java.lang.annotation.Annotation> A annotation(BeanPropertyDefinition p, Class<A> type) {
        for (AnnotatedMember m : new AnnotatedMember[] {p.getField(), p.getGetter(), p.getSetter()}) {
            if (m != null && m.getAnnotation(type) != null) {
                return m.getAnnotation(type);
            }
        }
        return null;
    }

    /** Every schema with exactly the two LabelSelector properties is a label selector. */
    private static void markSelectorsAtomic(JsonNode node) {
        if (node instanceof ObjectNode schema) {
            JsonNode props = schema.get("properties");
            if (props != null && props.size() == 2 && props.has("matchLabels") && props.has("matchExpressions")
                    && "object".equals(schema.path("type").asText())) {
                schema.put("x-kubernetes-map-type", "atomic");
                JsonNode items = props.path("matchExpressions").path("items");
                if (items instanceof ObjectNode requirement && !requirement.has("required")) {
                    requirement.putArray("required").add("key").add("operator");
                }
            }
        }
        if (node != null && node.isContainerNode()) {
            node.forEach(CrdPostProcessor::markSelectorsAtomic);
        }
    }
}
