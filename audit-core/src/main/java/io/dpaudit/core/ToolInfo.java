package io.dpaudit.core;

import io.dpaudit.core.rng.RandomStreams;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** Name and version of dp-audit and of the environment it runs in, for report provenance. */
public final class ToolInfo {
    /** Tool name. */
    public static final String NAME = "dp-audit";

    private static final String VERSION = loadVersion();

    private ToolInfo() {
    }

    /** The dp-audit version (the Maven project version). */
    public static String version() {
        return VERSION;
    }

    /** Versions of the runtime and of the libraries that determine the numbers. */
    public static Map<String, String> environment() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("java", System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("commonsRng", RandomStreams.version());
        Package math = org.apache.commons.math3.util.FastMath.class.getPackage();
        m.put("commonsMath3", math.getImplementationVersion() == null ? "unknown" : math.getImplementationVersion());
        return m;
    }

    private static String loadVersion() {
        try (InputStream in = ToolInfo.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
