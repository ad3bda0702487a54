package dev.kruisevertx.api.common;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.io.IOException;

/**
 * Writes an embedded object template (e.g. a PVC in {@code volumeClaimTemplates}) without the apiVersion and kind
 * that fabric8's model classes fill in by default. OpenKruise stores these templates without them, so writing them
 * would make every update of a CloneSet look like a spec change.
 */
public class EmbeddedTemplateSerializer extends StdSerializer<HasMetadata> {
    public EmbeddedTemplateSerializer() {
        super(HasMetadata.class);
    }

    @Override
    public void serialize(HasMetadata value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        JsonNode tree = ApiJson.serialization().convertValue(value, JsonNode.class);
        if (tree instanceof ObjectNode object) {
            object.remove("apiVersion");
            object.remove("kind");
        }
        gen.writeTree(tree);
    }
}
