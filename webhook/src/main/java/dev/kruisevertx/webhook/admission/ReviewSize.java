package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;

/**
 * How many JSON values a review holds, counted by streaming over its bytes before any tree or model is built, with
 * its {@code apiVersion} and {@code request.uid} picked up on the way. Judging an object takes heap in proportion to
 * its values, not its bytes (a one-line container is three values in 30 bytes, and about 2 KB of heap while it is
 * parsed, decoded, defaulted, diffed and encoded), so this is what bounds the work of one request.
 *
 * @param values     objects, arrays and scalars seen, at most {@code limit + 1}
 * @param apiVersion the top-level apiVersion, or null
 * @param uid        {@code request.uid}, or null
 */
public record ReviewSize(long values, String apiVersion, String uid) {

    /** Counts up to {@code limit + 1} values; malformed JSON ends the count (parsing it later reports the error). */
    public static ReviewSize measure(byte[] body, long limit) {
        long values = 0;
        String apiVersion = null;
        String uid = null;
        int depth = 0;
        boolean inRequest = false;
        String field = null;
        try (JsonParser parser = Json.MAPPER.getFactory().createParser(body)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null && values <= limit) {
                switch (token) {
                    case FIELD_NAME -> field = parser.currentName();
                    case START_OBJECT, START_ARRAY -> {
                        values++;
                        depth++;
                        if (depth == 2 && token == JsonToken.START_OBJECT && "request".equals(field)) {
                            inRequest = true;
                        }
                    }
                    case END_OBJECT, END_ARRAY -> {
                        depth--;
                        if (depth == 1) {
                            inRequest = false;
                        }
                    }
                    default -> {
                        values++;
                        if (token == JsonToken.VALUE_STRING) {
                            if (depth == 1 && "apiVersion".equals(field)) {
                                apiVersion = parser.getText();
                            } else if (depth == 2 && inRequest && "uid".equals(field)) {
                                uid = parser.getText();
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            // Not JSON (or not all of it): the parse that follows says what is wrong.
        }
        return new ReviewSize(values, apiVersion, uid);
    }
}
