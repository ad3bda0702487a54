package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.google.protobuf.ByteString;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Coordination;
import io.kubernetes.client.proto.V1Events;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code application/vnd.kubernetes.protobuf} bodies: the 4 bytes {@code k8s\0}, then a runtime.Unknown
 * whose typeMeta names the kind and whose raw bytes are that kind's message. The result is the JSON object the
 * store keeps, with apiVersion and kind from the envelope.
 */
public final class KubeProtobuf {
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final String META_PACKAGE = "k8s.io.apimachinery.pkg.apis.meta.v1";
    /**
     * The groups whose kinds the embedded API server stores or takes as request bodies (DeleteOptions, Eviction,
     * Scale). Not apiextensions: kubectl and client-go send CRDs as JSON, and JSONSchemaProps' JSON names ($ref,
     * x-kubernetes-*) are not in the field table, so a protobuf CRD gets a clear 415 rather than a wrong object.
     */
    private static final List<FileDescriptor> FILES = List.of(V1.getDescriptor(), V1Apps.getDescriptor(),
            V1Batch.getDescriptor(), V1Policy.getDescriptor(), V1Coordination.getDescriptor(), V1Events.getDescriptor(),
            V1Networking.getDescriptor(), V1Admissionregistration.getDescriptor(), V1Autoscaling.getDescriptor(),
            Meta.getDescriptor());
    private static final Map<String, Descriptor> BY_PACKAGE_AND_KIND = index();
    private static final ProtoJson JSON = new ProtoJson(ProtoFieldTable.instance());
    private static final Descriptor UNKNOWN = Runtime.Unknown.getDescriptor();
    private static final Descriptor TYPE_META = Runtime.TypeMeta.getDescriptor();
    private static final Descriptor RAW_EXTENSION = Runtime.RawExtension.getDescriptor();
    private static final Descriptor WATCH_EVENT = Meta.WatchEvent.getDescriptor();
    private static final JsonProto TO_PROTO = new JsonProto(ProtoFieldTable.instance());
    /** API group to the group part of its proto package (k8s.io.api.GROUP.VERSION). */
    private static final Map<String, String> PROTO_GROUPS = Map.of("", "core", "apps", "apps", "batch", "batch",
            "policy", "policy", "coordination.k8s.io", "coordination", "events.k8s.io", "events",
            "networking.k8s.io", "networking", "admissionregistration.k8s.io", "admissionregistration",
            "autoscaling", "autoscaling");

    private KubeProtobuf() {
    }

    /** Loads the descriptor index and converters (class initialisation); cheap once done. */
    static void warmUp() {
        TO_PROTO.hashCode();
        JSON.hashCode();
    }

    static boolean hasMagic(byte[] body) {
        if (body.length < MAGIC.length) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (body[i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /** The body as JSON; a 400 Status for a broken envelope, 415 for a kind this server has no message for. */
    public static ObjectNode decode(byte[] body) {
        if (!hasMagic(body)) {
            throw ApiException.badRequest("the protobuf request body does not start with the Kubernetes magic \"k8s\\x00\"");
        }
        // Parsed with DynamicMessage only, never the generated classes' parsers: client-java-proto's gencode predates
        // protobuf 22's fix for recursion in parsing (GHSA-h4h5-3hr4-j3g2); the runtime's own parser is not affected.
        DynamicMessage unknown;
        try {
            unknown = DynamicMessage.parseFrom(UNKNOWN, com.google.protobuf.ByteString.copyFrom(body, MAGIC.length,
                    body.length - MAGIC.length));
        } catch (InvalidProtocolBufferException e) {
            throw ApiException.badRequest("the protobuf request body is not a runtime.Unknown envelope: " + e.getMessage());
        }
        String contentEncoding = (String) unknown.getField(UNKNOWN.findFieldByName("contentEncoding"));
        if (!contentEncoding.isEmpty()) {
            throw new ApiException(415, "UnsupportedMediaType",
                    "protobuf content encoding \"" + contentEncoding + "\" is not supported");
        }
        Message typeMeta = (Message) unknown.getField(UNKNOWN.findFieldByName("typeMeta"));
        String apiVersion = (String) typeMeta.getField(TYPE_META.findFieldByName("apiVersion"));
        String kind = (String) typeMeta.getField(TYPE_META.findFieldByName("kind"));
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            throw ApiException.badRequest("the protobuf envelope names no apiVersion and kind");
        }
        Descriptor type = descriptor(apiVersion, kind);
        if (type == null) {
            throw new ApiException(415, "UnsupportedMediaType", "the embedded API server cannot read " + kind + " ("
                    + apiVersion + ") as " + MEDIA_TYPE + "; send it as application/json");
        }
        DynamicMessage message;
        try {
            message = DynamicMessage.parseFrom(type, (com.google.protobuf.ByteString) unknown.getField(
                    UNKNOWN.findFieldByName("raw")));
        } catch (InvalidProtocolBufferException e) {
            throw ApiException.badRequest("the protobuf request body is not a valid " + kind + ": " + e.getMessage());
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        out.setAll(JSON.object(message));
        return out;
    }

    /** Options kinds (DeleteOptions) travel under every group's apiVersion but live in meta/v1. */
    private static Descriptor descriptor(String apiVersion, String kind) {
        Descriptor d = builtIn(apiVersion, kind);
        if (d == null) {
            d = BY_PACKAGE_AND_KIND.get(META_PACKAGE + "/" + kind);
        }
        return d;
    }

    /**
     * The message of a built-in group's kind. Only the groups of {@link #FILES} by their full names, so that a custom
     * group whose first label matches one (apps.kruise.io) is never taken for it.
     */
    private static Descriptor builtIn(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        String protoGroup = PROTO_GROUPS.get(group);
        return protoGroup == null ? null : BY_PACKAGE_AND_KIND.get("k8s.io.api." + protoGroup + "." + version + "/" + kind);
    }

    /** The message an answer of this apiVersion and kind is written as; null when it has to be JSON (custom kinds). */
    static Descriptor answerType(String apiVersion, String kind) {
        if (apiVersion == null || kind == null) {
            return null;
        }
        if (kind.equals("Status") && apiVersion.equals("v1")) {
            return BY_PACKAGE_AND_KIND.get(META_PACKAGE + "/Status");
        }
        return builtIn(apiVersion, kind);
    }

    /** Whether {@link #encode} can write this object (a built-in kind, a list of one, or a Status). */
    static boolean encodable(JsonNode object) {
        return object != null && answerType(object.path("apiVersion").asText(null), object.path("kind").asText(null)) != null;
    }

    /**
     * The object as kube-apiserver answers it in protobuf: {@code k8s\0}, then a runtime.Unknown with the typeMeta and
     * the kind's message as raw bytes (contentEncoding and contentType empty, as Go writes them).
     * @throws JsonProto.NotEncodable when a stored value does not fit the message (the caller answers JSON)
     */
    static byte[] encode(JsonNode object) {
        String apiVersion = object.path("apiVersion").asText();
        String kind = object.path("kind").asText();
        Descriptor type = answerType(apiVersion, kind);
        if (type == null) {
            throw new JsonProto.NotEncodable(kind + " (" + apiVersion + ") has no protobuf message");
        }
        DynamicMessage raw = TO_PROTO.message(type, object);
        DynamicMessage typeMeta = DynamicMessage.newBuilder(TYPE_META)
                .setField(TYPE_META.findFieldByName("apiVersion"), apiVersion)
                .setField(TYPE_META.findFieldByName("kind"), kind).build();
        DynamicMessage unknown = DynamicMessage.newBuilder(UNKNOWN)
                .setField(UNKNOWN.findFieldByName("typeMeta"), typeMeta)
                .setField(UNKNOWN.findFieldByName("raw"), raw.toByteString())
                .setField(UNKNOWN.findFieldByName("contentEncoding"), "")
                .setField(UNKNOWN.findFieldByName("contentType"), "").build();
        byte[] body = unknown.toByteArray();
        byte[] out = new byte[MAGIC.length + body.length];
        System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
        System.arraycopy(body, 0, out, MAGIC.length, body.length);
        return out;
    }

    /**
     * One frame of a protobuf watch stream ({@code application/vnd.kubernetes.protobuf;stream=watch}): a 4-byte
     * big-endian length, then a metav1.WatchEvent written without magic or envelope, whose object is the whole
     * envelope of {@link #encode}.
     */
    static byte[] watchFrame(String type, byte[] objectEnvelope) {
        DynamicMessage raw = DynamicMessage.newBuilder(RAW_EXTENSION)
                .setField(RAW_EXTENSION.findFieldByName("raw"), ByteString.copyFrom(objectEnvelope)).build();
        byte[] event = DynamicMessage.newBuilder(WATCH_EVENT)
                .setField(WATCH_EVENT.findFieldByName("type"), type)
                .setField(WATCH_EVENT.findFieldByName("object"), raw).build().toByteArray();
        byte[] out = new byte[4 + event.length];
        out[0] = (byte) (event.length >>> 24);
        out[1] = (byte) (event.length >>> 16);
        out[2] = (byte) (event.length >>> 8);
        out[3] = (byte) event.length;
        System.arraycopy(event, 0, out, 4, event.length);
        return out;
    }

    private static Map<String, Descriptor> index() {
        Map<String, Descriptor> m = new HashMap<>();
        for (FileDescriptor f : FILES) {
            for (Descriptor d : f.getMessageTypes()) {
                m.put(f.getPackage() + "/" + d.getName(), d);
            }
        }
        return Map.copyOf(m);
    }
}
