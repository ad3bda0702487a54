package dev.kruisevertx.webhook.podprobemarker;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' name checks that report every problem of a value (IsQualifiedName, IsValidLabelValue,
 * IsValidPortName, IsValidPortNum, IsHTTPHeaderName), as OpenKruise's PodProbeMarker validation counts them.
 */
final class KubeNames {
    private static final Pattern QUALIFIED_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern DNS1123_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern PORT_NAME_CHARS = Pattern.compile("[-a-z0-9]+");
    private static final Pattern PORT_NAME_LETTER = Pattern.compile(".*[a-z].*");
    private static final Pattern HTTP_HEADER_NAME = Pattern.compile("[-A-Za-z0-9]+");
    private static final String QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and "
            + "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
            + "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    private static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
            + "'example.com', regex used for validation is "
            + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    private KubeNames() {
    }

    static List<String> qualifiedNameProblems(String value) {
        List<String> problems = new ArrayList<>();
        String v = value == null ? "" : value;
        String[] parts = v.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                problems.add("prefix part must be non-empty");
            } else {
                for (String p : subdomainProblems(prefix)) {
                    problems.add("prefix part " + p);
                }
            }
        } else {
            problems.add("a qualified name " + QUALIFIED_NAME_MSG + " with an optional DNS subdomain prefix and '/' "
                    + "(e.g. 'example.com/MyName')");
            return problems;
        }
        if (name.isEmpty()) {
            problems.add("name part must be non-empty");
        } else if (name.length() > 63) {
            problems.add("name part must be no more than 63 characters");
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            problems.add("name part " + QUALIFIED_NAME_MSG);
        }
        return problems;
    }

    static List<String> subdomainProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (value.length() > 253) {
            problems.add("must be no more than 253 characters");
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            problems.add(SUBDOMAIN_MSG);
        }
        return problems;
    }

    static List<String> labelValueProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (value == null || value.isEmpty()) {
            return problems;
        }
        if (value.length() > 63) {
            problems.add("must be no more than 63 characters");
        }
        if (!QUALIFIED_NAME.matcher(value).matches()) {
            problems.add("a valid label must be an empty string or " + QUALIFIED_NAME_MSG);
        }
        return problems;
    }

    static List<String> portNameProblems(String port) {
        List<String> problems = new ArrayList<>();
        if (port.length() > 15) {
            problems.add("must be no more than 15 characters");
        }
        if (!PORT_NAME_CHARS.matcher(port).matches()) {
            problems.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (!PORT_NAME_LETTER.matcher(port).matches()) {
            problems.add("must contain at least one letter (a-z)");
        }
        if (port.contains("--")) {
            problems.add("must not contain consecutive hyphens");
        }
        if (!port.isEmpty() && (port.startsWith("-") || port.endsWith("-"))) {
            problems.add("must not begin or end with a hyphen");
        }
        return problems;
    }

    static List<String> portNumberProblems(long port) {
        return port >= 1 && port <= 65535 ? List.of() : List.of("must be between 1 and 65535, inclusive");
    }

    static List<String> httpHeaderNameProblems(String name) {
        return name != null && HTTP_HEADER_NAME.matcher(name).matches() ? List.of()
                : List.of("a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', "
                + "regex used for validation is '[-A-Za-z0-9]+')");
    }

    /** Go's url.Parse refusals that a probe path can hit: a bad %-escape, a control character, a leading ':'. */
    static boolean isParsableUrlPath(String path) {
        if (path.startsWith(":")) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return false;
            }
            if (c == '%') {
                if (i + 2 >= path.length() || !isHex(path.charAt(i + 1)) || !isHex(path.charAt(i + 2))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
