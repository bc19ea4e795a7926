package io.dpaudit.spark;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.PhaseEngine;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.ScenarioAudit;
import io.dpaudit.reports.engine.EngineProvider;
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
        SparkConf conf = new SparkConf();
        String url = master != null ? master : conf.get("spark.master", "local[*]");
        checkMaster(url);
        conf.setMaster(url).setAppName("dp-audit " + prepared.scenario().name());
        if (url.startsWith("local")) {
            conf.set("spark.ui.enabled", "false");
        }
        JavaSparkContext sc = new JavaSparkContext(conf);
        PhaseEngine engine = new SparkPhaseEngine(sc, scenarioText, prepared.settings().trialsPerWorld(),
                prepared.settings().seed(), prepared.lossScorer() != null, prepared.lossScorer(),
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
