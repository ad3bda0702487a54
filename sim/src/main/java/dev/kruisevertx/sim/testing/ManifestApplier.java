package dev.kruisevertx.sim.testing;

import dev.kruisevertx.kube.ApiErrors;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.sim.Manifests;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies manifests (multi-document YAML or JSON) through a client, like {@code kubectl apply} without its
 * last-applied bookkeeping: create, or, when the object exists, a JSON merge patch of the manifest (so fields the
 * server or controllers set, such as a pod's nodeName, are kept). Blocking.
 */
public final class ManifestApplier {
    private ManifestApplier() {
    }

    /** Applies every document of {@code yaml} in order and returns the objects as stored. */
    public static List<HasMetadata> apply(KubernetesClient client, String yaml) {
        List<HasMetadata> out = new ArrayList<>();
        for (JsonNode doc : Manifests.parse(yaml)) {
            HasMetadata resource = Serialization.unmarshal(doc.toString());
            try {
                out.add(client.resource(resource).create());
            } catch (KubernetesClientException e) {
                if (!ApiErrors.isConflict(e)) {
                    throw e;
                }
                ObjectNode patch = ((ObjectNode) doc).deepCopy();
                patch.remove("status");
                if (patch.get("metadata") instanceof ObjectNode meta) {
                    meta.remove("resourceVersion");
                }
                out.add(client.resource(resource).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString()));
            }
        }
        return out;
    }

    public static List<HasMetadata> apply(KubernetesClient client, Path file) {
        try {
            return apply(client, Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Applies a classpath resource, e.g. {@code "/samples/pod.yaml"}. */
    public static List<HasMetadata> applyResource(KubernetesClient client, String classpathResource) {
        try (InputStream in = ManifestApplier.class.getResourceAsStream(classpathResource)) {
            if (in == null) {
                throw new IllegalArgumentException("no classpath resource " + classpathResource);
            }
            return apply(client, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + classpathResource + ": " + e.getMessage(), e);
        }
    }
}
