package io.dpaudit.reports.report;

import io.dpaudit.core.ToolInfo;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * Where a report comes from, for report.json's {@code provenance}: when the run started (ISO 8601, UTC), the
 * command line, the SHA-256 of the scenario file's bytes, the commit the tool was built from and the total wall time,
 * so that a report can be matched to the exact input and code that produced it.
 *
 * @param startedAt start of the command, ISO 8601 in UTC
 * @param commandLine the command as typed ({@code dp-audit run ...}), arguments with spaces quoted
 * @param scenarioSha256 lower-case hex SHA-256 of the scenario file, or null when the scenario did not come from a file
 * @param gitCommit the commit the tool was built from ({@code -dirty} with uncommitted changes), or null
 * @param elapsedSeconds wall time from the command's start to the report (validation, bounds, trials, estimate)
 */
public record Provenance(String startedAt, String commandLine, String scenarioSha256, String gitCommit,
        double elapsedSeconds) {
    /** Version of report.json's layout; raised when a field changes meaning or goes away. */
    public static final int SCHEMA_VERSION = 2;

    /** Provenance of a command started at {@code start} with {@code args}, on a scenario file's {@code bytes}. */
    public static Provenance of(Instant start, List<String> args, byte[] scenarioBytes) {
        StringBuilder b = new StringBuilder("dp-audit");
        for (String a : args) {
            b.append(' ').append(a.isEmpty() || a.chars().anyMatch(c -> Character.isWhitespace(c) || c == '\'')
                    ? "'" + a.replace("'", "'\\''") + "'" : a);
        }
        return new Provenance(start.toString(), b.toString(), scenarioBytes == null ? null : sha256(scenarioBytes),
                ToolInfo.gitCommit(), Duration.between(start, Instant.now()).toNanos() / 1e9);
    }

    /** Lower-case hex SHA-256. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
