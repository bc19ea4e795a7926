package io.dpaudit.runner.scores;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ConfidenceSplit;
import io.dpaudit.core.audit.Judgement;
import io.dpaudit.core.audit.LookVerdicts;
import io.dpaudit.core.audit.SequentialRun;
import io.dpaudit.core.audit.StageSchedule;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.estimate.EmpiricalEstimator;
import io.dpaudit.core.estimate.ScoreMetrics;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.estimate.tradeoff.TradeOffCertification;
import io.dpaudit.core.rng.RandomStreams;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * An audit of two files of external scores, streamed in two passes so that memory does not grow with their length.
 *
 * <p><b>Split.</b> Each score of a file is assigned, by a draw from that file's own stream of the root seed (stream 0
 * for {@code --with}, 1 for {@code --without}; one {@code nextDouble()} per score, in file order), to the <i>range</i>
 * part with probability {@code f} — the held-out selection part ({@code f} = the hold-out fraction) or, with Bonferroni
 * selection, a pilot part ({@value #BONFERRONI_PILOT}) that is not counted — or to the evaluation part. The assignment
 * depends on the seed and the position, never on the scores or the file order of values, so the certifying part is
 * independent of everything that chose the test.
 *
 * <p><b>Pass 1</b> validates every score (a NaN or unparsable entry stops with its file and line), counts the scores,
 * computes each file's SHA-256, and fixes the histogram from the range part only: its finite extremes widened by half
 * their span (as the engine's pilot does), or, when that part shows at most {@value Pilot#MAX_DISCOVERED_VALUES}
 * distinct values and repeats them (at most half as many distinct values as scores: a discrete score; a continuous one
 * shows every value once), one slot per value (a value not seen there shares the slot of the next smaller one: a
 * coarser test, never an invalid one). <b>Pass 2</b> counts both parts into those histograms, and counts the scores
 * that fell between the values of such a slot binning: the counts are exact (every score its value's slot) only when
 * there are none, and the AUROC counts the pairs within a slot as ties only in the slots that held none
 * ({@link ScoreMetrics}; bracketed in the others). The estimator then runs as for a simulated audit
 * ({@link EmpiricalEstimator}, {@link TradeOffCertification}), with each world's own number of scores.
 *
 * <p><b>Sequentially, in file order</b> ({@link Stopping}): pass 2 reads both files in stages of positions
 * ({@link StageSchedule} over the shorter file, or the budget: {@code n_1}, {@code 2 n_1}, ... scores; the last stage
 * runs to each file's end or budget) and judges every claim after each, at the look's error level, stopping as soon
 * as every claim is violated or powered-consistent. Look {@code k} chooses its tests on the range part of stages
 * {@code 1..k} and certifies them on their evaluation part: each score's part was drawn independently of every score,
 * so at every look the certifying scores are independent of everything that chose the test (the histogram too, fixed
 * from the range part). A fixed design is the one look of all the scores, as before.
 */
public final class ScoreFileAudit {
    /** Share of each file that fixes the histogram range under Bonferroni selection (not counted). */
    public static final double BONFERRONI_PILOT = 0.01;

    private ScoreFileAudit() {
    }

    /**
     * What the audit needs besides the files.
     *
     * @param with scores of the world with the canary
     * @param without scores of the world without it
     * @param lowerMeansWith whether a lower score means "looks like the world with the canary" ({@code --direction
     *     lower}); scores are then negated as read
     * @param settings confidence, selection, bins, seed, δ and ε grids, trade-off certification (trials and threads are
     *     ignored: the files decide the trials, reading is sequential)
     * @param claims the claims to judge
     * @param stopping one look after all the scores, or a look after each stage ({@link StageSchedule})
     * @param maxScores scores per file the audit may use (the first ones, in file order); 0 for all
     */
    public record Request(ScoreFile with, ScoreFile without, boolean lowerMeansWith, AuditSettings settings,
            List<Claim> claims, Stopping stopping, long maxScores) {
        public Request {
            if (maxScores < 0) {
                throw new InvalidInputException("maxScores", maxScores, "must be 0 (all) or positive");
            }
        }

        /** The fixed design on all the scores. */
        public Request(ScoreFile with, ScoreFile without, boolean lowerMeansWith, AuditSettings settings,
                List<Claim> claims) {
            this(with, without, lowerMeansWith, settings, claims, Stopping.FIXED, 0);
        }
    }

    /**
     * Facts about one file, for the report.
     *
     * @param name path as given
     * @param bytes size on disk
     * @param sha256 SHA-256 of its bytes as stored
     * @param scores number of scores
     * @param rangePart scores in the range (selection or pilot) part, among the ones the audit may use
     * @param audited scores the verdicts rest on: the first ones, up to the stage a sequential audit stopped at
     */
    public record FileFacts(String name, long bytes, String sha256, long scores, long rangePart, long audited) {
        /** These facts with {@code n} scores audited. */
        public FileFacts withAudited(long n) {
            return new FileFacts(name, bytes, sha256, scores, rangePart, n);
        }
    }

    /**
     * The outcome: the audit result and the facts of both files.
     *
     * @param result estimator output, claims judged
     * @param with facts of {@code --with}
     * @param without facts of {@code --without}
     * @param metrics AUROC and TPR at fixed FPRs: thresholds chosen on the range part, certified on the evaluation part
     * @param scoresBetweenValues with one slot per value of the range part, the scores (both files) that are none of
     *     those values and share the slot of the next smaller one; 0 otherwise
     */
    public record Outcome(AuditResult result, FileFacts with, FileFacts without, ScoreMetrics.Result metrics,
            long scoresBetweenValues) {
    }

    /** Runs both passes and the estimator. */
    public static Outcome run(Request r, ProgressListener progress) {
        long start = System.nanoTime();
        AuditSettings s = r.settings();
        boolean heldOut = s.selection() instanceof ThresholdSelection.HeldOut;
        double fraction = s.selection() instanceof ThresholdSelection.HeldOut h ? h.fraction() : BONFERRONI_PILOT;
        long budget = r.maxScores() > 0 ? r.maxScores() : Long.MAX_VALUE;
        progress.onPhase("reading", "pass 1 of 2: validating both files, counting scores, fixing the histogram");
        Range withRange = new Range();
        Range withoutRange = new Range();
        FileFacts withFacts = firstPass(r.with(), r.lowerMeansWith(), fraction, stream(s.seed(), 0), budget,
                withRange, progress);
        FileFacts withoutFacts = firstPass(r.without(), r.lowerMeansWith(), fraction, stream(s.seed(), 1), budget,
                withoutRange, progress);
        for (FileFacts f : List.of(withFacts, withoutFacts)) {
            long usable = Math.min(f.scores(), budget);
            if (f.rangePart() < 1 || usable - f.rangePart() < 1) {
                throw new InvalidInputException(f.name(), usable + " scores", "too few to split into a part that "
                        + "chooses the test and a part that certifies it (fraction " + fraction + " of them drawn at "
                        + "random: " + f.rangePart() + ")");
            }
        }
        Range pooled = withRange.merge(withoutRange);
        HistogramBinning binning = pooled.binning(s.bins());
        double[] values = binning.exact() ? pooled.values() : null;
        long withLimit = Math.min(withFacts.scores(), budget);
        long withoutLimit = Math.min(withoutFacts.scores(), budget);
        StageSchedule schedule = StageSchedule.of(r.stopping(), Math.min(withLimit, withoutLimit), s.confidence());
        progress.onPhase("reading", String.format(Locale.ROOT, "pass 2 of 2: counting %d + %d scores into %s%s",
                withLimit, withoutLimit, binning.exact() ? binning.bins() + 1 + " exact slots (the scores take few "
                        + "values)" : binning.bins() + " bins over [" + binning.lo() + ", " + binning.hi() + ")",
                schedule.sequential() ? String.format(Locale.ROOT, ", in up to %d stages judged after each",
                        schedule.looks()) : ""));
        LookVerdicts verdicts = new LookVerdicts(r.claims().size(), 0);
        SequentialRun.Stop stop = SequentialRun.Stop.BUDGET;
        Judgement.Judged judged = null;
        AuditSettings settings = null;
        ScoreCounts selection = null;
        ScoreCounts evaluation = null;
        try (Cursor with = new Cursor(r.with(), r.lowerMeansWith(), fraction, stream(s.seed(), 0), binning, values,
                progress, withLimit);
                Cursor without = new Cursor(r.without(), r.lowerMeansWith(), fraction, stream(s.seed(), 1), binning,
                        values, progress, withoutLimit)) {
            for (int k = 1; k <= schedule.looks(); k++) {
                boolean last = k == schedule.looks();
                if (schedule.sequential()) {
                    progress.onPhase("stage-" + k, String.format(Locale.ROOT, "scores %d to %d of each file (stage %d "
                            + "of at most %d; look %d at error level %.3g)", schedule.trialsThrough(k - 1) + 1,
                            last ? Math.max(withLimit, withoutLimit) : schedule.trialsThrough(k), k, schedule.looks(),
                            k, schedule.errorLevel(k)));
                }
                with.advance(last ? withLimit : schedule.trialsThrough(k));
                without.advance(last ? withoutLimit : schedule.trialsThrough(k));
                if (!with.judgeable(heldOut) || !without.judgeable(heldOut)) {
                    continue; // a part of this look is empty in one world: no statement, its error level unspent
                }
                settings = s.withConfidence(schedule.confidence(k)).with(with.read, s.seed(), 1);
                selection = heldOut ? ScoreCounts.ofUnequal(binning, with.rangePart, without.rangePart) : null;
                evaluation = ScoreCounts.ofUnequal(binning, with.evaluation, without.evaluation);
                EmpiricalEstimator estimator = heldOut
                        ? EmpiricalEstimator.heldOut(selection, evaluation, settings.confidence(),
                                (ThresholdSelection.HeldOut) s.selection())
                        : EmpiricalEstimator.bonferroni(evaluation, settings.confidence(),
                                (ThresholdSelection.Bonferroni) s.selection());
                // the one judgement stage every audit kind goes through
                judged = Judgement.judge(estimator, selection, evaluation, settings, r.claims(), List.of(), null);
                boolean resolved = verdicts.record(k, judged, with.read, heldOut ? with.rangePartCount : 0,
                        with.evaluationCount, settings.confidence(), (System.nanoTime() - start) / 1e9);
                if (schedule.sequential() && resolved) {
                    stop = SequentialRun.Stop.RESOLVED;
                    break;
                }
                if (schedule.sequential() && !last) {
                    progress.onPhase("look", verdicts.unresolved());
                }
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            long between = with.between + without.between;
            String description = String.format(Locale.ROOT, "external scores: %s (%d scores, with the canary) and %s "
                    + "(%d, without)", withFacts.name(), withFacts.scores(), withoutFacts.name(),
                    withoutFacts.scores());
            String attack = "the scores as given: a threshold on them, higher meaning \"with the canary\""
                    + (r.lowerMeansWith() ? " after negation (--direction lower)" : "")
                    + (!binning.exact() ? "" : between == 0 ? " (their " + values.length + " values counted exactly)"
                            : String.format(Locale.ROOT, " (one slot per value of the %d the range part showed; %,d "
                                    + "scores fell between them and count with the next smaller one)",
                                    values.length, between));
            SequentialRun sequential = schedule.sequential()
                    ? verdicts.run(r.stopping().firstStageTrials(), Math.min(withLimit, withoutLimit), stop) : null;
            ConfidenceSplit confidence = ConfidenceSplit.single(settings.confidence());
            AuditResult result = new AuditResult(settings, description, attack, binning,
                    heldOut ? with.rangePartCount : 0, with.evaluationCount, 2,
                    judged.epsilonLowerBounds(), judged.deltaLowerBounds(), verdicts.claims(), elapsed,
                    judged.tradeOff(), judged.tradeOffClaims(), null, new AuditResult.Counts(selection, evaluation,
                            null), schedule.sequential() ? confidence.ofLookIn(s.confidence()) : confidence,
                    sequential);
            boolean[] mixed = with.mixed.clone();
            for (int k = 0; k < mixed.length; k++) {
                mixed[k] |= without.mixed[k];
            }
            ScoreMetrics.Result metrics = ScoreMetrics.of(ScoreCounts.ofUnequal(binning, with.rangePart,
                    without.rangePart), evaluation, s.confidence(), ScoreMetrics.DEFAULT_FPRS, mixed);
            return new Outcome(result, withFacts.withAudited(with.read), withoutFacts.withAudited(without.read), metrics,
                    between);
        }
    }

    /** The split stream of file {@code index} (0: with, 1: without): the root seed's stream {@code index}. */
    private static UniformRandomProvider stream(long seed, int index) {
        RandomStreams streams = new RandomStreams(seed);
        UniformRandomProvider s = streams.next();
        return index == 0 ? s : streams.next();
    }

    /** Scores between two looks at the clock while reading. */
    private static final long CHECK_EVERY = 1 << 22;
    /** Seconds between progress lines while reading. */
    private static final long REPORT_NANOS = 10_000_000_000L;

    /** Pass 1 of one file; the range part is drawn among its first {@code budget} scores only. */
    private static FileFacts firstPass(ScoreFile f, boolean negate, double fraction, UniformRandomProvider split,
            long budget, Range range, ProgressListener progress) {
        MessageDigest digest = ScoreFile.sha256();
        long n = 0;
        long part = 0;
        long start = System.nanoTime();
        long lastReport = start;
        try (ScoreReader in = f.open(digest)) {
            while (f.next(in)) {
                double v = negate ? -in.value() : in.value();
                n++;
                if ((n & (CHECK_EVERY - 1)) == 0) {
                    progress.check("reading " + f.name() + ", score " + n);
                }
                if ((n & (CHECK_EVERY - 1)) == 0 && System.nanoTime() - lastReport > REPORT_NANOS) {
                    lastReport = System.nanoTime();
                    progress.onPhase("reading", String.format(Locale.ROOT, "pass 1: %,d scores of %s read (%.0f "
                            + "s)", n, f.name(), (lastReport - start) / 1e9));
                }
                if (n <= budget && split.nextDouble() < fraction) {
                    part++;
                    range.add(v);
                }
            }
        } catch (IOException e) {
            throw new InvalidInputException(f.name(), "(read error)", e.getMessage());
        }
        if (n == 0) {
            throw new InvalidInputException(f.option(), f.name(), "holds no scores");
        }
        return new FileFacts(f.name(), f.size(), ScoreFile.hex(digest.digest()), n, part, Math.min(n, budget));
    }


    /**
     * Pass 2 of one file: its scores read in order, each counted in its part (range or evaluation, by the same draw of
     * the file's split stream as in pass 1), the counts growing stage by stage.
     */
    private static final class Cursor implements AutoCloseable {
        private final ScoreFile file;
        private final boolean negate;
        private final double fraction;
        private final UniformRandomProvider split;
        private final HistogramBinning binning;
        private final double[] values;
        private final ProgressListener progress;
        private final long total;
        private final ScoreReader in;
        private final long start = System.nanoTime();
        /** Counts of the range part read so far, slot by slot. */
        final long[] rangePart;
        /** Counts of the evaluation part read so far. */
        final long[] evaluation;
        /** With one slot per value, the slots that counted a score that is none of the values. */
        final boolean[] mixed;
        /** Scores read. */
        long read;
        long rangePartCount;
        long evaluationCount;
        /** With one slot per value, the scores that are none of the values (infinite ones included). */
        long between;

        Cursor(ScoreFile file, boolean negate, double fraction, UniformRandomProvider split, HistogramBinning binning,
                double[] values, ProgressListener progress, long total) {
            this.file = file;
            this.negate = negate;
            this.fraction = fraction;
            this.split = split;
            this.binning = binning;
            this.values = values;
            this.progress = progress;
            this.total = total;
            this.rangePart = new long[binning.slots()];
            this.evaluation = new long[binning.slots()];
            this.mixed = new boolean[binning.slots()];
            this.in = file.open(null);
        }

        /** Reads and counts the scores up to position {@code upTo} (at most the file's). */
        void advance(long upTo) {
            while (read < upTo && file.next(in)) {
                if ((++read & (CHECK_EVERY - 1)) == 0) {
                    progress.check("counting " + file.name() + ", score " + read);
                    progress.onProgress("counting", read, total, System.nanoTime() - start);
                }
                double v = negate ? -in.value() : in.value();
                int slot;
                if (values != null) {
                    int i = Arrays.binarySearch(values, v == 0 ? 0.0 : v);
                    slot = rankSlot(i);
                    if (i < 0) { // an infinite score too: it shares an end slot
                        between++;
                        mixed[slot] = true;
                    }
                } else {
                    slot = binning.index(v);
                }
                if (split.nextDouble() < fraction) {
                    rangePart[slot]++;
                    rangePartCount++;
                } else {
                    evaluation[slot]++;
                    evaluationCount++;
                }
            }
            progress.onProgress("counting", read, total, System.nanoTime() - start);
        }

        /** Whether the parts read so far can be judged: a certifying part, and a choosing one with held-out selection. */
        boolean judgeable(boolean heldOut) {
            return evaluationCount > 0 && (!heldOut || rangePartCount > 0);
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                throw new InvalidInputException(file.name(), "(read error)", e.getMessage());
            }
        }
    }

    /**
     * The slot of a value in a rank binning from its binary search result {@code i} among the values: rank r (largest
     * value at or below it; 0 below all) is slot r + 1.
     */
    private static int rankSlot(int i) {
        int rank = i >= 0 ? i : Math.max(0, -i - 2);
        return rank + 1;
    }

    /** Extremes and (while few) the distinct values of a range part, in a sorted primitive array. */
    private static final class Range {
        private double min = Double.POSITIVE_INFINITY;
        private double max = Double.NEGATIVE_INFINITY;
        private double[] distinct = new double[64];
        private int size;
        private boolean many;
        /** Finite scores added (with repeats). */
        private long added;

        void add(double v) {
            if (!Double.isFinite(v)) {
                return;
            }
            added++;
            min = Math.min(min, v);
            max = Math.max(max, v);
            if (!many) {
                insert(v == 0 ? 0.0 : v); // -0.0 and 0.0 are one value
            }
        }

        private void insert(double v) {
            int i = Arrays.binarySearch(distinct, 0, size, v);
            if (i >= 0) {
                return;
            }
            if (size == Pilot.MAX_DISCOVERED_VALUES) {
                many = true;
                distinct = null;
                return;
            }
            int at = -i - 1;
            if (size == distinct.length) {
                distinct = Arrays.copyOf(distinct, 2 * size);
            }
            System.arraycopy(distinct, at, distinct, at + 1, size - at);
            distinct[at] = v;
            size++;
        }

        Range merge(Range o) {
            Range r = new Range();
            r.min = Math.min(min, o.min);
            r.max = Math.max(max, o.max);
            r.many = many || o.many;
            r.added = added + o.added;
            if (!r.many) {
                for (int i = 0; i < size && !r.many; i++) {
                    r.insert(distinct[i]);
                }
                for (int i = 0; i < o.size && !r.many; i++) {
                    r.insert(o.distinct[i]);
                }
            }
            return r;
        }

        double[] values() {
            return Arrays.copyOf(distinct, size);
        }

        HistogramBinning binning(int bins) {
            if (!(min <= max)) {
                throw new InvalidInputException("scores", "(no finite score in the part that fixes the histogram)",
                        "at least one finite score is needed");
            }
            if (!many && size >= 2 && 2L * size <= added) {
                return HistogramBinning.ranks(values());
            }
            return HistogramBinning.fromPilot(min, max, bins);
        }
    }
}
