package io.dpaudit.runner.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.PhaseStore;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.MonteCarloEngine;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import io.dpaudit.runner.json.JsonNumbers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A checkpoint file: the merged counts of the completed shards of every counted phase of one audit, with what
 * identifies the audit (scenario file SHA-256, seed, trials, tool version), written atomically (a temporary file
 * renamed over the previous one) at most every {@value #INTERVAL_SECONDS} seconds, at the end of each phase, and once
 * more when the process is asked to stop. A run resumed from it skips the completed shards (their streams are skipped
 * too) and gives exactly the report an uninterrupted run gives.
 *
 * <p>Layout (JSON): {@code {format, version, toolVersion, scenarioSha256, seed, trials, phases: {NAME: {shardsDone,
 * shardCount, trials, binning: {lo, hi, bins, exact}, withCanary: {slots, counts}, withoutCanary: {slots,
 * counts}}}}}, counts sparse (non-zero slots only).
 */
public final class Checkpoint implements PhaseStore {
    /** The value of the file's {@code format} field. */
    public static final String FORMAT = "dp-audit checkpoint";
    /** Seconds between writes while a phase runs. */
    public static final int INTERVAL_SECONDS = 5;
    /** The interval in nanoseconds; tests shorten it with {@code -Ddpaudit.checkpoint.intervalMillis}. */
    private static final long INTERVAL_NANOS = Long.getLong("dpaudit.checkpoint.intervalMillis",
            INTERVAL_SECONDS * 1000L) * 1_000_000L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * What identifies an audit.
     *
     * @param toolVersion the dp-audit version
     * @param scenarioSha256 SHA-256 of the scenario file's bytes
     * @param seed the root seed
     * @param trials trials per world
     */
    public record Identity(String toolVersion, String scenarioSha256, long seed, long trials) {
    }

    private record PhaseState(long shardsDone, long shardCount, ScoreCounts counts) {
    }

    private final Path file;
    private final Identity identity;
    private final Map<String, PhaseState> phases = new LinkedHashMap<>();
    private final Map<String, PhaseState> restored;
    private long lastWrite = System.nanoTime();

    private Checkpoint(Path file, Identity identity, Map<String, PhaseState> restored) {
        this.file = file;
        this.identity = identity;
        this.restored = restored;
    }

    /** The file this checkpoint is written to. */
    public Path file() {
        return file;
    }

    /** A new checkpoint written to {@code file} (which need not exist). */
    public static Checkpoint create(Path file, Identity identity) {
        return new Checkpoint(file, identity, Map.of());
    }

    /**
     * The checkpoint in {@code file}, for a resumed run of the audit {@code identity}; it goes on writing to
     * {@code writeTo}.
     *
     * @throws InvalidInputException (naming {@code option}) when the file is not a checkpoint or belongs to another
     *     scenario, seed, trial count or tool version
     */
    public static Checkpoint resume(String option, Path file, Identity identity, Path writeTo) {
        JsonNode root;
        try {
            root = MAPPER.readTree(Files.readString(file));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new InvalidInputException(option, file, "file not found");
        } catch (IOException e) {
            throw new InvalidInputException(option, file, "is not a dp-audit checkpoint (" + e.getMessage()
                    .lines().findFirst().orElse("") + ")");
        }
        if (root == null || !FORMAT.equals(root.path("format").asText()) || root.path("version").asInt() != 1) {
            throw new InvalidInputException(option, file, "is not a dp-audit checkpoint (version 1)");
        }
        check(option, file, "tool version", root.path("toolVersion").asText(), identity.toolVersion());
        check(option, file, "scenario (SHA-256 of the file)", root.path("scenarioSha256").asText(),
                identity.scenarioSha256());
        check(option, file, "seed", root.path("seed").asText(), Long.toString(identity.seed()));
        check(option, file, "trials per world", root.path("trials").asText(), Long.toString(identity.trials()));
        Map<String, PhaseState> states = new LinkedHashMap<>();
        for (var it = root.path("phases").fields(); it.hasNext(); ) {
            var e = it.next();
            JsonNode p = e.getValue();
            JsonNode b = p.path("binning");
            HistogramBinning binning = new HistogramBinning(JsonNumbers.decode(b.get("lo")),
                    JsonNumbers.decode(b.get("hi")), b.path("bins").asInt());
            long[] with = dense(p.path("withCanary"), binning.slots());
            long[] without = dense(p.path("withoutCanary"), binning.slots());
            states.put(e.getKey(), new PhaseState(p.path("shardsDone").asLong(), p.path("shardCount").asLong(),
                    ScoreCounts.of(binning, with, without)));
        }
        Checkpoint c = new Checkpoint(writeTo, identity, states);
        c.phases.putAll(states);
        return c;
    }

    private static void check(String option, Path file, String what, String saved, String now) {
        if (!saved.equals(now)) {
            throw new InvalidInputException(option, file, "is a checkpoint of another audit: its " + what + " is "
                    + saved + ", this run's " + now);
        }
    }

    private static long[] dense(JsonNode side, int slots) {
        long[] out = new long[slots];
        JsonNode s = side.path("slots");
        JsonNode c = side.path("counts");
        for (int i = 0; i < s.size(); i++) {
            out[s.get(i).asInt()] = c.get(i).asLong();
        }
        return out;
    }

    @Override
    public synchronized MonteCarloEngine.Resume restore(String phase, HistogramBinning binning, long trials) {
        PhaseState s = restored.get(phase);
        if (s == null) {
            return null;
        }
        HistogramBinning b = s.counts().binning();
        if (b.slots() != binning.slots() || Double.compare(b.lo(), binning.lo()) != 0
                || Double.compare(b.hi(), binning.hi()) != 0) {
            throw new InvalidInputException("--resume", file, "its " + phase + " histogram differs from this run's "
                    + "(another attack or version?)");
        }
        return new MonteCarloEngine.Resume(s.shardsDone(), s.counts());
    }

    @Override
    public synchronized void merged(String phase, long shardsDone, long shardCount, ScoreCounts counts) {
        phases.put(phase, new PhaseState(shardsDone, shardCount, counts.copy()));
        boolean end = shardsDone >= shardCount;
        if (end || System.nanoTime() - lastWrite >= INTERVAL_NANOS) {
            write();
        }
    }

    /** Writes the current state (atomically). */
    public synchronized void write() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", 1);
        root.put("toolVersion", identity.toolVersion());
        root.put("scenarioSha256", identity.scenarioSha256());
        root.put("seed", identity.seed());
        root.put("trials", identity.trials());
        ObjectNode ph = root.putObject("phases");
        for (Map.Entry<String, PhaseState> e : phases.entrySet()) {
            PhaseState s = e.getValue();
            ObjectNode o = ph.putObject(e.getKey());
            o.put("shardsDone", s.shardsDone());
            o.put("shardCount", s.shardCount());
            o.put("trials", s.counts().trials());
            HistogramBinning b = s.counts().binning();
            ObjectNode bn = o.putObject("binning");
            bn.set("lo", JsonNumbers.encode(b.lo()));
            bn.set("hi", JsonNumbers.encode(b.hi()));
            bn.put("bins", b.bins());
            bn.put("exact", b.exact());
            for (World w : World.values()) {
                ObjectNode side = o.putObject(w == World.WITH_CANARY ? "withCanary" : "withoutCanary");
                ArrayNode slots = side.putArray("slots");
                ArrayNode counts = side.putArray("counts");
                for (int i = 0; i < b.slots(); i++) {
                    long c = s.counts().count(w, i);
                    if (c != 0) {
                        slots.add(i);
                        counts.add(c);
                    }
                }
            }
        }
        try {
            Path dir = file.toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
            Files.writeString(tmp, MAPPER.writeValueAsString(root) + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            lastWrite = System.nanoTime();
        } catch (IOException e) {
            throw new InvalidInputException("--checkpoint", file, "cannot be written (" + e.getMessage() + ")");
        }
    }
}
