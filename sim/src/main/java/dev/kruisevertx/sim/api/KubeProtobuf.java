package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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

    private KubeProtobuf() {
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
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "core" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        String shortGroup = group.split("\\.")[0];
        Descriptor d = BY_PACKAGE_AND_KIND.get("k8s.io.api." + shortGroup + "." + version + "/" + kind);
        if (d == null) {
            d = BY_PACKAGE_AND_KIND.get(META_PACKAGE + "/" + kind);
        }
        return d;
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
