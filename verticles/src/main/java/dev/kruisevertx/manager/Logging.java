package dev.kruisevertx.manager;

/**
 * Chooses the log4j2 configuration before the first logger is created: {@code --log-format text|json} and
 * klog-style {@code -v} (0-4 info as in the chart's default, 5-6 debug, 7+ trace).
 */
final class Logging {
    private Logging() {
    }

    static void configure(String format, int verbosity) {
        System.setProperty("log4j2.configurationFile", "json".equals(format) ? "log4j2-json.xml" : "log4j2-text.xml");
        String level = verbosity >= 7 ? "TRACE" : verbosity >= 5 ? "DEBUG" : "INFO";
        System.setProperty("kruise.log.level", level);
        // Vert.x and fabric8 log through SLF4J; make Vert.x pick it too.
        System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.SLF4JLogDelegateFactory");
    }
}
