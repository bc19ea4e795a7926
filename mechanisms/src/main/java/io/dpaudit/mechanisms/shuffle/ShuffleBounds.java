package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.Checks;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.ProfileComposition;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.Composition;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.bounds.EpsilonOfDeltaBound;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.MaximumBound;
import io.dpaudit.core.bounds.PoissonAmplificationBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.numerics.LogSpace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The bounds of a shuffled protocol (seed 001, dss-SGD, and plain shuffling), each as a function of {@code eps0}:
 *
 * <ul>
 *   <li>{@code TYPE-exact}: the exact curve of the simulated configuration (the maximum over the candidate datasets):
 *       the finite sum of {@link DiscretePairProfile} per round, composed over the rounds by the PLD accountant on the
 *       discrete loss distribution (pessimistic rounding, certified for that pair). The reference every other bound
 *       is held against; a lower bound on the worst case over all datasets.</li>
 *   <li>{@code ldp-baseline}: any {@code eps0}-LDP randomizer without the shuffler — the attributed report of the
 *       target's client, which takes part with probability {@code q} and then uses the target with probability
 *       {@code 1/r}. Randomized response mixed with its replacement dominates every such pair (the trade-off curve of
 *       {@code (1-w) Q + w P} against {@code Q} is at least {@code w f + (1-w) Id} for an {@code f}-DP pair, and
 *       randomized response attains {@code f_{eps0,0}} — Dong, Roth &amp; Su 2019), so its exact composition is a
 *       certified upper bound for every randomizer; the shuffler is post-processing.</li>
 *   <li>plain shuffling: {@code fmt21-shuffling} (code form) and {@code fmt21-shuffling-paper-form}
 *       ({@link Fmt21Shuffling}), composed by the PLD accountant over rounds;</li>
 *   <li>dss-SGD: the construction of the seed's proof with named constants
 *       ({@code dss-sgd-thm1-instantiated}), the readings an implementer gets by dropping the {@code O(.)} (known
 *       wrong), Eq. (8) as printed (known wrong), and two planted accounting bugs (known wrong).</li>
 * </ul>
 */
final class ShuffleBounds {
    /** The calibration parameter of every shuffled protocol. */
    static final CalibrationParameter EPS0 = new CalibrationParameter("eps0",
            "the local randomizer's privacy level (larger reveals more)", false, 1e-3, ShuffleParameters.MAX_EPS0);
    private static final double REFERENCE_DELTA = 1e-6;

    private final ShuffleModel model;
    private final ShuffleParameters s;

    ShuffleBounds(ShuffleModel model) {
        this.model = model;
        this.s = model.parameters();
    }

    /** The bound families, each as a function of {@code eps0}. */
    List<BoundFamily> families() {
        List<BoundFamily> list = new ArrayList<>();
        list.add(family(s.type() + "-exact", "exact curve of the simulated configuration", ShuffleBounds::exact));
        list.add(family("ldp-baseline", "any eps0-LDP randomizer without the shuffler, composed exactly",
                m -> ldpBaseline(m.parameters())));
        if (!s.dss()) {
            list.add(family("fmt21-shuffling", "Feldman, McMillan & Talwar (2021) Thm 3.1, code form",
                    m -> fmt21(m.parameters(), true)));
            list.add(family("fmt21-shuffling-paper-form", "Feldman, McMillan & Talwar (2021) Thm 3.1, paper form",
                    m -> fmt21(m.parameters(), false)));
            for (ShufflingStatement st : ShufflingStatement.values()) {
                if (st.applies(s)) {
                    list.add(family(st.label, st.summary, m -> st.bound(m.parameters())));
                }
            }
            return list;
        }
        for (Reading r : Reading.values()) {
            if (r.planted && !(s.sampling().equals("self") && (s.q() < 1 || s.records() > 1))) {
                continue;
            }
            list.add(family(r.label, r.summary, r::bound));
        }
        return list;
    }

    /** A family of eps0; at the mechanism's own eps0 it reuses the mechanism's laws. */
    private BoundFamily family(String name, String summary, Function<ShuffleModel, PrivacyBound> at) {
        return new BoundFamily(name, summary, EPS0, s.eps0(),
                e -> at.apply(e == s.eps0() ? model : new ShuffleModel(s.withEps0(e))));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Exact curves

    /** The exact curve of the model (computed once per model). */
    static PrivacyBound exact(ShuffleModel m) {
        return m.exact();
    }

    /** Computes the exact curve: the per-round profiles, or their PLD compositions, maximised over datasets. */
    static PrivacyBound exactCurve(ShuffleModel m) {
        ShuffleParameters p = m.parameters();
        String name = p.type() + "-exact";
        List<PrivacyBound> parts = new ArrayList<>();
        for (String c : m.configurations()) {
            parts.add(p.rounds() == 1 ? m.perRound(c) : composedExact(m, c));
        }
        String source = "exact privacy curve of the simulated " + p.config() + " dataset (" + p.describe() + "): per "
                + "round a finite sum over the atoms of (K, counts), both directions"
                + (p.rounds() > 1 ? "; composed over " + p.rounds() + " rounds by the PLD accountant on the discrete "
                + "loss distribution, losses rounded up to its grid (the exact curve lies within the grid's reach "
                + "below)" : "") + "; a lower bound on the worst case over all datasets";
        return parts.size() == 1 ? new LabelledBound(name, BoundKind.PAIR_PROFILE, parts.get(0), source)
                : new MaximumBound(name, source, BoundKind.PAIR_PROFILE, parts);
    }

    private static PrivacyBound composedExact(ShuffleModel m, String configuration) {
        ShuffleParameters p = m.parameters();
        ShuffleLaw law = m.law(configuration);
        DpEvent round = law.event(configuration + " dataset, " + law.describe());
        return new PldAccountant().account(p.type() + "-exact(" + configuration + ")",
                new DpEvent.SelfComposed(round, p.rounds()), Adjacency.REPLACE_ONE);
    }

    /**
     * The lower end of the exact curve's discretisation bracket at {@code delta} (the losses rounded down), for
     * reporting how wide the bracket is; equal to the exact curve for one round.
     */
    static double exactEpsilonLowerEnd(ShuffleModel m, double delta) {
        ShuffleParameters p = m.parameters();
        double e = 0;
        for (String c : m.configurations()) {
            if (p.rounds() == 1) {
                e = Math.max(e, m.perRound(c).epsilon(delta));
            } else {
                ShuffleLaw law = m.law(c);
                e = Math.max(e, PldAccountant.optimisticDiscrete().account("lower", new DpEvent.SelfComposed(
                        law.event(c), p.rounds()), Adjacency.REPLACE_ONE).epsilon(delta));
            }
        }
        return e;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The baseline without the shuffler

    static PrivacyBound ldpBaseline(ShuffleParameters p) {
        double truth = 1.0 / (1.0 + Math.exp(-p.eps0()));
        double pi = p.dss() ? p.participation() : 1.0;
        double u = 1.0 / p.records();
        double one = u * truth + (1 - u) * (1 - truth);
        double[] with = {1 - pi, pi * one, pi * (1 - one)};
        double[] without = {1 - pi, pi * (1 - truth), pi * truth};
        String source = String.format(Locale.ROOT, "any eps0-LDP randomizer without the shuffler: the target's client "
                + "takes part with probability %s and uses the target with probability 1/%d; randomized response "
                + "(eps0 = %s) mixed with its replacement dominates every such pair (Dong, Roth & Su 2019, subsampling "
                + "of f-DP); the shuffler is post-processing", Checks.format(pi), p.records(),
                Checks.format(p.eps0()));
        if (p.rounds() == 1) {
            return new DiscretePairProfile("ldp-baseline", source, BoundKind.UPPER_BOUND,
                    DiscreteLaw.ofProbabilities(with, i -> "report " + i), DiscreteLaw.ofProbabilities(without,
                            i -> "report " + i), 0.0);
        }
        PrivacyBound pld = new PldAccountant().account("ldp-baseline", new DpEvent.SelfComposed(
                DpEvent.DiscreteLoss.ofPair("attributed report", with, without), p.rounds()), Adjacency.REPLACE_ONE);
        return new LabelledBound("ldp-baseline", BoundKind.UPPER_BOUND, pld, source + "; composed over "
                + p.rounds() + " rounds: " + pld.source());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Feldman, McMillan & Talwar for plain shuffling

    static PrivacyBound fmt21(ShuffleParameters p, boolean codeForm) {
        String name = codeForm ? "fmt21-shuffling" : "fmt21-shuffling-paper-form";
        double eps0 = p.eps0();
        int n = p.clients();
        String source = "Feldman, McMillan & Talwar (FOCS 2021) Thm 3.1, " + (codeForm
                ? "code form (apple/ml-shuffling-amplification, closedformanalysis; regime eps0 <= log(n/(16 log(4/"
                + "delta))))" : "paper form (regime eps0 <= log(n/(16 log(2/delta))))")
                + ", n = " + n + " reports; eps0 outside the regime (post-processing)";
        PrivacyBound perRound = new EpsilonOfDeltaBound(name, source, BoundKind.UPPER_BOUND,
                d -> codeForm ? Fmt21Shuffling.codeForm(eps0, n, d) : Fmt21Shuffling.paperForm(eps0, n, d), eps0);
        if (p.rounds() == 1) {
            return perRound;
        }
        PrivacyBound composed = ProfileComposition.compose(perRound, p.rounds());
        return new LabelledBound(name, BoundKind.UPPER_BOUND, composed, composed.source());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Plain shuffling: the statements of seed 004 and the literature it quotes

    /** Shuffling bounds quoted or stated by Balle et al. (seed 004), and a planted accounting bug. */
    enum ShufflingStatement {
        /** Theorem 5.1 of seed 004, candidate shape. */
        THM_5_1("bkmtt20-thm5.1-candidate", "Balle, Kairouz, McMahan, Thakkar & Thakurta (NeurIPS 2020) Thm 5.1 "
                + "(shuffling), candidate shape (e^eps0 - 1) sqrt(2 e^eps0 log(1/delta)/n) + e^eps0 (e^eps0 - 1)^2/n; "
                + "the seed lost the formula and its prose suggests the printed form may carry extra e^eps0 factors "
                + "(formula sheet §8)", BoundKind.CANDIDATE),
        /** Erlingsson et al. 2019, Thm 7, as usually quoted. */
        EFMRTT19("efmrtt19-thm7", "Erlingsson, Feldman, Mironov, Raghunathan, Talwar & Thakurta (SODA 2019) Thm 7 as "
                + "usually quoted (and as seed 004 compares against): 12 eps0 sqrt(log(1/delta)/n) for eps0 < 1/2; "
                + "constant unverified", BoundKind.CANDIDATE),
        /** Planted: shuffling treated as subsampling at rate 1/n. */
        PLANTED_AS_SUBSAMPLING("planted-shuffling-as-subsampling", "planted accounting bug: shuffling treated as "
                + "subsampling of the target's report at rate 1/n, (log(1 + (e^eps0 - 1)/n), 0)-DP; the adversary "
                + "sees every report, so the target's is always there: known wrong", BoundKind.KNOWN_WRONG);

        final String label;
        final String summary;
        final BoundKind kind;

        ShufflingStatement(String label, String summary, BoundKind kind) {
            this.label = label;
            this.summary = summary;
            this.kind = kind;
        }

        boolean applies(ShuffleParameters p) {
            return this != EFMRTT19 || p.eps0() < 0.5;
        }

        /** Per-round epsilon at delta for {@code n} reports. */
        double perRound(ShuffleParameters p, double delta) {
            double n = p.clients();
            double eps0 = p.eps0();
            return switch (this) {
                case THM_5_1 -> {
                    double em1 = Math.expm1(eps0);
                    double e = Math.exp(eps0);
                    yield em1 * Math.sqrt(2 * e * Math.log(1 / delta) / n) + e * em1 * em1 / n;
                }
                case EFMRTT19 -> 12 * eps0 * Math.sqrt(Math.log(1 / delta) / n);
                case PLANTED_AS_SUBSAMPLING -> Math.log1p(Math.expm1(eps0) / n);
            };
        }

        PrivacyBound bound(ShuffleParameters p) {
            String source = summary + "; n = " + p.clients() + " reports, " + p.localRandomizer().describe();
            if (this == PLANTED_AS_SUBSAMPLING) {
                double e = perRound(p, 0.5);
                double a = 1.0 / (1.0 + Math.exp(-e));
                double[] with = {1 - a, a};
                double[] without = {a, 1 - a};
                PrivacyBound round = new DiscretePairProfile(label, source, kind, DiscreteLaw.ofProbabilities(with,
                        i -> "bit " + i), DiscreteLaw.ofProbabilities(without, i -> "bit " + i), 0.0);
                PrivacyBound b = p.rounds() == 1 ? round : ProfileComposition.compose(round, p.rounds());
                return new LabelledBound(label, kind, b, source);
            }
            PrivacyBound round = new EpsilonOfDeltaBound(label, source, kind, d -> perRound(p, d),
                    Double.POSITIVE_INFINITY);
            PrivacyBound b = p.rounds() == 1 ? round : ProfileComposition.compose(round, p.rounds());
            return new LabelledBound(label, kind, b, source + (p.rounds() > 1 ? "; composed over " + p.rounds()
                    + " rounds by the PLD accountant" : ""));
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // dss-SGD: the seed's statements

    /** The bounds built from the seed's Lemma 1 / Theorem 1, and the planted accounting bugs. */
    enum Reading {
        /** The proof's construction with named constants (constants ours). */
        INSTANTIATED("dss-sgd-thm1-instantiated", "Girgis, Data & Diggavi (ISIT 2021), Lemma 1 and Theorem 1 as their "
                + "proof builds them (Eqs. 8-9), instantiated by dp-audit with named constants (constants ours)",
                BoundKind.UPPER_BOUND, false),
        /** Eq. (8) as printed: k/(mr) times eps~(k) where e^{eps~(k)} - 1 belongs. */
        EQ8_AS_PRINTED("dss-sgd-eq8-as-printed", "Girgis et al., the instantiated bound with Eq. (8) as printed, "
                + "ln(1 + (k/mr) eps~(k)) instead of ln(1 + (k/mr)(e^{eps~(k)} - 1)): known wrong",
                BoundKind.KNOWN_WRONG, false),
        /** Lemma 1 with the O(.) read as constant 1, with log(1/delta~). */
        LEMMA1_CONSTANT_1("dss-sgd-lemma1-constant-1", "Girgis et al., Lemma 1 with the O(.) dropped (constant 1), "
                + "eps-bar = eps0 sqrt(q-bar log(1/delta~)/n), composed by the seed's strong composition: known wrong",
                BoundKind.KNOWN_WRONG, false),
        /** Lemma 1 as printed, with log(1/delta-bar). */
        LEMMA1_AS_PRINTED("dss-sgd-lemma1-constant-1-as-printed", "Girgis et al., Lemma 1 as printed with the O(.) "
                + "dropped, eps-bar = eps0 sqrt(q-bar log(1/delta-bar)/n) (delta-bar where delta~ belongs), composed by "
                + "the seed's strong composition: known wrong", BoundKind.KNOWN_WRONG, false),
        /** Theorem 1 with the O(.) read as constant 1. */
        THM1_CONSTANT_1("dss-sgd-thm1-constant-1", "Girgis et al., Theorem 1 with the O(.) dropped (constant 1): eps = "
                + "eps0 sqrt(q-bar T log(q-bar T/delta') log(1/delta')/n), delta = 2 delta' + T P(K outside "
                + "[qm/2, 3qm/2]): known wrong", BoundKind.KNOWN_WRONG, false),
        /** Planted bug: shuffling amplification over all m clients, then sampling amplification. */
        PLANTED_ALL_CLIENTS("planted-shuffling-over-all-clients", "planted accounting bug: the exact curve of "
                + "shuffling all m clients' reports (as if every client reported), amplified by sampling the target at "
                + "q/r; the blanket is the K_t who report, not all m: known wrong", BoundKind.KNOWN_WRONG, true),
        /** Planted bug: participation amplification applied twice. */
        PLANTED_DOUBLE_AMPLIFICATION("planted-double-participation-amplification", "planted accounting bug: the "
                + "exact per-round curve (which already contains client self-sampling) amplified by participation at q "
                + "once more: known wrong", BoundKind.KNOWN_WRONG, true);

        final String label;
        final String summary;
        final BoundKind kind;
        final boolean planted;

        Reading(String label, String summary, BoundKind kind, boolean planted) {
            this.label = label;
            this.summary = summary;
            this.kind = kind;
            this.planted = planted;
        }

        PrivacyBound bound(ShuffleModel m) {
            ShuffleParameters p = m.parameters();
            return switch (this) {
                case PLANTED_ALL_CLIENTS -> plantedAllClients(p);
                case PLANTED_DOUBLE_AMPLIFICATION -> plantedDoubleAmplification(m);
                default -> new EpsilonOfDeltaBound(label, summary + "; " + p.describe(), kind,
                        d -> epsilon(this, p, d), Double.POSITIVE_INFINITY);
            };
        }
    }

    /** The window {@code [ceil(qm/2), floor(3qm/2)]} of K the proof keeps (the Chernoff bound's epsilon = 1/2). */
    static int[] window(ShuffleParameters p) {
        if (p.sampling().equals("fixed")) {
            return new int[] {p.fixedClients(), p.fixedClients()};
        }
        double qm = p.q() * p.clients();
        int lo = (int) Math.max(1, Math.ceil(0.5 * qm));
        int hi = (int) Math.min(p.clients(), Math.floor(1.5 * qm));
        return new int[] {lo, hi};
    }

    /**
     * {@code P(K outside the window)}, the exact binomial tail (summed term by term in log space, so that tiny tails
     * keep their precision); 0 for a fixed number of clients. An empty window has tail 1.
     */
    static double windowTail(ShuffleParameters p) {
        if (p.sampling().equals("fixed") || p.q() == 1.0) {
            return 0.0;
        }
        int[] w = window(p);
        if (w[0] > w[1]) {
            return 1.0;
        }
        BinomialDistribution k = new BinomialDistribution(null, p.clients(), p.q());
        double log = LogSpace.add(tail(k, w[0] - 1, -1), tail(k, w[1] + 1, +1));
        return Math.min(1.0, Math.exp(log));
    }

    /** log of the sum of pmf terms from {@code from} outward in direction {@code step}, until they vanish. */
    private static double tail(BinomialDistribution k, int from, int step) {
        double log = Double.NEGATIVE_INFINITY;
        double first = Double.NaN;
        for (int x = from; x >= 0 && x <= k.getNumberOfTrials(); x += step) {
            double l = k.logProbability(x);
            if (Double.isNaN(first)) {
                first = l;
            }
            log = LogSpace.add(log, l);
            if (l < first - 80 || l < -800) {
                break; // the remaining terms add less than e^-80 relative
            }
        }
        return log;
    }

    /**
     * The epsilon a formula reading certifies at total {@code delta}; {@code +inf} when {@code delta} is at or below
     * the {@code T P(K outside the window)} every reading spends on the window (vacuous there).
     */
    static double epsilon(Reading r, ShuffleParameters p, double delta) {
        int t = p.rounds();
        double n = p.totalRecords();
        double qBar = p.q() / p.records();
        double tail = windowTail(p);
        double remaining = delta - t * tail;
        if (!(remaining > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        if (r == Reading.THM1_CONSTANT_1) {
            double dPrime = remaining / 2;
            double log = Math.log(qBar * t / dPrime);
            return log > 0 ? p.eps0() * Math.sqrt(qBar * t * log * Math.log(1 / dPrime) / n)
                    : Double.POSITIVE_INFINITY;
        }
        int[] w = window(p);
        // Basic composition spends everything on delta~; the strong one splits it with delta' on a fixed grid.
        double best = Composition.basicEpsilon(perRound(r, p, w, remaining / (t * qBar), tail), t);
        if (t > 1) {
            for (int i = 1; i < 20; i++) {
                double dPrime = remaining * i / 20.0;
                double perRound = perRound(r, p, w, (remaining - dPrime) / (t * qBar), tail);
                best = Math.min(best, Composition.advancedEpsilon(perRound, t, dPrime));
            }
        }
        return best;
    }

    /** The per-round epsilon-bar of a reading at {@code delta~}; the per-round delta-bar is q-bar delta~ + tail. */
    private static double perRound(Reading r, ShuffleParameters p, int[] w, double deltaTilde, double tail) {
        double n = p.totalRecords();
        double qBar = p.q() / p.records();
        double eps0 = p.eps0();
        if (!(deltaTilde > 0 && deltaTilde < 1)) {
            return Double.POSITIVE_INFINITY;
        }
        switch (r) {
            case LEMMA1_CONSTANT_1:
                return eps0 * Math.sqrt(qBar * Math.log(1 / deltaTilde) / n);
            case LEMMA1_AS_PRINTED:
                return eps0 * Math.sqrt(qBar * Math.log(1 / (qBar * deltaTilde + tail)) / n);
            default:
                break;
        }
        double worst = 0;
        for (int k = w[0]; k <= w[1]; k++) {
            double shuffled = Fmt21Shuffling.codeForm(eps0, k, deltaTilde);
            double weight = k / n;
            double e = r == Reading.EQ8_AS_PRINTED ? Math.log1p(weight * shuffled)
                    : Math.log1p(weight * Math.expm1(shuffled));
            worst = Math.max(worst, e);
        }
        return worst;
    }

    /** Shuffling all m clients' reports, then Poisson-style amplification at q/r: the planted bug. */
    static PrivacyBound plantedAllClients(ShuffleParameters p) {
        Reading r = Reading.PLANTED_ALL_CLIENTS;
        ShuffleParameters all = new ShuffleParameters(ShuffleParameters.SHUFFLED_TYPE, p.clients(), 1, 1.0, "self",
                p.randomizer(), p.eps0(), p.symbols(), p.dimension(), 1, p.config());
        PrivacyBound perRound = new PoissonAmplificationBound(p.q() / p.records(), exact(new ShuffleModel(all)));
        return planted(r, p, perRound);
    }

    /** The exact per-round curve amplified at q once more: the planted bug. */
    static PrivacyBound plantedDoubleAmplification(ShuffleModel m) {
        ShuffleParameters p = m.parameters();
        Reading r = Reading.PLANTED_DOUBLE_AMPLIFICATION;
        List<PrivacyBound> rounds = new ArrayList<>();
        for (String c : m.configurations()) {
            rounds.add(m.perRound(c));
        }
        PrivacyBound once = rounds.size() == 1 ? rounds.get(0)
                : new MaximumBound("exact per round", "exact per round", BoundKind.PAIR_PROFILE, rounds);
        PrivacyBound perRound = new PoissonAmplificationBound(p.q(), once);
        return planted(r, p, perRound);
    }

    private static PrivacyBound planted(Reading r, ShuffleParameters p, PrivacyBound perRound) {
        PrivacyBound b = p.rounds() == 1 ? perRound : ProfileComposition.compose(perRound, p.rounds());
        return new LabelledBound(r.label, r.kind, b, r.summary + "; " + p.describe());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Notes

    /** What a reader must know about these bounds for this configuration. */
    List<String> notes() {
        List<String> notes = new ArrayList<>();
        if (s.config().equals("worst")) {
            double c = model.perRound("canonical").epsilon(REFERENCE_DELTA);
            double o = model.perRound("opposite").epsilon(REFERENCE_DELTA);
            notes.add(Math.abs(c - o) <= 1e-9 * Math.max(c, o)
                    ? String.format(Locale.ROOT, "The canonical and opposite datasets have the same exact curve here "
                            + "(per round, epsilon = %.6g at delta = 1e-6: they are mirror images under relabelling "
                            + "the two inputs); the simulators use canonical.", c)
                    : String.format(Locale.ROOT, "Per round at delta = 1e-6 the canonical dataset gives epsilon = "
                            + "%.6g and the opposite one %.6g; the exact curve is the maximum and the simulators use "
                            + "%s.", c, o, model.simulatedConfiguration()));
        }
        if (s.dss()) {
            double tail = windowTail(s);
            int[] w = window(s);
            if (tail > 0) {
                notes.add(String.format(Locale.ROOT, "The seed's proof keeps K in [qm/2, 3qm/2] = [%d, %d] and "
                        + "spends T P(K outside) = %.3g of delta on the rest (the e^{-c'qm} term of Lemma 1 and "
                        + "Remark 1, here the exact binomial tail): every instantiated reading certifies nothing at "
                        + "delta <= %.3g. The exact curve has no such floor.", w[0], w[1], s.rounds() * tail,
                        s.rounds() * tail));
            }
            int regime = 0;
            for (int k = w[0]; k <= w[1]; k++) {
                if (Fmt21Shuffling.codeForm(s.eps0(), k, 1e-6) < s.eps0()) {
                    regime = k;
                    break;
                }
            }
            notes.add(regime == 0
                    ? String.format(Locale.ROOT, "Feldman-McMillan-Talwar's shuffling bound does not apply to any K "
                            + "in the window at eps0 = %s (it needs K >= 16 e^eps0 log(4/delta~)): the instantiated "
                            + "bound falls back to eps0 per report, amplified only by the target's weight K/n.",
                            Checks.format(s.eps0()))
                    : String.format(Locale.ROOT, "Feldman-McMillan-Talwar's shuffling bound applies from K = %d "
                            + "reports on (at delta~ = 1e-6); below, the instantiated bound uses eps0 per report.",
                            regime));
            if (s.eps0() > 1) {
                notes.add("Lemma 1 and Theorem 1 assume eps0 = O(1); at eps0 = " + Checks.format(s.eps0())
                        + " their constant-1 readings are outside that assumption as well as unproven.");
            }
        }
        if (s.rounds() > 1) {
            double hi = exact(model).epsilon(1e-5);
            double lo = exactEpsilonLowerEnd(model, 1e-5);
            notes.add(String.format(Locale.ROOT, "%s-exact over %d rounds is the PLD of the discrete per-round loss "
                    + "with losses rounded up to the grid; rounding them down instead gives epsilon(1e-5) = %.6g "
                    + "against %.6g: the exact curve lies between.", s.type(), s.rounds(), lo, hi));
        }
        return notes;
    }
}
