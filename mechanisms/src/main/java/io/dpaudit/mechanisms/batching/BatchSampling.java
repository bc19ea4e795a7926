package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.ParameterCalibration;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.batching.BatchingParameters.Sampler;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.DoubleFunction;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A batch sampler as an auditable mechanism: its simulators and the accountings of it, each named with its source and
 * what it is for this sampler.
 *
 * <ul>
 *   <li>{@code poisson-pld}: the Poisson-subsampled Gaussian at rate k/T composed over T E steps by the PLD accountant
 *       (§2, §6) — the exact accounting of {@code poisson-batches} (its simulated pair's curve); the
 *       <b>wrong</b> accounting of shuffled batches (kind known-wrong: what deployments report, Chua et al. 2024); for
 *       balls-and-bins and random allocation a candidate (close in the regimes Chua et al. 2025 report, not proven);</li>
 *   <li>{@code deterministic}: the Gaussian mechanism with {@code mu = sqrt(k E) / sigma} — exact for deterministic
 *       batches, and a proven upper bound for every sampler here (each is a mixture of deterministic assignments:
 *       joint convexity of the hockey-stick divergence);</li>
 *   <li>{@code chua24-shuffle-lower} (shuffled batches): {@link ShuffleMaxTestBound}, a proven lower bound;</li>
 *   <li>{@code bnb-max-test} (balls-and-bins) and {@code allocation-max-test} (random allocation):
 *       {@link AllocationMaxTestBound}, proven lower bounds, any k and E; as families, so that {@code calibrate} gives
 *       the noise below which no correct accounting meets a target;</li>
 *   <li>{@code allocation-pld-upper} and {@code allocation-pld-lower} (balls-and-bins, random allocation with
 *       k = 1): {@link AllocationPld}, a bracket on the exact curve; its upper end is a (costly) family, so
 *       {@code calibrate} gives the sigma it certifies;</li>
 *   <li>{@code allocation-decomposition-upper} (random allocation with k &gt;= 2): {@link AllocationDecomposition},
 *       a proven upper bound (balls-and-bins of floor(T/k) steps composed k E times), a family;</li>
 *   <li>{@code allocation-sum-test} (random allocation with k &gt;= 2): {@link AllocationSumTestBound}, a proven
 *       lower bound, with the upper bound above the two-sided bracket of the sampler's curve.</li>
 * </ul>
 */
final class BatchSampling implements AuditableMechanism {
    private final Parameters parameters;
    private final BatchingParameters b;
    private AllocationPld bracket;
    private PrivacyBound decomposition;
    private PrivacyBound sumTest;

    BatchSampling(Parameters parameters, BatchingParameters b) {
        this.parameters = parameters;
        this.b = b;
    }

    /** T E noisy steps: T per epoch, E epochs. */
    @Override
    public long roundsPerTrial() {
        return (long) b.steps() * b.epochs();
    }

    @Override
    public String type() {
        return b.sampler().type();
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return "zero-out one record (replaced by ⊥, which contributes 0)";
    }

    @Override
    public MechanismSimulator reduced() {
        return ReducedBatchingSimulator.of(b);
    }

    /**
     * The importance sampler of the dependent-round samplers ({@link TiltedPairImportanceEstimator}): balls-and-bins and
     * k-of-T allocation tilted by integer powers of their likelihood ratio, the shuffle's lower-bound pair by a power
     * of its largest coordinate (a persistent shuffle as one epoch at {@code sigma / sqrt(E)}; Chua et al.'s dataset
     * only, {@code others = -1}); none for Poisson and
     * deterministic batches, whose rounds are independent (the generic estimator tilts them).
     */
    @Override
    public io.dpaudit.core.audit.ProfileEstimation importanceEstimation(long samplesPerTarget) {
        return switch (b.sampler()) {
            case BALLS_AND_BINS, RANDOM_ALLOCATION -> TiltedPairImportanceEstimator.allocation(b.steps(), b.k(),
                    b.epochs(), b.sigma(), samplesPerTarget);
            // the shuffle's tilts and their weight bounds are proven for Chua et al.'s pair (shifts 2 and 1) only
            case SHUFFLED -> b.others() != BatchingParameters.CHUA_OTHERS ? null : b.persistent()
                    ? new TiltedPairImportanceEstimator(new ShuffleTiltedPair(b.steps(), b.sigma() / Math.sqrt(
                            b.epochs())), 1, samplesPerTarget, b.steps() + " steps (a persistent shuffle's " + b.epochs()
                            + " epochs summed: one epoch at sigma / sqrt(E))")
                    : new TiltedPairImportanceEstimator(new ShuffleTiltedPair(b.steps(), b.sigma()), b.epochs(),
                            samplesPerTarget, b.steps() + " steps");
            case POISSON, DETERMINISTIC -> null;
        };
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "records"));
        long records = options.wholeNumber("records", 4L * b.steps(), b.steps());
        if (b.sampler() == Sampler.SHUFFLED && records % b.steps() != 0) {
            throw new InvalidInputException(options.field("records"), records, "must be a multiple of steps ("
                    + b.steps() + "): a permutation is cut into batches of equal size");
        }
        long work = b.sampler() == Sampler.POISSON ? records * b.steps() : records * b.k();
        if (records > 10_000_000L || work > 100_000_000L) {
            throw new InvalidInputException(options.field("records"), records, "too many for the faithful simulator "
                    + "(at most 10^7 records and 10^8 record-steps per epoch)");
        }
        return FaithfulBatchingSimulator.of(b, (int) records);
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        List<BoundFamily> list = new ArrayList<>();
        CalibrationParameter p = CalibrationParameter.SIGMA;
        BoundKind poissonKind = switch (b.sampler()) {
            case POISSON -> BoundKind.UPPER_BOUND;
            case SHUFFLED -> BoundKind.KNOWN_WRONG;
            default -> BoundKind.CANDIDATE;
        };
        PrivacyBound here = poisson(b.sigma(), poissonKind);
        list.add(new BoundFamily(here.name(), here.source(), p, b.sigma(), s -> poisson(s, poissonKind)));
        PrivacyBound det = deterministic(b.sigma());
        list.add(new BoundFamily(det.name(), det.source(), p, b.sigma(), this::deterministic));
        if (b.sampler() == Sampler.BALLS_AND_BINS || b.sampler() == Sampler.RANDOM_ALLOCATION) {
            // a proven lower bound: calibrated, the noise below which no correct accounting can meet a target
            AllocationMaxTestBound max = new AllocationMaxTestBound(b);
            list.add(new BoundFamily(max.name(), max.source(), p, b.sigma(),
                    s -> new AllocationMaxTestBound(b.withSigma(s)), null, true));
        }
        if (allocationBracket()) {
            // the upper end of the bracket is a certified upper bound: calibrate can invert it
            list.add(new BoundFamily(AllocationPld.UPPER, bracket().upper().source(), p, b.sigma(),
                    s -> s == b.sigma() ? bracket().upper() : new AllocationPld(b.withSigma(s)).upper(),
                    (e, d) -> calibrateAllocation(s -> new AllocationPld(b.withSigma(s)).upper(), e, d), true));
        }
        if (AllocationDecomposition.unsupported(b) == null) {
            PrivacyBound decomposed = decomposition();
            list.add(new BoundFamily(AllocationDecomposition.NAME, decomposed.source(), p, b.sigma(),
                    s -> s == b.sigma() ? decomposition() : AllocationDecomposition.upper(b.withSigma(s)),
                    (e, d) -> calibrateAllocation(s -> AllocationDecomposition.upper(b.withSigma(s)), e, d), true));
        }
        return list;
    }

    @Override
    public List<PrivacyBound> otherBounds() {
        if (b.sampler() == Sampler.SHUFFLED) {
            return List.of(new ShuffleMaxTestBound(b));
        }
        if (allocationBracket()) {
            return List.of(bracket().lower()); // its upper end is a family
        }
        if (AllocationSumTestBound.unsupported(b) == null) {
            return List.of(sumTest());
        }
        return List.of();
    }

    /** This configuration's PLD bracket, built once: the family at sigma and the lower end share its lattices. */
    private synchronized AllocationPld bracket() {
        if (bracket == null) {
            bracket = SharedBrackets.of(b);
        }
        return bracket;
    }

    /** This configuration's decomposition bound, built once (computed on first use). */
    private synchronized PrivacyBound decomposition() {
        if (decomposition == null) {
            decomposition = AllocationDecomposition.upper(b);
        }
        return decomposition;
    }

    /** This configuration's sum test, built once (computed on first use). */
    private synchronized PrivacyBound sumTest() {
        if (sumTest == null) {
            sumTest = new AllocationSumTestBound(b);
        }
        return sumTest;
    }

    /**
     * The smallest sigma whose lattice upper bound ({@code upper}: the bracket's upper end, or the decomposition) meets
     * {@code (epsilon, delta)}, searched where the lattice is computed ({@link AllocationPld#SMALLEST_SIGMA} and up) and
     * started at the Poisson accounting's answer, which Feldman &amp; Shenfeld show is close for balls-and-bins (only
     * where to look: the answer is the bound's own).
     */
    private double calibrateAllocation(DoubleFunction<PrivacyBound> upper, double epsilon, double delta) {
        double hint;
        try {
            hint = ParameterCalibration.monotone(CalibrationParameter.SIGMA, s -> poisson(s, BoundKind.CANDIDATE),
                    epsilon, delta);
        } catch (InvalidInputException e) {
            hint = Double.NaN;
        }
        return ParameterCalibration.fromHint(CalibrationParameter.SIGMA.withMin(AllocationPld.SMALLEST_SIGMA),
                upper, hint, epsilon, delta);
    }

    /** Whether the balls-and-bins PLD bracket ({@link AllocationPld}) applies and is offered. */
    private boolean allocationBracket() {
        return (b.sampler() == Sampler.BALLS_AND_BINS || b.sampler() == Sampler.RANDOM_ALLOCATION)
                && AllocationPld.unsupported(b) == null;
    }

    @Override
    public String referenceBound() {
        return switch (b.sampler()) {
            case POISSON -> "poisson-pld";
            case DETERMINISTIC -> "deterministic";
            // the upper end of the bracket: a claim looser than it is loose by at least the reported factor. Not the
            // decomposition for k >= 2: it bounds another curve (stratified allocation) from above, and its numerical
            // lower end is that curve's, not this pair's; there the sum test and the two-sided estimate arbitrate
            default -> allocationBracket() ? AllocationPld.UPPER : "none";
        };
    }

    /** False for shuffled batches: Chua et al.'s pair is a lower-bound pair, not a proven worst case. */
    @Override
    public boolean simulatedPairIsWorstCase() {
        return b.sampler() != Sampler.SHUFFLED;
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        if (b.sampler() == Sampler.SHUFFLED) {
            notes.add((b.others() == BatchingParameters.CHUA_OTHERS ? "The simulated pair is Chua et al.'s "
                    + "lower-bound pair (the other records' gradients opposite to the canary's)" : "The simulated pair "
                    + "is a lower-bound pair of the shuffle (every other record's gradient " + Checks.format(b.others())
                    + ", the canary's +1)") + ", not a proven worst case: the audit's lower bounds and the two-sided "
                    + "estimate are lower bounds on shuffled batches' privacy loss; poisson-pld is the accounting "
                    + "deployments use, known to be wrong for shuffling.");
        }
        if (b.sampler() == Sampler.BALLS_AND_BINS || b.sampler() == Sampler.RANDOM_ALLOCATION) {
            notes.add("The simulated pair dominates the sampler (Chua et al. 2025; Feldman & Shenfeld 2025): its "
                    + "two-sided estimate is the sampler's privacy curve; poisson-pld is a candidate accounting.");
            String why = AllocationPld.unsupported(b);
            String decomposed = AllocationDecomposition.unsupported(b);
            if (why == null) {
                notes.add("allocation-pld-upper and allocation-pld-lower bracket the exact curve (a lattice "
                        + "computation of the law of the likelihood ratio; their gap is the numerical resolution).");
            } else if (decomposed == null && AllocationSumTestBound.unsupported(b) == null) {
                notes.add("allocation-sum-test and allocation-decomposition-upper bracket the exact curve (a threshold "
                        + "test on the sum of the steps' exponentiated outputs, and balls-and-bins of floor(T/k) steps "
                        + "composed k E times); their gap is the price of the decomposition and of the test.");
            } else if (decomposed == null) {
                notes.add("allocation-decomposition-upper bounds the exact curve from above (balls-and-bins of "
                        + "floor(T/k) steps composed k E times); no sum test: " + AllocationSumTestBound.unsupported(b)
                        + "; the max test and the two-sided estimate bound it from below.");
            } else {
                notes.add("No lattice bracket of the exact curve: " + decomposed + "; the two-sided estimate is the "
                        + "arbiter.");
            }
        }
        return notes;
    }

    /** The Poisson accounting at rate k/T over T E steps, under {@code kind}. */
    private PrivacyBound poisson(double sigma, BoundKind kind) {
        double q = (double) b.k() / b.steps();
        long steps = (long) b.steps() * b.epochs();
        DpEvent event = q >= 1 ? new DpEvent.SelfComposed(new DpEvent.Gaussian(sigma, 1.0), (int) steps)
                : new DpEvent.SelfComposed(new DpEvent.PoissonSampled(q, new DpEvent.Gaussian(sigma, 1.0)), (int) steps);
        PrivacyBound pld = new PldAccountant().account("poisson-pld", event, Adjacency.ADD_REMOVE);
        String what = switch (b.sampler()) {
            case POISSON -> "the exact accounting of Poisson batches";
            case SHUFFLED -> "the WRONG accounting of shuffled batches that deployments use (Chua et al., ICML 2024)";
            default -> "a candidate accounting for this sampler, not proven (Chua et al., AISTATS 2025)";
        };
        return new LabelledBound("poisson-pld", kind, pld, String.format(Locale.ROOT, "Poisson subsampling at q = "
                + "%s over %d steps, PLD accountant: %s; %s", Checks.format(q), steps, what, pld.source()));
    }

    /** The deterministic-batches curve: the Gaussian mechanism over the canary's k E steps. */
    private PrivacyBound deterministic(double sigma) {
        GaussianBound g = GaussianBound.of(sigma, 1.0, b.k() * b.epochs());
        String what = b.sampler() == Sampler.DETERMINISTIC ? "exact for deterministic batches"
                : "a proven upper bound (the sampler mixes deterministic assignments; no amplification credited)";
        return new LabelledBound("deterministic", BoundKind.UPPER_BOUND, g, String.format(Locale.ROOT,
                "deterministic batches: the canary in %d known step(s), Gaussian mechanism mu = sqrt(%d)/sigma (Balle "
                        + "& Wang 2018): %s", b.k() * b.epochs(), b.k() * b.epochs(), what));
    }
}
