package io.dpaudit.core;

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
        m.put("processors", Integer.toString(Runtime.getRuntime().availableProcessors()));
        m.put("commonsRng", libraryVersion("org.apache.commons", "commons-rng-simple",
                org.apache.commons.rng.simple.RandomSource.class));
        m.put("commonsMath3", libraryVersion("org.apache.commons", "commons-math3",
                org.apache.commons.math3.util.FastMath.class));
        m.put("commonsNumbers", libraryVersion("org.apache.commons", "commons-numbers-gamma",
                org.apache.commons.numbers.gamma.Erfc.class));
        m.put("jackson", libraryVersion("com.fasterxml.jackson.core", "jackson-databind", null));
        return m;
    }

    /**
     * The version of a library on the class path: its Maven metadata ({@code META-INF/maven/GROUP/ARTIFACT/
     * pom.properties}, which each library jar carries and the shaded jar keeps, one per artifact), else the
     * manifest's implementation version of {@code probe}'s package (which a shaded jar does not keep), else
     * {@code "unknown"}.
     */
    public static String libraryVersion(String group, String artifact, Class<?> probe) {
        String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        ClassLoader loader = ToolInfo.class.getClassLoader();
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(resource)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank()) {
                    return v.trim();
                }
            }
        } catch (IOException e) {
            // fall through to the manifest
        }
        String v = probe == null ? null : probe.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /**
     * The git commit the running build was made from, with {@code -dirty} when the checkout had uncommitted changes,
     * from {@code /io/dpaudit/git.properties} (written at build time by the reports module); null when the build was
     * not made from a checkout.
     */
    public static String gitCommit() {
        try (InputStream in = ToolInfo.class.getResourceAsStream("/io/dpaudit/git.properties")) {
            if (in == null) {
                return null;
            }
            Properties p = new Properties();
            p.load(in);
            String id = p.getProperty("git.commit.id");
            if (id == null || id.isBlank()) {
                return null;
            }
            return id + ("true".equals(p.getProperty("git.dirty")) ? "-dirty" : "");
        } catch (IOException e) {
            return null;
        }
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
