package dev.kruisevertx.agent.imagepuller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.cri.v1.AuthConfig;
import io.fabric8.kubernetes.api.model.Secret;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The registry credentials pull secrets hold for one image, as the kubelet's docker keyring finds them:
 * {@code kubernetes.io/dockerconfigjson} ({@code .dockerconfigjson}, entries under {@code auths}) and
 * {@code kubernetes.io/dockercfg} ({@code .dockercfg}, entries at the top level); an entry's key is a registry
 * host with an optional path (a scheme, a trailing slash and Docker Hub's {@code index.docker.io/v1/} spelling are
 * understood, {@code *} matches one host label), and matches an image whose repository is under it. The most
 * specific keys come first, as the kubelet tries them.
 *
 * <p>A secret that cannot be used is a {@link Result#problems() problem} naming the secret and what is wrong, never
 * its content.
 */
public final class RegistryAuths {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String DOCKER_CONFIG_JSON = ".dockerconfigjson";
    static final String DOCKER_CFG = ".dockercfg";

    /** The credentials to try in order (empty: pull anonymously) and what was wrong with the secrets. */
    public record Result(List<AuthConfig> auths, List<String> problems) {
    }

    private record Entry(String host, String path, AuthConfig auth) {
    }

    private RegistryAuths() {
    }

    public static Result forImage(List<Secret> secrets, String image) {
        String repository = ImageRefs.repository(image);
        List<Entry> matching = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Secret secret : secrets) {
            String name = name(secret);
            try {
                for (Entry e : entries(secret)) {
                    if (matches(e, repository)) {
                        matching.add(e);
                    }
                }
            } catch (BadSecret bad) {
                problems.add("pull secret " + name + " " + bad.getMessage());
            }
        }
        // Longer keys are more specific: a path-scoped credential before the registry-wide one.
        matching.sort(Comparator.comparingInt((Entry e) -> -(e.host().length() + e.path().length())));
        List<AuthConfig> auths = new ArrayList<>();
        for (Entry e : matching) {
            if (!auths.contains(e.auth())) {
                auths.add(e.auth());
            }
        }
        return new Result(List.copyOf(auths), List.copyOf(problems));
    }

    private static String name(Secret secret) {
        if (secret.getMetadata() == null) {
            return "(unnamed)";
        }
        return secret.getMetadata().getNamespace() + "/" + secret.getMetadata().getName();
    }

    private static final class BadSecret extends Exception {
        BadSecret(String message) {
            super(message, null, false, false);
        }
    }

    private static List<Entry> entries(Secret secret) throws BadSecret {
        String json = value(secret, DOCKER_CONFIG_JSON);
        boolean configJson = json != null;
        if (json == null) {
            json = value(secret, DOCKER_CFG);
        }
        if (json == null) {
            throw new BadSecret("has neither " + DOCKER_CONFIG_JSON + " nor " + DOCKER_CFG
                    + " (type " + secret.getType() + ")");
        }
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (Exception e) {
            // Jackson's message quotes the input: say only where it failed.
            throw new BadSecret("is not valid JSON in " + (configJson ? DOCKER_CONFIG_JSON : DOCKER_CFG));
        }
        JsonNode auths = configJson ? root == null ? null : root.get("auths") : root;
        if (auths == null || !auths.isObject()) {
            throw new BadSecret(configJson ? "has no \"auths\" object in " + DOCKER_CONFIG_JSON
                    : "is not a JSON object in " + DOCKER_CFG);
        }
        List<Entry> out = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = auths.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            AuthConfig auth = credentials(f.getKey(), f.getValue());
            String key = normalizeKey(f.getKey());
            int slash = key.indexOf('/');
            out.add(new Entry(slash < 0 ? key : key.substring(0, slash), slash < 0 ? "" : key.substring(slash), auth));
        }
        return out;
    }

    private static String value(Secret secret, String key) throws BadSecret {
        if (secret.getStringData() != null && secret.getStringData().get(key) != null) {
            return secret.getStringData().get(key);
        }
        String encoded = secret.getData() == null ? null : secret.getData().get(key);
        if (encoded == null) {
            return null;
        }
        try {
            return new String(Base64.getDecoder().decode(encoded.trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadSecret("has " + key + " that is not base64");
        }
    }

    private static AuthConfig credentials(String registry, JsonNode entry) throws BadSecret {
        if (entry == null || !entry.isObject()) {
            throw new BadSecret("entry for " + registry + " is not an object");
        }
        String user = text(entry, "username");
        String password = text(entry, "password");
        String encoded = text(entry, "auth");
        if (!encoded.isEmpty()) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(encoded.trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new BadSecret("entry for " + registry + " has an \"auth\" that is not base64");
            }
            int colon = decoded.indexOf(':');
            if (colon < 0) {
                throw new BadSecret("entry for " + registry + " has an \"auth\" that is not user:password");
            }
            user = decoded.substring(0, colon);
            password = decoded.substring(colon + 1);
        }
        AuthConfig.Builder b = AuthConfig.newBuilder().setUsername(user).setPassword(password);
        String token = text(entry, "identitytoken");
        if (!token.isEmpty()) {
            b.setIdentityToken(token);
        }
        return b.build();
    }

    private static String text(JsonNode entry, String field) throws BadSecret {
        JsonNode v = entry.get(field);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw new BadSecret("has a non-string \"" + field + "\"");
        }
        return v.asText();
    }

    /** {@code https://index.docker.io/v1/} is {@code docker.io}; scheme and trailing slashes go. */
    static String normalizeKey(String key) {
        String k = key.trim();
        int scheme = k.indexOf("://");
        if (scheme >= 0) {
            k = k.substring(scheme + 3);
        }
        while (k.endsWith("/")) {
            k = k.substring(0, k.length() - 1);
        }
        if (k.equals("index.docker.io/v1") || k.equals("index.docker.io") || k.equals("registry-1.docker.io")) {
            return ImageRefs.DOCKER_HUB;
        }
        return k;
    }

    private static boolean matches(Entry e, String repository) {
        int slash = repository.indexOf('/');
        String host = slash < 0 ? repository : repository.substring(0, slash);
        String path = slash < 0 ? "" : repository.substring(slash);
        if (!hostMatches(e.host(), host)) {
            return false;
        }
        return e.path().isEmpty() || path.equals(e.path()) || path.startsWith(e.path() + "/");
    }

    /** Label by label; {@code *} stands for one label, and a port must be equal. */
    private static boolean hostMatches(String pattern, String host) {
        String[] p = pattern.toLowerCase().split("\\.", -1);
        String[] h = host.toLowerCase().split("\\.", -1);
        if (p.length != h.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (!p[i].equals("*") && !p[i].equals(h[i])) {
                return false;
            }
        }
        return true;
    }
}
