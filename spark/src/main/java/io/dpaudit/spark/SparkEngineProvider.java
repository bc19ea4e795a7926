package io.dpaudit.spark;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.PhaseEngine;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.engine.EngineProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * {@code --engine spark}: opens a Spark context on {@code --master} (default: what spark-submit configured, else
 * {@code local[*]}) after checking that a standalone master ({@code spark://host:port}) answers within 5 s — an
 * unreachable master is a one-line refusal (exit 2), not minutes of retries.
 */
public final class SparkEngineProvider implements EngineProvider {
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public Session open(ScenarioAudit.Prepared prepared, String scenarioText, String master, int partitions,
            ProgressListener progress) {
        if (System.getProperty("log4j2.configurationFile") == null) {
            // Spark's own logging at WARN (it prints about a hundred INFO lines otherwise), unless the user configured
            // Log4j. Set before Spark's first class logs anything.
            System.setProperty("log4j2.configurationFile", "io/dpaudit/spark/log4j2-warn.properties");
        }
        SparkConf conf = new SparkConf();
        String url = master != null ? master : conf.get("spark.master", "local[*]");
        checkMaster(url);
        conf.setMaster(url).setAppName("dp-audit " + prepared.scenario().name());
        if (url.startsWith("local")) {
            conf.set("spark.ui.enabled", "false");
        } else if (!conf.contains("spark.jars")) {
            // Not under spark-submit: ship the jars that hold dp-audit's classes to the executors.
            conf.setJars(dpAuditJars());
        }
        JavaSparkContext sc = new JavaSparkContext(conf);
        PhaseEngine engine = new SparkPhaseEngine(sc, scenarioText, prepared.settings().trialsPerWorld(),
                prepared.settings().seed(), prepared.lossScorer() != null, prepared.scenario().stopping().sequential(),
                prepared.lossScorer(),
                prepared.settings().shardTrials(), partitions, progress);
        return new Session() {
            @Override
            public PhaseEngine engine() {
                return engine;
            }

            @Override
            public void close() {
                sc.stop();
            }
        };
    }

    /**
     * The jars (or class directories, which Spark cannot ship) that hold dp-audit's classes: the command-line jar and
     * this engine's jar when run by the launcher.
     */
    static String[] dpAuditJars() {
        java.util.LinkedHashSet<String> jars = new java.util.LinkedHashSet<>();
        for (Class<?> c : new Class<?>[] {SparkEngineProvider.class, ScenarioAudit.class, PhaseEngine.class}) {
            try {
                java.security.CodeSource source = c.getProtectionDomain().getCodeSource();
                if (source != null && source.getLocation().getPath().endsWith(".jar")) {
                    jars.add(java.nio.file.Path.of(source.getLocation().toURI()).toString());
                }
            } catch (java.net.URISyntaxException | SecurityException e) {
                // a class without a jar of its own: the class path must already hold it
            }
        }
        for (String entry : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
            java.nio.file.Path fileName = java.nio.file.Path.of(entry).getFileName();
            String name = fileName == null ? "" : fileName.toString();
            if (name.equals("dp-audit.jar") || name.equals("dp-audit-spark.jar")) {
                jars.add(entry);
            }
        }
        return jars.toArray(String[]::new);
    }

    /** A master URL Spark knows, and for a standalone cluster one that answers. */
    static void checkMaster(String url) {
        if (url.startsWith("local")) {
            if (!url.matches("local(\\[(\\*|[1-9][0-9]*)(,\\s*[0-9]+)?\\])?")) {
                throw new InvalidInputException("--master", url, "not a Spark master URL (local, local[N], local[*], "
                        + "spark://HOST:PORT, yarn, k8s://...)");
            }
            return;
        }
        if (url.equals("yarn") || url.startsWith("k8s://") || url.startsWith("mesos://")) {
            return; // the cluster manager's own checks apply
        }
        if (!url.startsWith("spark://")) {
            throw new InvalidInputException("--master", url, "not a Spark master URL (local, local[N], local[*], "
                    + "spark://HOST:PORT, yarn, k8s://...)");
        }
        IOException last = null;
        for (String hostPort : url.substring("spark://".length()).split(",")) {
            int colon = hostPort.lastIndexOf(':');
            String host = colon > 0 ? hostPort.substring(0, colon) : hostPort;
            int port;
            try {
                port = colon > 0 ? Integer.parseInt(hostPort.substring(colon + 1)) : 7077;
            } catch (NumberFormatException e) {
                throw new InvalidInputException("--master", url, "has no valid port");
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
                return;
            } catch (IOException e) {
                last = e;
            }
        }
        throw new InvalidInputException("--master", url, "unreachable (" + (last == null ? "no host" : last.getMessage())
                + ")");
    }
}
