package io.dpaudit.runner.scores;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Judgement;
import io.dpaudit.core.audit.Claim;
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
     */
    public record Request(ScoreFile with, ScoreFile without, boolean lowerMeansWith, AuditSettings settings,
            List<Claim> claims) {
    }

    /**
     * Facts about one file, for the report.
     *
     * @param name path as given
     * @param bytes size on disk
     * @param sha256 SHA-256 of its bytes as stored
     * @param scores number of scores
     * @param rangePart scores in the range (selection or pilot) part
     */
    public record FileFacts(String name, long bytes, String sha256, long scores, long rangePart) {
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
        double fraction = s.selection() instanceof ThresholdSelection.HeldOut h ? h.fraction() : BONFERRONI_PILOT;
        progress.onPhase("reading", "pass 1 of 2: validating both files, counting scores, fixing the histogram");
        Range withRange = new Range();
        Range withoutRange = new Range();
        FileFacts withFacts = firstPass(r.with(), r.lowerMeansWith(), fraction, stream(s.seed(), 0), withRange,
                progress);
        FileFacts withoutFacts = firstPass(r.without(), r.lowerMeansWith(), fraction, stream(s.seed(), 1),
                withoutRange, progress);
        for (FileFacts f : List.of(withFacts, withoutFacts)) {
            if (f.rangePart() < 1 || f.scores() - f.rangePart() < 1) {
                throw new InvalidInputException(f.name(), f.scores() + " scores", "too few to split into a part that "
                        + "chooses the test and a part that certifies it (fraction " + fraction + " of them drawn at "
                        + "random: " + f.rangePart() + ")");
            }
        }
        Range pooled = withRange.merge(withoutRange);
        HistogramBinning binning = pooled.binning(s.bins());
        double[] values = binning.exact() ? pooled.values() : null;
        progress.onPhase("reading", String.format(Locale.ROOT, "pass 2 of 2: counting %d + %d scores into %s",
                withFacts.scores(), withoutFacts.scores(), binning.exact() ? binning.bins() + 1 + " exact slots (the "
                        + "scores take few values)" : binning.bins() + " bins over [" + binning.lo() + ", "
                        + binning.hi() + ")"));
        Counted with = secondPass(r.with(), r.lowerMeansWith(), fraction, stream(s.seed(), 0), binning, values,
                progress, withFacts.scores());
        Counted without = secondPass(r.without(), r.lowerMeansWith(), fraction, stream(s.seed(), 1), binning,
                values, progress, withoutFacts.scores());
        long between = with.betweenValues() + without.betweenValues();
        boolean heldOut = s.selection() instanceof ThresholdSelection.HeldOut;
        ScoreCounts selection = heldOut ? ScoreCounts.ofUnequal(binning, with.rangePart(), without.rangePart())
                : null;
        ScoreCounts evaluation = ScoreCounts.ofUnequal(binning, with.evaluation(), without.evaluation());
        EmpiricalEstimator estimator = heldOut
                ? EmpiricalEstimator.heldOut(selection, evaluation, s.confidence(),
                        (ThresholdSelection.HeldOut) s.selection())
                : EmpiricalEstimator.bonferroni(evaluation, s.confidence(), (ThresholdSelection.Bonferroni) s.selection());
        // the one judgement stage every audit kind goes through
        Judgement.Judged j = Judgement.judge(estimator, selection, evaluation, s, r.claims(), List.of(), null);
        double elapsed = (System.nanoTime() - start) / 1e9;
        String description = String.format(Locale.ROOT, "external scores: %s (%d scores, with the canary) and %s (%d, "
                + "without)", withFacts.name(), withFacts.scores(), withoutFacts.name(), withoutFacts.scores());
        String attack = "the scores as given: a threshold on them, higher meaning \"with the canary\""
                + (r.lowerMeansWith() ? " after negation (--direction lower)" : "")
                + (!binning.exact() ? "" : between == 0 ? " (their " + values.length + " values counted exactly)"
                        : String.format(Locale.ROOT, " (one slot per value of the %d the range part showed; %,d "
                                + "scores fell between them and count with the next smaller one)", values.length,
                                between));
        AuditResult result = new AuditResult(s, description, attack, binning,
                heldOut ? withFacts.rangePart() : 0, withFacts.scores() - withFacts.rangePart(), 2,
                j.epsilonLowerBounds(), j.deltaLowerBounds(), j.claims(), elapsed, j.tradeOff(), j.tradeOffClaims(),
                null, new AuditResult.Counts(selection, evaluation, null));
        boolean[] mixed = with.mixed().clone();
        for (int k = 0; k < mixed.length; k++) {
            mixed[k] |= without.mixed()[k];
        }
        ScoreMetrics.Result metrics = ScoreMetrics.of(ScoreCounts.ofUnequal(binning, with.rangePart(),
                without.rangePart()), evaluation, s.confidence(), ScoreMetrics.DEFAULT_FPRS, mixed);
        return new Outcome(result, withFacts, withoutFacts, metrics, between);
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

    private static FileFacts firstPass(ScoreFile f, boolean negate, double fraction, UniformRandomProvider split,
            Range range, ProgressListener progress) {
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
                if (split.nextDouble() < fraction) {
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
        return new FileFacts(f.name(), f.size(), ScoreFile.hex(digest.digest()), n, part);
    }


    /**
     * One file's counts, slot by slot.
     *
     * @param rangePart counts of the range part
     * @param evaluation counts of the evaluation part
     * @param betweenValues with one slot per value, the scores that are none of the values (infinite ones included)
     * @param mixed with one slot per value, the slots that counted such a score
     */
    private record Counted(long[] rangePart, long[] evaluation, long betweenValues, boolean[] mixed) {
    }

    private static Counted secondPass(ScoreFile f, boolean negate, double fraction, UniformRandomProvider split,
            HistogramBinning binning, double[] values, ProgressListener progress, long total) {
        long[] rangePart = new long[binning.slots()];
        long[] evaluation = new long[binning.slots()];
        long between = 0;
        boolean[] mixed = new boolean[binning.slots()];
        long start = System.nanoTime();
        long n = 0;
        try (ScoreReader in = f.open(null)) {
            while (f.next(in)) {
                if ((++n & (CHECK_EVERY - 1)) == 0) {
                    progress.check("counting " + f.name() + ", score " + n);
                    progress.onProgress("counting", n, total, System.nanoTime() - start);
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
                } else {
                    evaluation[slot]++;
                }
            }
            progress.onProgress("counting", total, total, System.nanoTime() - start);
        } catch (IOException e) {
            throw new InvalidInputException(f.name(), "(read error)", e.getMessage());
        }
        return new Counted(rangePart, evaluation, between, mixed);
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
