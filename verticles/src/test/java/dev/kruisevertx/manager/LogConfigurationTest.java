package dev.kruisevertx.manager;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manager's log configurations: what fabric8's informers and leader election log with an exception when the API
 * server cannot be reached (an expected condition during an outage or a partition) is one line, without a stack trace.
 */
class LogConfigurationTest {
    private static final String LEADER_ELECTOR = "io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector";
    private static final String REFLECTOR = "io.fabric8.kubernetes.client.informers.impl.cache.Reflector";
    private static final String WATCH_MANAGER = "io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager";

    private static Configuration load(String resource) throws IOException {
        try (InputStream in = LogConfigurationTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource);
            XmlConfiguration config = new XmlConfiguration(new LoggerContext("test-" + resource),
                    new ConfigurationSource(in));
            config.initialize();
            return config;
        }
    }

    private static LogEvent warningWithException(String logger) {
        Exception cause = new java.net.ConnectException("Connection refused");
        Exception e = new IllegalStateException("Failure executing: GET at: http://127.0.0.1:1/apis/coordination.k8s.io/v1/"
                + "namespaces/kruise-system/leases/kruise-manager. Message: the API server could not be reached.", cause);
        return Log4jLogEvent.newBuilder().setLoggerName(logger).setLevel(Level.WARN)
                .setMessage(new SimpleMessage("Exception occurred while acquiring lock 'LeaseLock' retrying...")).setThrown(e)
                .setTimeMillis(0).build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"log4j2-text.xml", "log4j2-json.xml"})
    void fabric8sExpectedFailuresAreOneLineWithoutAStackTrace(String resource) throws IOException {
        Configuration config = load(resource);
        for (String logger : new String[]{LEADER_ELECTOR, REFLECTOR, WATCH_MANAGER}) {
            LoggerConfig lc = config.getLoggerConfig(logger);
            assertFalse(lc.isAdditive(), logger + " goes to its own appender only");
            assertTrue(lc.getLevel().isLessSpecificThan(Level.WARN), logger + " warnings still show");
            Map<String, Appender> appenders = lc.getAppenders();
            assertEquals(1, appenders.size(), appenders.toString());
            Appender appender = appenders.values().iterator().next();
            String line = new String(appender.getLayout().toByteArray(warningWithException(logger)), StandardCharsets.UTF_8);
            assertTrue(line.endsWith("\n"), line);
            assertFalse(line.substring(0, line.length() - 1).contains("\n"), "one line: " + line);
            assertFalse(line.contains("\tat ") || line.contains("LogConfigurationTest"), "no stack trace: " + line);
            assertTrue(line.contains("retrying"), line);
            if (resource.contains("text")) {
                assertTrue(line.contains("the API server could not be reached"), "the reason is kept: " + line);
            }
        }
        // Everything else keeps its stack traces.
        Appender root = config.getRootLogger().getAppenders().values().iterator().next();
        String other = new String(root.getLayout().toByteArray(warningWithException("dev.kruisevertx.Other")),
                StandardCharsets.UTF_8);
        assertTrue(other.contains("LogConfigurationTest"), other);
    }
}
