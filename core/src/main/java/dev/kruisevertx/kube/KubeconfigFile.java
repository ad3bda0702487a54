package dev.kruisevertx.kube;

import dev.kruisevertx.cli.InvalidConfigurationException;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the file given with {@code --kubeconfig} and says what is wrong with it before fabric8 sees it: fabric8
 * answers an empty file with a NullPointerException and quietly falls back to {@code https://kubernetes.default.svc}
 * for a file without contexts. The checks are client-go's (clientcmd validation): a current context that exists,
 * whose cluster exists and has a server, and whose user, when named, exists.
 */
public final class KubeconfigFile {
    private static final Pattern POSITION = Pattern.compile("line (\\d+), column (\\d+)");

    private KubeconfigFile() {
    }

    /** A client configuration from the file; an {@link InvalidConfigurationException} naming the file otherwise. */
    public static Config load(Path path) {
        return load(path, "--kubeconfig");
    }

    /**
     * As {@link #load(Path)}, for a file named by {@code setting} (a flag, or {@code $KUBECONFIG}), which every
     * message names so the operator knows what to fix.
     */
    public static Config load(Path file, String setting) {
        Source path = new Source(setting, file);
        String text = read(path);
        validate(path, parse(path, text));
        return Config.fromKubeconfig(text);
    }

    /** The file and the setting that named it. */
    private record Source(String setting, Path path) {
        @Override
        public String toString() {
            return setting + " " + path;
        }
    }

    private static String read(Source path) {
        if (Files.isDirectory(path.path())) {
            throw problem(path, "is a directory, not a kubeconfig file");
        }
        try {
            return Files.readString(path.path());
        } catch (NoSuchFileException e) {
            throw problem(path, "no such file", e);
        } catch (AccessDeniedException e) {
            throw problem(path, "permission denied", e);
        } catch (IOException e) {
            throw problem(path, "cannot read: " + e.getMessage(), e);
        }
    }

    private static io.fabric8.kubernetes.api.model.Config parse(Source path, String text) {
        if (text.isBlank()) {
            throw problem(path, "the file is empty; a kubeconfig needs clusters, users, contexts and a current-context");
        }
        io.fabric8.kubernetes.api.model.Config parsed;
        try {
            parsed = KubeConfigUtils.parseConfigFromString(text);
        } catch (RuntimeException e) {
            throw problem(path, "not a kubeconfig: " + parseError(e), e);
        }
        if (parsed == null) {
            throw problem(path, "the file has no content; a kubeconfig needs clusters, users, contexts and a current-context");
        }
        return parsed;
    }

    /** Jackson and SnakeYAML messages run over several lines with a source excerpt: keep the gist and the position. */
    private static String parseError(RuntimeException e) {
        String message = Objects.requireNonNullElse(e.getMessage(), e.toString());
        if (message.contains("from Array value") || message.contains("from String value")
                || message.contains("from Number value") || message.contains("from Boolean value")) {
            return "expected a YAML mapping with apiVersion, kind: Config, clusters, users and contexts";
        }
        String first = message.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse(message);
        Matcher at = POSITION.matcher(message);
        return "invalid YAML: " + first + (at.find() ? " (line " + at.group(1) + ", column " + at.group(2) + ")" : "");
    }

    private static void validate(Source path, io.fabric8.kubernetes.api.model.Config config) {
        if (config.getKind() != null && !config.getKind().equals("Config")) {
            throw problem(path, "kind is \"" + config.getKind() + "\", expected \"Config\"");
        }
        List<NamedContext> contexts = nonNull(config.getContexts());
        if (contexts.isEmpty()) {
            throw problem(path, "has no contexts; a kubeconfig needs a context naming a cluster and a user, "
                    + "and a current-context");
        }
        String current = config.getCurrentContext();
        if (current == null || current.isBlank()) {
            throw problem(path, "current-context is not set (contexts: " + names(contexts, NamedContext::getName) + ")");
        }
        NamedContext context = contexts.stream().filter(c -> current.equals(c.getName())).findFirst()
                .orElseThrow(() -> problem(path, "current-context \"" + current + "\" is not one of its contexts ("
                        + names(contexts, NamedContext::getName) + ")"));
        if (context.getContext() == null || context.getContext().getCluster() == null
                || context.getContext().getCluster().isBlank()) {
            throw problem(path, "context \"" + current + "\" names no cluster");
        }
        String clusterName = context.getContext().getCluster();
        List<NamedCluster> clusters = nonNull(config.getClusters());
        NamedCluster cluster = clusters.stream().filter(c -> clusterName.equals(c.getName())).findFirst()
                .orElseThrow(() -> problem(path, "context \"" + current + "\" names cluster \"" + clusterName
                        + "\", which is not one of its clusters (" + names(clusters, NamedCluster::getName) + ")"));
        if (cluster.getCluster() == null || cluster.getCluster().getServer() == null
                || cluster.getCluster().getServer().isBlank()) {
            throw problem(path, "cluster \"" + clusterName + "\" has no server");
        }
        String userName = context.getContext().getUser();
        List<NamedAuthInfo> users = nonNull(config.getUsers());
        if (userName != null && !userName.isBlank() && users.stream().noneMatch(u -> userName.equals(u.getName()))) {
            throw problem(path, "context \"" + current + "\" names user \"" + userName
                    + "\", which is not one of its users (" + names(users, NamedAuthInfo::getName) + ")");
        }
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list.stream().filter(Objects::nonNull).toList();
    }

    private static <T> String names(List<T> items, Function<T, String> name) {
        return items.isEmpty() ? "none" : items.stream().map(name).map(n -> "\"" + n + "\"").collect(Collectors.joining(", "));
    }

    private static InvalidConfigurationException problem(Source path, String what) {
        return new InvalidConfigurationException(path + ": " + what);
    }

    private static InvalidConfigurationException problem(Source path, String what, Throwable cause) {
        return new InvalidConfigurationException(path + ": " + what, cause);
    }
}
