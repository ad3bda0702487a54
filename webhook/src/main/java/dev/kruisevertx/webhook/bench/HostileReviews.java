package dev.kruisevertx.webhook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * A seeded, replayable stream of malformed and hostile reviews for one {@link HostileTarget}: request {@code i} of
 * seed {@code s} is the same on every run ({@link #nth}). Each request says what a correct webhook must answer
 * ({@link HostileRequest#expectedUid()}): a body that is JSON the way kube-apiserver sends it (an object, a supported
 * review apiVersion, a string request.uid) must get a review echoing that uid, however broken the rest; anything else
 * a 4xx with a message.
 */
public final class HostileReviews {
    /** Nesting a standard JSON parser still reads (Jackson's default limit is 1000 levels). */
    static final int PARSEABLE_DEPTH = 900;
    /** Nesting the issue asks for: far beyond every parser's limit. */
    static final int HOSTILE_DEPTH = 10_000;

    /**
     * One request.
     *
     * @param index       position in the stream (replay with {@link #nth})
     * @param category    what kind of hostility
     * @param contentType Content-Type header, or null for none
     * @param body        the bytes sent
     * @param expectedUid the uid the answer must echo in a review, or null when the body cannot carry one (then a
     *                    4xx with a message is the answer)
     * @param apiVersion  the review apiVersion the answer must have when {@code expectedUid} is set
     * @param valid       an untouched valid review: the answer must allow it (or convert it)
     */
    public record HostileRequest(long index, String category, String contentType, byte[] body, String expectedUid,
                                 String apiVersion, boolean valid) {
        public String describe() {
            String text = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
            return "#" + index + " " + category + " (" + body.length + " bytes, content-type " + contentType + "): "
                    + text.replaceAll("\\p{Cntrl}", "?") + (body.length > 300 ? "..." : "");
        }
    }

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** A standard reading of a body: one JSON value, nothing after it (as Go's encoding/json). */
    private static final com.fasterxml.jackson.databind.ObjectReader STRICT = Json.MAPPER.reader()
            .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final String JSON = "application/json";
    private static final List<String> UNICODE = List.of("\u0000", "\u0001\u001f", "\uD800", "\uDFFF", "a\uD800b",
            "\uD83D\uDE00", "\u202Eevil", "\uFEFF", "e\u0301", "\u0665", "\uFFFF", "\u2028\u2029", "𝕏".repeat(100),
            "\\", "\"", "</script>", "%00", "${jndi:ldap://x}", "'; DROP TABLE", "..%2f..%2f");
    private static final List<String> ADMISSION_ENVELOPE = List.of("/apiVersion", "/kind", "/request",
            "/request/uid", "/request/kind", "/request/kind/group", "/request/kind/version", "/request/kind/kind",
            "/request/resource", "/request/resource/resource", "/request/resource/group", "/request/subResource",
            "/request/requestKind", "/request/name", "/request/namespace", "/request/operation", "/request/userInfo",
            "/request/userInfo/username", "/request/userInfo/groups", "/request/object", "/request/oldObject",
            "/request/dryRun", "/request/options", "/response");
    private static final List<String> CONVERSION_ENVELOPE = List.of("/apiVersion", "/kind", "/request",
            "/request/uid", "/request/desiredAPIVersion", "/request/objects", "/request/objects/0",
            "/request/objects/0/apiVersion", "/request/objects/0/kind", "/request/objects/1", "/response");
    private static final List<String> BAD_ADMISSION_VERSIONS = List.of("admission.k8s.io/v2", "admission.k8s.io/v1alpha1",
            "admission.k8s.io", "v1", "", "ADMISSION.K8S.IO/V1", "admission.k8s.io/v1 ", "apiextensions.k8s.io/v1");
    private static final List<String> BAD_CONVERSION_VERSIONS = List.of("apiextensions.k8s.io/v2",
            "apiextensions.k8s.io/v1alpha1", "apiextensions.k8s.io", "v1", "", "admission.k8s.io/v1");
    private static final List<String> BAD_KINDS = List.of("Pod", "AdmissionReview ", "admissionreview",
            "ConversionReview", "AdmissionReviewList", "Status", "", "TokenReview");
    private static final List<String> BAD_DESIRED = List.of("apps.kruise.io/v9", "apps.kruise.io/", "/v1beta1",
            "apps/v1", "v1beta1", "apps.kruise.io/v1beta1/x", "apps.kruise.io/V1BETA1", "");
    private static final List<String> CONTENT_TYPES = List.of("text/plain", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=xyz", "multipart/form-data", "application/yaml", "application/xml",
            "application/octet-stream", "application/json-patch+json", "*/*", "application/jsonx", "json");
    private static final List<String> JSON_CONTENT_TYPES = List.of("application/json; charset=utf-8",
            "Application/JSON", "application/json;charset=UTF-8");

    private final HostileTarget target;
    private final long seed;
    private final long maxBodyBytes;
    private final SplittableRandom random;
    private final List<String> objectPointers = new ArrayList<>();
    private long index;

    /** One kind of request after the first few: it is drawn when the dice (0-999) fall below {@code below}. */
    private record Share(int below, LongFunction<HostileRequest> request) {
    }

    /** The mix of a stream, in dice order; the dice above the last are the desired-version or operation mutations. */
    private final List<Share> shares = List.of(
            new Share(40, i -> review(i, "valid", validReview(), true)),
            new Share(330, i -> review(i, "object-mutation", objectMutation(), false)),
            new Share(520, i -> review(i, "envelope-mutation", envelopeMutation(), false)),
            new Share(570, i -> review(i, "wrong-version-or-kind", wrongVersionOrKind(), false)),
            new Share(700, this::brokenJson),
            new Share(740, this::deep),
            new Share(790, this::contentType),
            new Share(840, this::duplicateKeys),
            new Share(900, this::unicode),
            new Share(950, this::numbers),
            new Share(960, this::large));

    public HostileReviews(HostileTarget target, long seed, long maxBodyBytes) {
        this.target = target;
        this.seed = seed;
        this.maxBodyBytes = maxBodyBytes;
        this.random = new SplittableRandom(seed ^ target.name().hashCode() * 0x9E3779B97F4A7C15L);
        JsonTrees.collectPointers(target.sample(), "", objectPointers);
    }

    /** Request {@code n} of the stream of {@code target} and {@code seed}, as a run saw it. */
    public static HostileRequest nth(HostileTarget target, long seed, long maxBodyBytes, long n) {
        HostileReviews reviews = new HostileReviews(target, seed, maxBodyBytes);
        HostileRequest r = reviews.next();
        while (r.index() < n) {
            r = reviews.next();
        }
        return r;
    }

    public long seed() {
        return seed;
    }

    /**
     * The next request. The first few of every stream are the rare, expensive ones (bodies over 3 MiB and over the
     * webhook's limit), so even a short run has them.
     */
    public HostileRequest next() {
        long i = index++;
        if (i < 2) {
            return huge(i, maxBodyBytes + 1 + random.nextInt(1 << 16), "over-limit");
        }
        if (i < 4) {
            return huge(i, (3L << 20) + random.nextInt(1 << 20), "over-3MiB");
        }
        int dice = random.nextInt(1000);
        for (Share share : shares) {
            if (dice < share.below()) {
                return share.request().apply(i);
            }
        }
        return review(i, target.conversion() ? "desired-version" : "operation", conversionOrOperation(), false);
    }

    // ---- valid reviews and their envelopes ----

    private ObjectNode validReview() {
        ObjectNode object = target.sample().deepCopy();
        return target.conversion() ? conversionReview(ConversionRegistry.V1, object) : admissionReview(
                random.nextBoolean() ? AdmissionReviews.V1 : AdmissionReviews.V1BETA1, pick(List.of("CREATE", "UPDATE",
                        "DELETE")), object);
    }

    private ObjectNode admissionReview(String apiVersion, String operation, ObjectNode object) {
        ObjectNode review = F.objectNode();
        review.put("apiVersion", apiVersion).put("kind", "AdmissionReview");
        ObjectNode q = review.putObject("request");
        q.put("uid", uid());
        q.putObject("kind").put("group", target.group()).put("version", target.version()).put("kind", target.kind());
        q.putObject("resource").put("group", target.group()).put("version", target.version())
                .put("resource", target.resource());
        q.put("name", object.path("metadata").path("name").asText("x")).put("namespace", "default");
        q.put("operation", operation);
        q.putObject("userInfo").put("username", "system:admin").putArray("groups").add("system:masters");
        switch (operation) {
            case "CREATE" -> q.set("object", object);
            case "UPDATE" -> {
                q.set("object", object);
                q.set("oldObject", target.sample().deepCopy());
            }
            default -> q.set("oldObject", object);
        }
        q.put("dryRun", false);
        return review;
    }

    private ObjectNode conversionReview(String apiVersion, ObjectNode object) {
        ObjectNode review = F.objectNode();
        review.put("apiVersion", apiVersion).put("kind", "ConversionReview");
        ObjectNode q = review.putObject("request");
        q.put("uid", uid());
        q.put("desiredAPIVersion", target.apiVersion());
        ArrayNode objects = q.putArray("objects");
        objects.add(object);
        if (random.nextInt(4) == 0) {
            objects.add(target.sample().deepCopy());
        }
        return review;
    }

    private String uid() {
        return "hostile-" + seed + "-" + index;
    }

    private String reviewVersion() {
        if (target.conversion()) {
            return random.nextInt(4) == 0 ? ConversionRegistry.V1BETA1 : ConversionRegistry.V1;
        }
        return random.nextInt(4) == 0 ? AdmissionReviews.V1BETA1 : AdmissionReviews.V1;
    }

    private ObjectNode review(String apiVersion, ObjectNode object) {
        return target.conversion() ? conversionReview(apiVersion, object)
                : admissionReview(apiVersion, pick(List.of("CREATE", "UPDATE", "UPDATE", "DELETE")), object);
    }

    // ---- categories that keep the body parseable ----

    private ObjectNode objectMutation() {
        ObjectNode object = target.sample().deepCopy();
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            String pointer = pick(objectPointers);
            if (random.nextInt(4) == 0) {
                JsonTrees.remove(object, pointer);
            } else {
                JsonTrees.set(object, pointer, hostileValue());
            }
        }
        return review(reviewVersion(), object);
    }

    private ObjectNode envelopeMutation() {
        ObjectNode review = review(reviewVersion(), target.sample().deepCopy());
        String pointer = pick(target.conversion() ? CONVERSION_ENVELOPE : ADMISSION_ENVELOPE);
        if (random.nextInt(3) == 0) {
            JsonTrees.remove(review, pointer);
        } else {
            JsonTrees.set(review, pointer, hostileValue());
        }
        return review;
    }

    private ObjectNode wrongVersionOrKind() {
        ObjectNode review = review(reviewVersion(), target.sample().deepCopy());
        if (random.nextBoolean()) {
            review.put("apiVersion", pick(target.conversion() ? BAD_CONVERSION_VERSIONS : BAD_ADMISSION_VERSIONS));
        } else {
            review.put("kind", pick(BAD_KINDS));
        }
        return review;
    }

    private ObjectNode conversionOrOperation() {
        ObjectNode review = review(reviewVersion(), target.sample().deepCopy());
        ObjectNode q = (ObjectNode) review.get("request");
        if (target.conversion()) {
            q.put("desiredAPIVersion", pick(BAD_DESIRED));
        } else {
            q.put("operation", pick(List.of("CONNECT", "create", "PATCH", "DELETE ", "", "UPDATE\u0000")));
        }
        return review;
    }

    /** Annotations, labels and names with Unicode edge cases, including lone surrogates, in the object and the uid. */
    private HostileRequest unicode(long i) {
        ObjectNode object = target.sample().deepCopy();
        String text = pick(UNICODE);
        ObjectNode metadata = object.withObjectProperty("metadata");
        switch (random.nextInt(5)) {
            case 0 -> metadata.put("name", text);
            case 1 -> metadata.withObjectProperty("labels").put(text, text);
            case 2 -> metadata.withObjectProperty("annotations").put("apps.kruise.io/v1beta1-spec-fields", text);
            case 3 -> metadata.withObjectProperty("annotations").put(text, "x");
            default -> {
                // Invalid UTF-8 bytes in a string: not JSON text at all.
                byte[] body = JsonTrees.bytes(review(reviewVersion(), object));
                byte[] bad = new byte[]{(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xED, (byte) 0xA0, (byte) 0x80};
                int at = JsonTrees.indexOf(body, "\"name\":\"".getBytes(StandardCharsets.UTF_8));
                if (at < 0) {
                    at = body.length / 2;
                } else {
                    at += 8;
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(body, 0, at);
                out.write(bad, 0, bad.length);
                out.write(body, at, body.length - at);
                return raw(i, "invalid-utf8", JSON, out.toByteArray());
            }
        }
        ObjectNode review = review(reviewVersion(), object);
        if (random.nextInt(3) == 0) {
            ((ObjectNode) review.get("request")).put("uid", uid() + text);
        }
        // Jackson writes a lone surrogate as an escape that its own reader refuses in a field name (Go would read
        // it as U+FFFD; kube-apiserver never writes one): judged by what a parser makes of the bytes.
        return expectFrom(i, "unicode", JSON, JsonTrees.bytes(review));
    }

    /** Numbers at the edges: long digit strings (over 1,000 digits no parser takes them), huge exponents, -0. */
    private HostileRequest numbers(long i) {
        ObjectNode object = target.sample().deepCopy();
        String pointer = pick(objectPointers);
        String marker = "\"__number_marker__\"";
        JsonTrees.set(object, pointer, F.textNode("__number_marker__"));
        String number = switch (random.nextInt(8)) {
            case 0 -> "9".repeat(1001 + random.nextInt(5000));
            case 1 -> "9".repeat(200);
            case 2 -> "1e999999999";
            case 3 -> "-1e-999999999";
            case 4 -> "-0";
            case 5 -> "1.7976931348623157e309";
            case 6 -> "0." + "0".repeat(500) + "1";
            default -> "-" + "9".repeat(30);
        };
        String body = JsonTrees.bodyText(review(reviewVersion(), object)).replace(marker, number);
        boolean parseable = !(number.length() > 1000);
        return parseable ? expectFrom(i, "number-edge", JSON, body.getBytes(StandardCharsets.UTF_8))
                : raw(i, "number-too-long", JSON, body.getBytes(StandardCharsets.UTF_8));
    }

    // ---- categories that break the body ----

    private HostileRequest brokenJson(long i) {
        byte[] valid = JsonTrees.bytes(validReview());
        return switch (random.nextInt(12)) {
            case 0 -> raw(i, "truncated", JSON, java.util.Arrays.copyOf(valid, random.nextInt(valid.length)));
            case 1 -> {
                byte[] flipped = valid.clone();
                for (int k = 0; k < 1 + random.nextInt(4); k++) {
                    int at = random.nextInt(flipped.length);
                    flipped[at] = (byte) (flipped[at] ^ (1 << random.nextInt(8)));
                }
                yield expectFrom(i, "bit-flip", JSON, flipped);
            }
            case 2 -> {
                byte[] noise = new byte[random.nextInt(4096)];
                random.nextBytes(noise);
                yield raw(i, "random-bytes", JSON, noise);
            }
            case 3 -> raw(i, "empty", JSON, new byte[0]);
            case 4 -> expectFrom(i, "json-literal", JSON, pick(List.of("null", "[]", "1", "\"AdmissionReview\"", "true",
                    "{}", "[{}]", "{\"request\":{}}", "  ", "\n")).getBytes(StandardCharsets.UTF_8));
            case 5 -> raw(i, "trailing-garbage", JSON, JsonTrees.concat(valid, pick(List.of("}", "]", ",", "x", "{}", "\u0000"))
                    .getBytes(StandardCharsets.UTF_8)));
            case 6 -> raw(i, "javascript-not-json", JSON, new String(valid, StandardCharsets.UTF_8)
                    .replaceFirst("\"", "'").getBytes(StandardCharsets.UTF_8));
            case 7 -> raw(i, "literal-nan", JSON, new String(valid, StandardCharsets.UTF_8)
                    .replaceFirst("\"uid\":\"[^\"]*\"", "\"uid\":NaN").getBytes(StandardCharsets.UTF_8));
            case 8 -> raw(i, "comment", JSON, JsonTrees.concat("/* hi */".getBytes(StandardCharsets.UTF_8), valid));
            case 9 -> expectFrom(i, "utf8-bom", JSON, JsonTrees.concat(new byte[]{(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, valid));
            case 10 -> raw(i, "utf16", JSON, new String(valid, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16));
            default -> raw(i, "unterminated-string", JSON, ("{\"apiVersion\":\"" + "a".repeat(random.nextInt(10_000)))
                    .getBytes(StandardCharsets.UTF_8));
        };
    }

    /** Deep nesting: 10,000 levels (beyond every parser's limit) at several places, and 900 levels (readable). */
    private HostileRequest deep(long i) {
        boolean parseable = random.nextInt(3) == 0;
        int depth = parseable ? PARSEABLE_DEPTH - 10 : HOSTILE_DEPTH;
        boolean arrays = random.nextBoolean();
        String open = arrays ? "[" : "{\"a\":";
        String close = arrays ? "]" : "}";
        String nested = open.repeat(depth) + "1" + close.repeat(depth);
        if (random.nextInt(5) == 0 && !parseable) {
            return raw(i, "deep-top-level", JSON, nested.getBytes(StandardCharsets.UTF_8));
        }
        ObjectNode object = target.sample().deepCopy();
        String marker = "\"__deep_marker__\"";
        String where = random.nextBoolean() ? pick(objectPointers) : "/metadata/annotations/deep";
        JsonTrees.set(object, where, F.textNode("__deep_marker__"));
        ObjectNode review = review(reviewVersion(), object);
        if (random.nextInt(4) == 0) {
            JsonTrees.remove(review, target.conversion() ? "/request/objects" : "/request/object");
            ((ObjectNode) review.get("request")).put(target.conversion() ? "objects" : "object", "__deep_marker__");
        }
        byte[] body = JsonTrees.bodyText(review).replace(marker, nested).getBytes(StandardCharsets.UTF_8);
        return parseable ? expectFrom(i, "deep-" + depth, JSON, body) : raw(i, "deep-" + depth, JSON, body);
    }

    private HostileRequest contentType(long i) {
        ObjectNode review = random.nextBoolean() ? validReview() : objectMutationTree();
        if (random.nextInt(3) == 0) {
            return expectFrom(i, "json-content-type", pick(JSON_CONTENT_TYPES), JsonTrees.bytes(review));
        }
        if (random.nextInt(5) == 0) {
            return expectFrom(i, "no-content-type", null, JsonTrees.bytes(review));
        }
        String type = pick(CONTENT_TYPES);
        byte[] body = type.startsWith("multipart") && random.nextBoolean()
                ? ("--xyz\r\nContent-Disposition: form-data; name=\"a\"; filename=\"f\"\r\n\r\n"
                + "x".repeat(random.nextInt(100_000)) + "\r\n--xyz--\r\n").getBytes(StandardCharsets.UTF_8)
                : JsonTrees.bytes(review);
        return new HostileRequest(i, "content-type", type, body, null, null, false);
    }

    private ObjectNode objectMutationTree() {
        return objectMutation();
    }

    /**
     * Duplicate keys: an earlier copy of a key with another value, so the last one (the value a standard parser
     * keeps, Go's as Jackson's) is the sample's own.
     */
    private HostileRequest duplicateKeys(long i) {
        ObjectNode review = validReview();
        String text = JsonTrees.bodyText(review);
        String uidField = "\"uid\":\"" + review.path("request").path("uid").asText() + "\"";
        String duplicated = switch (random.nextInt(5)) {
            case 0 -> text.replace(uidField, "\"uid\":\"decoy\"," + uidField);
            case 1 -> text.replaceFirst("\\{\"apiVersion\":", "{\"apiVersion\":\"admission.k8s.io/v0\",\"apiVersion\":");
            case 2 -> text.replaceFirst("\"request\":\\{", "\"request\":{\"object\":{\"kind\":\"Secret\"},");
            case 3 -> text.replaceFirst("\"metadata\":\\{", "\"metadata\":{\"name\":\"Decoy_Name\",");
            default -> text.replaceFirst("\"spec\":\\{", "\"spec\":{\"replicas\":-5,\"spec\":null,");
        };
        return expectFrom(i, "duplicate-keys", JSON, duplicated.getBytes(StandardCharsets.UTF_8));
    }

    /** Bodies between the inline limit (64 KiB) and 1 MiB: judged on the large-request worker. */
    private HostileRequest large(long i) {
        ObjectNode object = target.sample().deepCopy();
        int size = (64 << 10) + random.nextInt(1 << 20);
        if (random.nextBoolean()) {
            object.withObjectProperty("metadata").withObjectProperty("annotations").put("big", "x".repeat(size));
        } else {
            ArrayNode many = object.withObjectProperty("metadata").withObjectProperty("labels").arrayNode();
            for (int k = 0; k < size / 8; k++) {
                many.add(k);
            }
            JsonTrees.set(object, pick(objectPointers), many);
        }
        return review(i, "large", review(reviewVersion(), object), false);
    }

    /** A body over {@code size} bytes: a review whose object carries one huge annotation. */
    private HostileRequest huge(long i, long size, String category) {
        ObjectNode review = validReview();
        String text = JsonTrees.bodyText(review);
        int pad = (int) Math.max(0, size - text.length());
        ObjectNode object = (ObjectNode) (target.conversion() ? review.path("request").path("objects").get(0)
                : review.path("request").has("object") ? review.path("request").get("object")
                : review.path("request").get("oldObject"));
        object.withObjectProperty("metadata").withObjectProperty("annotations").put("huge", "x".repeat(pad));
        byte[] body = JsonTrees.bytes(review);
        return body.length > maxBodyBytes ? new HostileRequest(i, category, JSON, body, null, null, false)
                : expectFrom(i, category, JSON, body);
    }

    // ---- building and classifying requests ----

    private HostileRequest review(long i, String category, ObjectNode review, boolean valid) {
        byte[] body = JsonTrees.bytes(review);
        String uid = usableUid(review);
        return new HostileRequest(i, category, JSON, body, uid, uid == null ? null : review.get("apiVersion").asText(),
                valid && uid != null);
    }

    /** A body to judge by parsing it as kube-apiserver's peer would: parseable, then classified. */
    private HostileRequest expectFrom(long i, String category, String contentType, byte[] body) {
        JsonNode tree;
        try {
            tree = STRICT.readTree(body);
        } catch (java.io.IOException e) {
            return new HostileRequest(i, category, contentType, body, null, null, false);
        }
        String uid = usableUid(tree);
        return new HostileRequest(i, category, contentType, body, uid, uid == null ? null : tree.get("apiVersion").asText(),
                false);
    }

    private HostileRequest raw(long i, String category, String contentType, byte[] body) {
        return new HostileRequest(i, category, contentType, body, null, null, false);
    }

    /**
     * The uid a review answer must echo: the body is a JSON object with an apiVersion the path serves and a non-empty
     * string request.uid. Otherwise there is nothing an answer could be matched against.
     */
    String usableUid(JsonNode review) {
        if (review == null || !review.isObject()) {
            return null;
        }
        String apiVersion = review.path("apiVersion").isTextual() ? review.get("apiVersion").asText() : "";
        boolean supported = target.conversion()
                ? ConversionRegistry.V1.equals(apiVersion) || ConversionRegistry.V1BETA1.equals(apiVersion)
                : AdmissionReviews.V1.equals(apiVersion) || AdmissionReviews.V1BETA1.equals(apiVersion);
        JsonNode uid = review.path("request").path("uid");
        return supported && uid.isTextual() && !uid.asText().isEmpty() ? uid.asText() : null;
    }

    private JsonNode hostileValue() {
        return switch (random.nextInt(34)) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(random.nextBoolean());
            case 2 -> F.numberNode(0);
            case 3 -> F.numberNode(-1);
            case 4 -> F.numberNode(-2147483649L);
            case 5 -> F.numberNode(new BigInteger("9223372036854775808"));
            case 6 -> F.numberNode(new BigInteger("-99999999999999999999999999999999"));
            case 7 -> F.numberNode(1e308);
            case 8 -> F.numberNode(new BigDecimal("1e400"));
            case 9 -> F.numberNode(-0.0);
            case 10 -> F.numberNode(1.5);
            case 11 -> F.textNode("");
            case 12 -> F.textNode(pick(List.of("NaN", "Infinity", "-Infinity", "null", "undefined", "true", "0x10",
                    "1e3", "-1", "1.0", "\u0665", "50.5%", "-5%", "999999999999999999999%", "%")));
            case 13 -> F.textNode("x".repeat(1 + random.nextInt(100_000)));
            case 14 -> F.textNode(pick(UNICODE));
            case 15 -> F.objectNode();
            case 16 -> F.arrayNode();
            case 17 -> F.arrayNode().addNull();
            case 18 -> F.arrayNode().add(F.arrayNode().add(F.arrayNode()));
            case 19 -> F.objectNode().put("", "");
            case 20 -> {
                ObjectNode o = F.objectNode();
                o.putObject("a").putArray("b").addObject().putNull("c");
                yield o;
            }
            case 21 -> {
                ArrayNode a = F.arrayNode();
                for (int k = 0; k < 1000; k++) {
                    a.add(k);
                }
                yield a;
            }
            case 22 -> {
                ObjectNode o = F.objectNode();
                for (int k = 0; k < 1000; k++) {
                    o.put("k" + k, k);
                }
                yield o;
            }
            case 23 -> {
                JsonNode n = F.numberNode(1);
                for (int k = 0; k < 200; k++) {
                    n = random.nextBoolean() ? F.arrayNode().add(n) : F.objectNode().set("a", n);
                }
                yield n;
            }
            case 24 -> target.sample().deepCopy();
            case 25 -> F.textNode("apps.kruise.io/v1beta1");
            case 26 -> F.numberNode(Integer.MAX_VALUE);
            case 27 -> F.numberNode(Long.MIN_VALUE);
            case 28 -> F.textNode("{\"reserveOrdinals\":[" + "[".repeat(random.nextInt(2000)) + "1");
            case 29 -> F.textNode("{\"reserveOrdinals\":\"x\",\"ordinals\":{\"start\":-5}}");
            case 30 -> F.arrayNode().add(F.objectNode()).add(F.textNode("x")).add(F.numberNode(1)).addNull();
            case 31 -> F.textNode("2147483648");
            case 32 -> F.textNode("-2147483649");
            default -> F.textNode("1-99999999999");
        };
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
