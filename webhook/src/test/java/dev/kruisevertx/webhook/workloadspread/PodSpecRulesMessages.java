package dev.kruisevertx.webhook.workloadspread;

/** Kubernetes' message texts the table of SubsetPatchCheckTest expects, spelled out once. */
final class PodSpecRulesMessages {
    static final String ENV_NAME = "a valid environment variable name must consist of alphabetic characters, "
            + "digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or "
            + "'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
    static final String LABEL_SYNTAX = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            + "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    static final String SUBDOMAIN_SYNTAX = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    private PodSpecRulesMessages() {
    }
}
