package io.dpaudit.runner.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.PhaseCounts;
import io.dpaudit.core.engine.PhaseStore;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.TrialKind;
import io.dpaudit.runner.json.JsonNumbers;
import io.dpaudit.runner.output.OutputTargets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A checkpoint file: the merged counts of the completed shards of every counted phase of one audit, with what
 * identifies the audit (scenario file SHA-256, seed, trials, tool version), written atomically (a temporary file
 * renamed over the previous one) at most every {@value #INTERVAL_SECONDS} seconds, at the end of each phase, and once
 * more when the process is asked to stop. A run resumed from it skips the completed shards (their streams are skipped
 * too) and gives exactly the report an uninterrupted run gives.
 *
 * <p>Layout (JSON): {@code {format, version, toolVersion, scenarioSha256, seed, trials, stopping, phases: {NAME: {shardsDone,
 * shardCount, trials, binning: {lo, hi, bins, exact}, withCanary: {slots, counts}, withoutCanary: {slots,
 * counts}, trialKind}}, sha256}}, counts sparse (non-zero slots only), one histogram per name of the phase's kind of
 * trial ({@link TrialKind#histogramNames()}). A phase of coupled trials ({@code simulator.coupling}, {@code trialKind:
 * coupled}) also has the histograms of each trial's smaller and larger score, {@code smaller} and {@code larger} (see
 * {@link io.dpaudit.core.engine.CoupledCounts}); its {@code trials} are coupled trials.
 */
public final class Checkpoint implements PhaseStore {
    /** The value of the file's {@code format} field. */
    public static final String FORMAT = "dp-audit checkpoint";
    /** Seconds between writes while a phase runs. */
    public static final int INTERVAL_SECONDS = 5;
    /** The interval in nanoseconds; tests shorten it with {@code -Ddpaudit.checkpoint.intervalMillis}. */
    private static final long INTERVAL_NANOS = Long.getLong("dpaudit.checkpoint.intervalMillis",
            INTERVAL_SECONDS * 1000L) * 1_000_000L;
    private static final ObjectMapper MAPPER = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
    /** The field holding the SHA-256 of the rest of the checkpoint. */
    static final String CHECKSUM = "sha256";
    /** The phases a checkpoint may hold: the counted phases of an audit (Auditor's engine runs). */
    private static final java.util.Set<String> PHASES = java.util.Set.of("selection", "evaluation", "estimate");
    /** The later stages of a sequential audit, the attack's and the estimate's ({@code stage-2}, ...). */
    private static final java.util.regex.Pattern STAGES = java.util.regex.Pattern.compile(
            "(estimate-)?stage-([2-9]|[1-5][0-9]|6[0-4])");

    /**
     * What identifies an audit.
     *
     * @param toolVersion the dp-audit version
     * @param scenarioSha256 SHA-256 of the scenario file's bytes
     * @param seed the root seed
     * @param trials trials per world (the budget of a sequential audit)
     * @param stopping the design ({@code io.dpaudit.core.audit.Stopping#describe}): the stages a sequential audit
     *     runs depend on it, so a resume must run the same
     */
    public record Identity(String toolVersion, String scenarioSha256, long seed, long trials, String stopping) {
    }

    /** One phase's state: the merged counts of its first {@code shardsDone} shards, of its kind of trial. */
    private record PhaseState(long shardsDone, long shardCount, TrialKind<?> kind, PhaseCounts<?> counts) {
        HistogramBinning binning() {
            return counts.binning();
        }

        long trials() {
            return counts.trials();
        }
    }

    private final Path file;
    /** The option that named {@link #file}, for messages. */
    private final String field;
    private final Identity identity;
    private final Map<String, PhaseState> phases = new LinkedHashMap<>();
    private final Map<String, PhaseState> restored;
    private long lastWrite = System.nanoTime();

    private Checkpoint(String field, Path file, Identity identity, Map<String, PhaseState> restored) {
        OutputTargets.requireReplaceable(field, file);
        this.field = field;
        this.file = file;
        this.identity = identity;
        this.restored = restored;
    }

    /** The file this checkpoint is written to. */
    public Path file() {
        return file;
    }

    /**
     * A new checkpoint written to {@code file}, which must be absent or a regular file.
     *
     * @throws InvalidInputException naming {@code --checkpoint} when {@code file} is a device, a FIFO, a socket, a
     *     directory or a symbolic link
     */
    public static Checkpoint create(Path file, Identity identity) {
        return new Checkpoint("--checkpoint", file, identity, Map.of());
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
            // a regular file under the size cap, as UTF-8 text (a device or FIFO is refused before it is opened)
            root = MAPPER.readTree(io.dpaudit.runner.input.InputFiles.readText(option, file,
                    io.dpaudit.runner.input.InputFiles.MAX_TEXT_BYTES));
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
        // written before sequential audits existed: a fixed design
        check(option, file, "stopping rule", root.path("stopping").asText("fixed"), identity.stopping());
        verifyChecksum(option, file, root); // after the identity, whose mismatch says more than "edited"
        Map<String, PhaseState> states = new LinkedHashMap<>();
        if (!root.path("phases").isObject()) {
            throw new InvalidInputException(option, file, "is not a dp-audit checkpoint (phases is not an object)");
        }
        for (var it = root.path("phases").fields(); it.hasNext(); ) {
            var e = it.next();
            if (!PHASES.contains(e.getKey()) && !STAGES.matcher(e.getKey()).matches()) {
                throw new InvalidInputException(option, file, "names an unknown phase " + e.getKey());
            }
            JsonNode p = e.getValue();
            JsonNode b = p.path("binning");
            HistogramBinning binning;
            try {
                binning = new HistogramBinning(JsonNumbers.decode(b.get("lo")), JsonNumbers.decode(b.get("hi")),
                        b.path("bins").asInt());
            } catch (RuntimeException ex) {
                throw new InvalidInputException(option, file, "holds an invalid histogram in phase " + e.getKey());
            }
            long shardsDone = p.path("shardsDone").asLong(-1);
            long shardCount = p.path("shardCount").asLong(-1);
            // "trialKind" names it; a checkpoint written before it was named marks coupled phases "coupled": true
            String id = p.path("trialKind").asText(p.path("coupled").asBoolean(false) ? TrialKind.COUPLED.id()
                    : TrialKind.INDEPENDENT.id());
            TrialKind<?> kind = TrialKind.byId(id);
            if (kind == null) {
                throw new InvalidInputException(option, file, "names an unknown kind of trial " + id + " in phase "
                        + e.getKey());
            }
            PhaseState state = new PhaseState(shardsDone, shardCount, kind, counts(option, file, e.getKey(), p, kind,
                    binning));
            if (shardsDone < 0 || shardCount < 1 || shardsDone > shardCount || state.trials() < 0) {
                throw new InvalidInputException(option, file, "holds an impossible state in phase " + e.getKey()
                        + " (" + shardsDone + " of " + shardCount + " shards)");
            }
            states.put(e.getKey(), state);
        }
        Checkpoint c = new Checkpoint(writeTo.equals(file) ? option : "--checkpoint", writeTo, identity, states);
        c.phases.putAll(states);
        return c;
    }

    /**
     * A phase's histograms, by its kind's names, refused unless they could have come from trials of that kind (the
     * worlds' totals equal for trials of each world apart; the coupled histograms consistent with one another).
     */
    private static PhaseCounts<?> counts(String option, Path file, String phase, JsonNode p, TrialKind<?> kind,
            HistogramBinning binning) {
        List<String> names = kind.histogramNames();
        long[][] arrays = new long[names.size()][];
        for (int h = 0; h < arrays.length; h++) {
            arrays[h] = dense(option, file, p.path(names.get(h)), binning.slots());
        }
        try {
            return kind.fromHistograms(binning, arrays);
        } catch (IllegalArgumentException | ArithmeticException ex) {
            throw new InvalidInputException(option, file, "holds impossible counts of " + kind.description()
                    + " in phase "
                    + phase + " (" + ex.getMessage() + ")");
        }
    }

    private static void check(String option, Path file, String what, String saved, String now) {
        if (!saved.equals(now)) {
            throw new InvalidInputException(option, file, "is a checkpoint of another audit: its " + what + " is "
                    + saved + ", this run's " + now);
        }
    }

    private static long[] dense(String option, Path file, JsonNode side, int slots) {
        long[] out = new long[slots];
        JsonNode s = side.path("slots");
        JsonNode c = side.path("counts");
        if (!s.isArray() || !c.isArray() || s.size() != c.size()) {
            throw new InvalidInputException(option, file, "holds slots and counts of different lengths");
        }
        for (int i = 0; i < s.size(); i++) {
            long slot = s.get(i).asLong(-1);
            long count = c.get(i).asLong(-1);
            if (!s.get(i).canConvertToLong() || slot < 0 || slot >= slots || count < 0 || out[(int) slot] != 0) {
                throw new InvalidInputException(option, file, "holds an impossible count (slot " + s.get(i) + ", count "
                        + c.get(i) + ")");
            }
            out[(int) slot] = count;
        }
        return out;
    }

    /**
     * Refuses a checkpoint whose content is not what dp-audit wrote: the SHA-256 of its JSON (without this field,
     * serialised as written) must match {@value #CHECKSUM}, so that an edit (counts shifted between slots with the
     * totals kept, say) or a corruption is caught, not resumed into a report that rests on counts never drawn.
     */
    private static void verifyChecksum(String option, Path file, JsonNode root) {
        if (!(root instanceof ObjectNode o) || !o.path(CHECKSUM).isTextual()) {
            throw new InvalidInputException(option, file, "has no checksum (not written by this version?)");
        }
        ObjectNode copy = o.deepCopy();
        String saved = copy.remove(CHECKSUM).asText();
        String now;
        try {
            now = sha256(MAPPER.writeValueAsString(copy));
        } catch (IOException e) {
            throw new InvalidInputException(option, file, "cannot be checked (" + e.getMessage() + ")");
        }
        if (!now.equals(saved)) {
            throw new InvalidInputException(option, file, "was edited or corrupted since dp-audit wrote it (its "
                    + "SHA-256 does not match); refused");
        }
    }

    private static String sha256(String text) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    @Override
    public synchronized <C extends PhaseCounts<C>> ShardedPhase.Resume<C> restore(String phase, TrialKind<C> kind,
            HistogramBinning binning, long trials) {
        PhaseState s = restored.get(phase);
        if (s == null) {
            return null;
        }
        if (s.kind() != kind) {
            throw new InvalidInputException("--resume", file, "its " + phase + " phase holds "
                    + s.kind().description() + ", this run's " + kind.description());
        }
        HistogramBinning b = s.binning();
        if (b.slots() != binning.slots() || Double.compare(b.lo(), binning.lo()) != 0
                || Double.compare(b.hi(), binning.hi()) != 0) {
            throw new InvalidInputException("--resume", file, "its " + phase + " histogram differs from this run's "
                    + "(another attack or version?)");
        }
        return new ShardedPhase.Resume<>(s.shardsDone(), kind.cast(s.counts()));
    }

    @Override
    public synchronized <C extends PhaseCounts<C>> void merged(String phase, TrialKind<C> kind, long shardsDone,
            long shardCount, C counts) {
        keep(phase, new PhaseState(shardsDone, shardCount, kind, counts.copy()));
    }

    private void keep(String phase, PhaseState state) {
        phases.put(phase, state);
        boolean end = state.shardsDone() >= state.shardCount();
        if (end || System.nanoTime() - lastWrite >= INTERVAL_NANOS) {
            write();
        }
    }

    /** Writes a histogram's non-zero slots and their counts into {@code side}. */
    private static void sparse(ObjectNode side, int slotCount, java.util.function.IntToLongFunction count) {
        ArrayNode slots = side.putArray("slots");
        ArrayNode counts = side.putArray("counts");
        for (int i = 0; i < slotCount; i++) {
            long c = count.applyAsLong(i);
            if (c != 0) {
                slots.add(i);
                counts.add(c);
            }
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
        root.put("stopping", identity.stopping());
        ObjectNode ph = root.putObject("phases");
        for (Map.Entry<String, PhaseState> e : phases.entrySet()) {
            PhaseState s = e.getValue();
            ObjectNode o = ph.putObject(e.getKey());
            o.put("shardsDone", s.shardsDone());
            o.put("shardCount", s.shardCount());
            o.put("trials", s.trials());
            HistogramBinning b = s.binning();
            ObjectNode bn = o.putObject("binning");
            bn.set("lo", JsonNumbers.encode(b.lo()));
            bn.set("hi", JsonNumbers.encode(b.hi()));
            bn.put("bins", b.bins());
            bn.put("exact", b.exact());
            o.put("trialKind", s.kind().id());
            long[][] histograms = s.counts().histograms();
            List<String> names = s.kind().histogramNames();
            for (int h = 0; h < histograms.length; h++) {
                long[] hist = histograms[h];
                sparse(o.putObject(names.get(h)), b.slots(), i -> hist[i]);
            }
        }
        OutputTargets.requireReplaceable(field, file); // again: the name may have changed since the run began
        Path tmp = null;
        try {
            Path dir = file.toAbsolutePath().getParent();
            Path name = file.getFileName();
            if (dir == null || name == null) {
                throw new InvalidInputException(field, file, "is not a file's path");
            }
            tmp = Files.createTempFile(dir, "." + name + ".", ".tmp");
            root.put(CHECKSUM, sha256(MAPPER.writeValueAsString(root)));
            Files.writeString(tmp, MAPPER.writeValueAsString(root) + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            lastWrite = System.nanoTime();
        } catch (IOException e) {
            throw new InvalidInputException(field, file, "cannot be written (" + OutputTargets.reason(e) + ")");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp); // a full file system leaves no partial temporary file behind
                } catch (IOException ignored) {
                    // nothing more can be done; the message above says why the write failed
                }
            }
        }
    }
}
