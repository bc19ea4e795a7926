package io.dpaudit.reports.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A headless Chromium driven over the DevTools protocol (a WebSocket, JSON messages) with nothing but the JDK and
 * Jackson: load a page, read what it renders ({@code document.body.innerText}, in which table cells are separated by
 * tabs and Markdown source would show as pipes), evaluate an expression, take a screenshot. For tests of report.html.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final long TIMEOUT_SECONDS = 60;

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> events = new ConcurrentHashMap<>();

    /** The Chromium executable: {@code $DPAUDIT_CHROMIUM}, else the first of the usual names on the PATH; or null. */
    static Path find() {
        String configured = System.getenv("DPAUDIT_CHROMIUM");
        if (configured != null && Files.isExecutable(Path.of(configured))) {
            return Path.of(configured);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : new String[] {"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    HeadlessChromium(Path executable) throws Exception {
        profile = Files.createTempDirectory("dp-audit-chromium");
        process = new ProcessBuilder(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-quic", "--hide-scrollbars", "--remote-debugging-port=0", "--user-data-dir=" + profile,
                "about:blank").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String browserUrl = awaitListening();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        URI base = URI.create(browserUrl.replaceFirst("^ws://([^/]+)/.*$", "http://$1"));
        String pageUrl = null;
        for (int attempt = 0; attempt < 100 && pageUrl == null; attempt++) {
            String list = http.send(HttpRequest.newBuilder(base.resolve("/json/list")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            for (JsonNode t : JSON.readTree(list)) {
                if ("page".equals(t.path("type").asText())) {
                    pageUrl = t.path("webSocketDebuggerUrl").asText();
                }
            }
            if (pageUrl == null) {
                Thread.sleep(50);
            }
        }
        if (pageUrl == null) {
            throw new IOException("Chromium opened no page target");
        }
        socket = http.newWebSocketBuilder().buildAsync(URI.create(pageUrl), new Listener())
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        call("Page.enable", JSON.createObjectNode());
    }

    private String awaitListening() throws IOException {
        BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        String line;
        while (System.nanoTime() < deadline && (line = err.readLine()) != null) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        while (err.readLine() != null) {
                            // keep the pipe empty
                        }
                    } catch (IOException ignored) {
                        // the browser has gone
                    }
                }, "chromium-stderr");
                drain.setDaemon(true);
                drain.start();
                return m.group(1);
            }
        }
        throw new IOException("Chromium did not report a DevTools endpoint");
    }

    /** Loads a file and waits for its load event. */
    void load(Path file) throws Exception {
        CompletableFuture<JsonNode> loaded = new CompletableFuture<>();
        events.put("Page.loadEventFired", loaded);
        ObjectNode p = JSON.createObjectNode().put("url", file.toUri().toString());
        call("Page.navigate", p);
        loaded.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Sets the viewport (CSS pixels). */
    void viewport(int width, int height) throws Exception {
        call("Emulation.setDeviceMetricsOverride", JSON.createObjectNode().put("width", width).put("height", height)
                .put("deviceScaleFactor", 1).put("mobile", false));
    }

    /** Evaluates a JavaScript expression in the page and returns its value as JSON. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true));
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException("page script failed: " + r.get("exceptionDetails"));
        }
        return r.path("result").path("value");
    }

    /** The text the page renders. */
    String renderedText() throws Exception {
        return evaluate("document.body.innerText").asText();
    }

    /** A PNG screenshot of the whole page. */
    void screenshot(Path png) throws Exception {
        JsonNode r = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png")
                .put("captureBeyondViewport", true));
        Files.write(png, Base64.getDecoder().decode(r.path("data").asText()));
    }

    private JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params);
        socket.sendText(JSON.writeValueAsString(msg), true).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        JsonNode r = reply.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new IllegalStateException(method + " failed: " + r.get("error"));
        }
        return r.path("result");
    }

    @Override
    public void close() throws Exception {
        try {
            if (socket != null) {
                socket.abort();
            }
        } finally {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            try (var files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Routes replies to their calls and events to whoever waits for them. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode m = JSON.readTree(partial.toString());
                    if (m.has("id")) {
                        CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
                        if (f != null) {
                            f.complete(m);
                        }
                    } else if (m.has("method")) {
                        CompletableFuture<JsonNode> f = events.remove(m.get("method").asText());
                        if (f != null) {
                            f.complete(m);
                        }
                    }
                } catch (IOException e) {
                    pending.values().forEach(f -> f.completeExceptionally(e));
                }
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }
    }
}
