package io.dpaudit.mechanisms.checkin;

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
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.ParameterCalibration;
import io.dpaudit.core.bounds.PoissonAmplificationBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.law.DiscreteLaw;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;

/**
 * The bounds of the random check-in protocols (Balle, Kairouz, McMahan, Thakkar &amp; Thakurta, NeurIPS 2020, seed
 * 004), each as a function of the randomizer's parameter ({@code eps0}, or {@code sigma} for the Gaussian randomizer),
 * each with its status:
 *
 * <ul>
 *   <li>{@code TYPE-exact} (exact profile of the simulated pair): see {@link CheckInModel}.</li>
 *   <li>{@code checkin-subsampling} (proven here): the target's record influences the releases only if it checks in
 *       at a served slot, a data-independent event of probability {@code p0' = p0} ({@code p0 w/m} for a sliding
 *       window with {@code w} served slots). Given that it does, the view is a mixture over slot contents in which the
 *       target's record passes through the randomizer at most once, so it is {@code eps0}-close both to the view with
 *       the replacement and to the view without the target (joint convexity: a slot's release is one randomizer output
 *       on some record, and any two records' outputs are {@code eps0}-close). The advanced joint convexity of Balle,
 *       Barthe &amp; Gaboardi (2018, Thm 2) then gives {@code (log(1 + p0'(e^eps0 - 1)), 0)}-DP per round for any
 *       dataset, composed over rounds exactly as randomized response with that epsilon (Kairouz, Oh &amp; Viswanath
 *       2015: it dominates every pure-DP mechanism). <b>Not for averaged updates</b> (Algorithm 2): a slot's release
 *       there is an average with its count observed, so the view without the target is not {@code eps0}-close to the
 *       view with it (if every client checked in, the target did); the same form is registered for that type as
 *       {@link BoundKind#KNOWN_WRONG} (at n = 2, m = 1, p0 = 0.5, eps0 = 1 the exact pair's {@code delta(0.7)} is
 *       0.0346, where it gives 0). For the Gaussian randomizer, {@code delta'(eps') = p0'
 *       delta_G(log(1 + (e^eps' - 1)/p0'))} with {@code delta_G} the Gaussian profile of sensitivity {@code 2C} (inputs
 *       in {@code [-C, C]}), composed by the PLD accountant.</li>
 *   <li>{@code ldp-baseline} (proven): post-processing — the target's record passes through the randomizer at most once
 *       per round; {@code eps0} per round (or the Gaussian with sensitivity {@code 2C}), composed exactly.</li>
 *   <li>{@code bkmtt20-thm3.2} (reconstructed; formula sheet §8): {@code p0 (e^eps0 - 1) sqrt(2 e^eps0 log(1/delta)/m)
 *       + p0^2 e^eps0 (e^eps0 - 1)^2 / m}; its clause {@code bkmtt20-thm3.2-7p0eps0}: {@code 7 p0 eps0
 *       sqrt(log(1/delta)/m)} for {@code eps0 <= 1}, {@code delta <= 1/100}; {@code bkmtt20-thm4.3} (sliding windows,
 *       reconstructed: the same expression with the window size). Over {@code R > 1} rounds they are composed by the
 *       advanced composition theorem, as Corollary 3.3 does.</li>
 *   <li>Known wrong, kept as claims to refute: {@code bkmtt20-thm3.2-m-n-mixup} (p0 replaced by p0 m/n, Remark 1's
 *       substitution applied to a statement that already has it), {@code planted-per-slot-no-composition} (the
 *       amplification of one slot, {@code log(1 + (s/m)(e^eps0 - 1))}, reported for the whole pass) and
 *       {@code planted-poisson-accounting} (check-in coin and uniform selection taken as independent Poisson sampling
 *       of the target into every slot at rate {@code p0/n}, composed over the {@code m} slots; optimistic once several
 *       clients share a slot and {@code p0 < 1}, since the target is really used with probability close to
 *       {@code m/n}).</li>
 * </ul>
 * Not implemented, because the seed's text cannot support them: Theorem 3.2's {@code (eps0, delta0)} clause, Theorem
 * 4.1 (averaged updates).
 */
final class CheckInBounds {
    /** eps0 of randomized response. */
    static final CalibrationParameter EPS0 = new CalibrationParameter("eps0",
            "the local randomizer's privacy level (larger reveals more)", false, 1e-3, CheckInParameters.MAX_EPS0);

    private final CheckInModel model;
    private final CheckInParameters s;

    CheckInBounds(CheckInModel model) {
        this.model = model;
        this.s = model.parameters();
    }

    /** The bound families, each a function of eps0 or sigma. */
    List<BoundFamily> families() {
        List<BoundFamily> list = new ArrayList<>();
        if (s.rr() || s.targetWindow() == 1) {
            list.add(family(s.type() + "-exact", "exact curve of the simulated pair", CheckInModel::exact));
        }
        list.add(family("checkin-subsampling", s.averaged() && s.rr()
                ? "withdrawn for averaged updates (their counts reveal the check-in): a claim to refute"
                : "proven: check-in coin as subsampling, any dataset",
                m -> checkinSubsampling(m.parameters())));
        list.add(family("ldp-baseline", "proven: post-processing of one randomizer output per round",
                m -> ldpBaseline(m.parameters())));
        if (!s.rr() || s.averaged()) {
            return list;
        }
        for (Statement st : Statement.values()) {
            if (st.applies(s)) {
                BoundFamily f = family(st.label, st.summary, m -> st.bound(m.parameters()));
                // The clause stops at eps0 = 1, so its delta is not monotone in eps0 over the whole range.
                list.add(st != Statement.THM_3_2_SIMPLE ? f : new BoundFamily(f.name(), f.source(), f.parameter(),
                        f.current(), f.at(), (e, d) -> ParameterCalibration.byScan(EPS0, f.at(), e, d)));
            }
        }
        if (!s.sliding()) {
            list.add(family("planted-per-slot-no-composition", "planted bug: one slot's amplification reported for "
                    + "the pass", m -> plantedPerSlot(m.parameters())));
            list.add(family("planted-poisson-accounting", "planted bug: Poisson accounting at rate p0/n per slot",
                    m -> plantedPoisson(m.parameters())));
        }
        return list;
    }

    private BoundFamily family(String name, String summary, Function<CheckInModel, PrivacyBound> at) {
        CalibrationParameter parameter = s.rr() ? EPS0 : CalibrationParameter.SIGMA;
        return new BoundFamily(name, summary, parameter, s.calibrated(),
                v -> at.apply(v == s.calibrated() ? model : new CheckInModel(s.withCalibrated(v))));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Proven bounds

    /** The subsampling probability of the check-in coin: p0, or p0 w/m for a sliding window. */
    static double checkinRate(CheckInParameters p) {
        return p.sliding() ? p.p0() * p.targetWindow() / p.slots() : p.p0();
    }

    static PrivacyBound checkinSubsampling(CheckInParameters p) {
        double rate = checkinRate(p);
        String name = "checkin-subsampling";
        if (p.rr() && p.averaged()) {
            double e = PoissonAmplificationBound.amplifiedEpsilon(p.eps0(), rate);
            String source = String.format(Locale.ROOT, "NOT VALID for averaged updates (dp-audit's own earlier claim, "
                    + "withdrawn): (log(1 + %s(e^eps0 - 1)), 0) = (%.6g, 0) per round by advanced joint convexity "
                    + "needs the view without the target to be eps0-close to the view with it, but the observed counts "
                    + "tell them apart (all n clients checked in: impossible without the target). At n = 2, m = 1, "
                    + "p0 = 0.5, eps0 = 1 the exact pair has delta(0.7) = 0.0346 (checked by hand) where this form "
                    + "gives 0. Kept as a claim to refute; ldp-baseline is the proven bound here", Checks.format(rate),
                    e);
            return composedPair(name, source, BoundKind.KNOWN_WRONG, randomizedResponsePair(e), p.rounds());
        }
        if (p.rr()) {
            double e = PoissonAmplificationBound.amplifiedEpsilon(p.eps0(), rate);
            String source = String.format(Locale.ROOT, "proven by dp-audit (see CheckInBounds): the check-in coin "
                    + "subsamples the target at %s and its record passes the eps0-LDP randomizer at most once, so a "
                    + "round is (log(1 + %s(e^eps0 - 1)), 0)-DP = (%.6g, 0)-DP for any dataset (Balle, Barthe & "
                    + "Gaboardi 2018, advanced joint convexity)", Checks.format(rate), Checks.format(rate), e);
            return pureComposed(name, source, e, p.rounds());
        }
        PrivacyBound round = new PoissonAmplificationBound(rate, GaussianBound.of(p.sigma(), 2 * p.clip(), 1));
        String source = String.format(Locale.ROOT, "proven by dp-audit (see CheckInBounds): the check-in coin "
                + "subsamples the target at %s; given it checks in, the Gaussian randomizer with sensitivity 2C = %s "
                + "and sigma = %s (Balle, Barthe & Gaboardi 2018, Thm 8 form)", Checks.format(rate),
                Checks.format(2 * p.clip()), Checks.format(p.sigma()));
        PrivacyBound b = p.rounds() == 1 ? round : ProfileComposition.compose(round, p.rounds());
        return new LabelledBound(name, BoundKind.UPPER_BOUND, b, source + (p.rounds() > 1 ? "; composed over "
                + p.rounds() + " rounds: " + b.source() : ""));
    }

    static PrivacyBound ldpBaseline(CheckInParameters p) {
        String name = "ldp-baseline";
        if (p.rr()) {
            return pureComposed(name, "proven: post-processing — the target's record passes through the eps0-LDP "
                    + "randomizer at most once per round (the eps0 fallback)", p.eps0(), p.rounds());
        }
        GaussianBound g = GaussianBound.of(p.sigma(), 2 * p.clip(), p.rounds());
        return new LabelledBound(name, BoundKind.UPPER_BOUND, g, "proven: post-processing — the target's record "
                + "passes through the Gaussian randomizer (sensitivity 2C) at most once per round; " + g.source());
    }

    /**
     * {@code (eps, 0)}-DP per round composed over {@code rounds}: randomized response with {@code eps}, exactly (one
     * round) or by the PLD accountant (pessimistic rounding).
     */
    static PrivacyBound pureComposed(String name, String source, double eps, int rounds) {
        return composedPair(name, source, BoundKind.UPPER_BOUND, randomizedResponsePair(eps), rounds);
    }

    /** The pair of randomized response with {@code eps}: {P, Q} over {0, 1}. */
    static double[][] randomizedResponsePair(double eps) {
        double a = 1.0 / (1.0 + Math.exp(-eps));
        double b = 1.0 / (1.0 + Math.exp(eps));
        return new double[][] {{b, a}, {a, b}};
    }

    private static PrivacyBound composedPair(String name, String source, BoundKind kind, double[][] pair,
            long rounds) {
        if (rounds == 1) {
            return new DiscretePairProfile(name, source, kind, DiscreteLaw.ofProbabilities(pair[0], i -> "bit " + i),
                    DiscreteLaw.ofProbabilities(pair[1], i -> "bit " + i), 0.0);
        }
        PrivacyBound pld = new PldAccountant().account(name, new DpEvent.SelfComposed(
                DpEvent.DiscreteLoss.ofPair(name, pair[0], pair[1]), rounds), Adjacency.REPLACE_ONE);
        return new LabelledBound(name, kind, pld, source + "; composed over " + rounds + ": " + pld.source());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The seed's statements

    /** Theorem 3.2, its clause, the m-n mixup and Theorem 4.3, as functions of delta. */
    enum Statement {
        /** Theorem 3.2, reconstructed. */
        THM_3_2("bkmtt20-thm3.2", "Balle et al. (NeurIPS 2020) Thm 3.2, pure eps0: p0 (e^eps0 - 1) sqrt(2 e^eps0 "
                + "log(1/delta)/m) + p0^2 e^eps0 (e^eps0 - 1)^2/m (form settled by Remarks 1-2 and the proof sketch, "
                + "constants reconstructed; formula sheet §8)", BoundKind.RECONSTRUCTED),
        /** Its 7 p0 eps0 clause. */
        THM_3_2_SIMPLE("bkmtt20-thm3.2-7p0eps0", "Balle et al. Thm 3.2, clause for eps0 <= 1 and delta <= 1/100: "
                + "7 p0 eps0 sqrt(log(1/delta)/m) (reconstructed; stated for delta <= 1/100, certifies nothing at eps0 > 1)",
                BoundKind.RECONSTRUCTED),
        /** The m-n mixup: Remark 1's substitution applied twice. */
        MIXUP("bkmtt20-thm3.2-m-n-mixup", "Balle et al. Thm 3.2 read with p0 replaced by p0 m/n (Remark 1's "
                + "substitution applied to a statement that already holds for any n): known wrong",
                BoundKind.KNOWN_WRONG),
        /** Theorem 4.3, sliding windows, reconstructed. */
        THM_4_3("bkmtt20-thm4.3", "Balle et al. Thm 4.3 (sliding windows), reconstructed: the Thm 3.2 expression with "
                + "the window size m", BoundKind.RECONSTRUCTED);

        final String label;
        final String summary;
        final BoundKind kind;

        Statement(String label, String summary, BoundKind kind) {
            this.label = label;
            this.summary = summary;
            this.kind = kind;
        }

        boolean applies(CheckInParameters p) {
            return switch (this) {
                case THM_3_2 -> !p.sliding();
                case THM_3_2_SIMPLE -> !p.sliding() && p.eps0() <= 1;
                case MIXUP -> !p.sliding() && p.slots() != p.clients();
                case THM_4_3 -> p.sliding();
            };
        }

        /** Per-round epsilon at delta. */
        double perRound(CheckInParameters p, double delta) {
            if (!(delta > 0 && delta < 1)) {
                return Double.POSITIVE_INFINITY;
            }
            double p0 = this == MIXUP ? p.p0() * p.slots() / p.clients() : p.p0();
            if (this == THM_3_2_SIMPLE) {
                // Stated for delta <= 1/100; at a larger delta it certifies what it certifies at 1/100.
                return p.eps0() <= 1 ? 7 * p0 * p.eps0() * Math.sqrt(Math.log(1 / Math.min(delta, 0.01)) / p.slots())
                        : Double.POSITIVE_INFINITY;
            }
            return theorem32(p.eps0(), p0, p.slots(), delta);
        }

        PrivacyBound bound(CheckInParameters p) {
            String source = summary + (p.rounds() > 1 ? "; over " + p.rounds() + " rounds by the advanced "
                    + "composition theorem (Dwork & Roth Thm 3.20), as Corollary 3.3 composes A_fix" : "") + "; "
                    + p.describe();
            return new EpsilonOfDeltaBound(label, source, kind, d -> composed(d2 -> perRound(p, d2), p.rounds(), d),
                    Double.POSITIVE_INFINITY);
        }
    }

    /** The Theorem 3.2 expression (formula sheet §8). */
    static double theorem32(double eps0, double p0, int m, double delta) {
        double em1 = Math.expm1(eps0);
        double e = Math.exp(eps0);
        return p0 * em1 * Math.sqrt(2 * e * Math.log(1 / delta) / m) + p0 * p0 * e * em1 * em1 / m;
    }

    /**
     * A per-round {@code epsilon(delta)} over {@code rounds}: itself for one round; otherwise the better of basic
     * composition and advanced composition with {@code delta'} on a grid of 19 splits of {@code delta}.
     */
    static double composed(DoubleUnaryOperator perRound, int rounds, double delta) {
        if (rounds == 1) {
            return perRound.applyAsDouble(delta);
        }
        double best = Composition.basicEpsilon(perRound.applyAsDouble(delta / rounds), rounds);
        for (int i = 1; i < 20; i++) {
            double dPrime = delta * i / 20.0;
            double e = perRound.applyAsDouble((delta - dPrime) / rounds);
            if (Double.isFinite(e)) {
                best = Math.min(best, Composition.advancedEpsilon(e, rounds, dPrime));
            }
        }
        return best;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Planted accounting bugs

    static PrivacyBound plantedPerSlot(CheckInParameters p) {
        double s = CheckInModel.selection(p);
        double e = PoissonAmplificationBound.amplifiedEpsilon(p.eps0(), s / p.slots());
        String source = String.format(Locale.ROOT, "planted accounting bug: the target is used at a given slot with "
                + "probability s/m = %.6g, so one slot is (log(1 + (s/m)(e^eps0 - 1)), 0) = (%.6g, 0)-DP; reported "
                + "for the whole pass without composing the m = %d slots: known wrong", s / p.slots(), e, p.slots());
        return composedPair("planted-per-slot-no-composition", source, BoundKind.KNOWN_WRONG,
                randomizedResponsePair(e), p.rounds());
    }

    static PrivacyBound plantedPoisson(CheckInParameters p) {
        double rate = p.p0() / p.clients();
        double[][] rr = randomizedResponsePair(p.eps0());
        double[] mixed = {rate * rr[0][0] + (1 - rate) * rr[1][0], rate * rr[0][1] + (1 - rate) * rr[1][1]};
        long count = (long) p.slots() * p.rounds();
        String source = String.format(Locale.ROOT, "planted accounting bug: the check-in coin and the uniform "
                + "selection taken as independent Poisson sampling of the target into each of the m = %d slots at "
                + "rate p0/n = %.6g, each slot randomized response mixed at that rate, composed over %d slot(s) by "
                + "the PLD accountant; the target is really used with probability s = %.6g per pass, not p0 m/n = "
                + "%.6g: known wrong", p.slots(), rate, count, CheckInModel.selection(p),
                p.p0() * p.slots() / p.clients());
        return composedPair("planted-poisson-accounting", source, BoundKind.KNOWN_WRONG,
                new double[][] {mixed, rr[1]}, count);
    }
}
