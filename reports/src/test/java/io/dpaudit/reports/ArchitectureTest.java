package io.dpaudit.reports;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house rules on structure, read from the sources of every module: inside a module no two packages depend on each
 * other, directly or through others (the package graph has no cycle); no main class is 600 lines or more. A
 * dependency is a reference to another package's class in code — an import or a fully qualified name — not a mention
 * in a comment or javadoc.
 */
class ArchitectureTest {
    private static final List<String> MODULES = List.of("audit-core", "mechanisms", "attacks", "runner", "reports",
            "junit", "spark");
    private static final int MAX_LINES = 600;
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.dpaudit(?:\\.[a-z]\\w*)+)\\.([A-Z]\\w*)");

    private static List<Path> sources(String module) throws IOException {
        Path root = Path.of("..", module, "src", "main", "java");
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    private static String code(String text) {
        return text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
    }

    @Test
    void noModuleHasAPackageCycle() throws IOException {
        List<String> cycles = new ArrayList<>();
        for (String module : MODULES) {
            Map<String, Set<String>> graph = new TreeMap<>();
            Set<String> packages = new HashSet<>();
            Map<Path, String> packageOf = new HashMap<>();
            for (Path f : sources(module)) {
                Matcher m = PACKAGE.matcher(Files.readString(f, StandardCharsets.UTF_8));
                if (m.find()) {
                    packages.add(m.group(1));
                    packageOf.put(f, m.group(1));
                }
            }
            for (Map.Entry<Path, String> e : packageOf.entrySet()) {
                Matcher m = REFERENCE.matcher(code(Files.readString(e.getKey(), StandardCharsets.UTF_8)));
                while (m.find()) {
                    String target = m.group(1);
                    if (!target.equals(e.getValue()) && packages.contains(target)) {
                        graph.computeIfAbsent(e.getValue(), k -> new TreeSet<>()).add(target);
                    }
                }
            }
            for (String p : graph.keySet()) {
                List<String> path = cycleFrom(p, graph);
                if (path != null) {
                    cycles.add(module + ": " + String.join(" -> ", path));
                }
            }
        }
        assertTrue(cycles.isEmpty(), "package cycles: " + cycles);
    }

    /** A path from {@code start} back to itself, or null (depth-first search). */
    private static List<String> cycleFrom(String start, Map<String, Set<String>> graph) {
        Deque<List<String>> stack = new ArrayDeque<>();
        stack.push(List.of(start));
        Set<String> seen = new HashSet<>();
        while (!stack.isEmpty()) {
            List<String> path = stack.pop();
            String last = path.get(path.size() - 1);
            for (String next : graph.getOrDefault(last, Set.of())) {
                if (next.equals(start)) {
                    List<String> cycle = new ArrayList<>(path);
                    cycle.add(start);
                    return cycle;
                }
                if (seen.add(next)) {
                    List<String> longer = new ArrayList<>(path);
                    longer.add(next);
                    stack.push(longer);
                }
            }
        }
        return null;
    }

    @Test
    void noMainClassReachesSixHundredLines() throws IOException {
        List<String> large = new ArrayList<>();
        for (String module : MODULES) {
            for (Path f : sources(module)) {
                long lines = Files.readAllLines(f, StandardCharsets.UTF_8).size();
                if (lines >= MAX_LINES) {
                    large.add(f + " (" + lines + " lines)");
                }
            }
        }
        assertTrue(large.isEmpty(), "split these: " + large);
    }
}
