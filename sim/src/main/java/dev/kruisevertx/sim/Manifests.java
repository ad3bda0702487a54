package dev.kruisevertx.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads Kubernetes manifests (multi-document YAML or JSON) into JSON trees. Blocking: file IO. */
public final class Manifests {
    private static final ObjectMapper YAML = new YAMLMapper();

    private Manifests() {
    }

    /** Every non-empty document in {@code text}; a {@code List} kind is flattened into its items. */
    public static List<JsonNode> parse(String text) {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(text)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc == null || doc.isNull() || doc.isMissingNode() || (doc.isObject() && doc.isEmpty())) {
                    continue;
                }
                if (!doc.isObject()) {
                    throw new IllegalArgumentException("a manifest document must be a mapping, got: " + doc.getNodeType());
                }
                if (doc.path("kind").asText("").endsWith("List") && doc.has("items")) {
                    doc.path("items").forEach(out::add);
                } else {
                    out.add(doc);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot parse manifest: " + e.getMessage(), e);
        }
        return out;
    }

    /** Documents of every {@code .yaml}, {@code .yml} and {@code .json} file in {@code dir}, in file-name order. */
    public static List<JsonNode> readDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("not a directory: " + dir);
        }
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml") || p.toString().endsWith(".json"))
                    .sorted().toList()) {
                try {
                    out.addAll(parse(Files.readString(f)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }
}
