package dev.kruisevertx.revision;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.util.TokenBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code ControllerRevision.data} that goes over the wire as the exact bytes OpenKruise would store
 * ({@link GoRevisionData#bytes}: Go's escaping and number forms, which a Jackson map cannot produce), while reading
 * as an ordinary map in memory (the planner reads the update revision's template before the API returns it). The API
 * server keeps a revision's data as the bytes it received, and OpenKruise compares them byte for byte.
 */
@JsonSerialize(using = StoredRevisionData.Writer.class)
public final class StoredRevisionData extends LinkedHashMap<String, Object> {
    private final String json;

    @SuppressWarnings("unchecked")
    StoredRevisionData(JsonNode data) {
        super(RevisionData.SORTED.convertValue(data, Map.class));
        this.json = new String(GoRevisionData.bytes(data), StandardCharsets.UTF_8);
    }

    /** The bytes as sent. */
    public String json() {
        return json;
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    /** Raw bytes to a wire generator; an in-memory conversion (a token buffer) gets the plain map. */
    static final class Writer extends StdSerializer<StoredRevisionData> {
        Writer() {
            super(StoredRevisionData.class);
        }

        @Override
        public void serialize(StoredRevisionData value, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            if (gen instanceof TokenBuffer) {
                gen.writeStartObject();
                for (Map.Entry<String, Object> e : value.entrySet()) {
                    gen.writeFieldName(e.getKey());
                    provider.defaultSerializeValue(e.getValue(), gen);
                }
                gen.writeEndObject();
            } else {
                gen.writeRawValue(value.json);
            }
        }
    }
}
