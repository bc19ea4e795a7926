package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.Checks;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.ProfileComposition;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.MaximumBound;
import io.dpaudit.core.bounds.MixturePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.mechanisms.shuffle.ExchangeableReleases;
import io.dpaudit.mechanisms.shuffle.RandomizedResponse;
import io.dpaudit.mechanisms.shuffle.ShuffleLaw;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One check-in configuration with its exact laws computed once (thread-safe; everything depends on the parameters
 * only).
 *
 * <p><b>What is exact.</b> Slots are exchangeable given who is used where, and the adversary's view is the multiset of
 * the releases (for sliding windows: the releases of the target's window; the others are independent of the target on
 * the canonical dataset). For binary randomized response the number {@code K} of ones is sufficient, its law in each
 * world a finite mixture of binomials ({@link ExchangeableReleases}); the law of {@code U}, the number of releases
 * computed from a record holding 1, is:
 * <ul>
 *   <li>canonical dataset: {@code U ~ Bernoulli(s)} in {@code D} and {@code U = 0} in {@code D'}, with the probability
 *       that the target is checked in and selected {@code s = p0 E[1/(1 + Binomial(n-1, p0/m))] =
 *       (m/n)(1 - (1 - p0/m)^n)} ({@code E[1/(1+X)] = (1 - (1-r)^{N+1})/((N+1) r)} for {@code X ~ Binomial(N, r)});
 *       for a sliding window {@code s_j = (w_j/m)(1 - (1 - p0/m)^m)}, every served slot being covered by {@code m}
 *       clients and {@code w_j} of them lying in the target's window;</li>
 *   <li>other datasets: by the occupancy computation of {@link SlotValueLaw}.</li>
 * </ul>
 * Averaged updates (Algorithm 2) with randomized response: each checked-in client's report is used once, so the view
 * is equivalent to (number of check-ins, number of ones) — shuffling of {@code N ~ Binomial(n, p0)} reports in which
 * the target takes part with probability {@code N/n} ({@link ShuffleLaw}). The Gaussian randomizer: the releases of the
 * window are {@code N(0, sigma^2)} except {@code U} of them centred at the target's value; the exact curve is computed
 * for a window of one slot (a one-dimensional mixture); for wider windows only its likelihood ratio is exact.
 */
final class CheckInModel {
    /** The delta at which datasets are compared. */
    static final double REFERENCE_DELTA = 1e-6;

    private final CheckInParameters p;
    private final Map<String, Round> rounds = new ConcurrentHashMap<>();
    private final Map<String, DiscretePairProfile> profiles = new ConcurrentHashMap<>();
    private volatile List<Ranked> ranking;
    private volatile PrivacyBound exact;

    /** The exact law of one round's sufficient statistic on one dataset. */
    record Round(CheckInDataset dataset, DiscreteLaw withCanary, DiscreteLaw withoutCanary, double droppedMass,
            String describe, ShuffleLaw averaged) {
    }

    /** A dataset and its per-round exact epsilon at the reference delta. */
    record Ranked(CheckInDataset dataset, double epsilon) {
    }

    CheckInModel(CheckInParameters p) {
        this.p = p;
    }

    CheckInParameters parameters() {
        return p;
    }

    /** The probability that the target is checked in and its update used (canonical dataset). */
    static double selection(CheckInParameters p) {
        if (p.averaged()) {
            return p.p0();
        }
        int m = p.slots();
        double empty = p.p0() == m ? 0.0 : Math.exp((p.sliding() ? m : (double) p.clients())
                * Math.log1p(-p.p0() / m)); // (1 - p0/m)^n, or ^m for a sliding window
        double used = -Math.expm1(Math.log(empty)); // 1 - empty, accurate when empty is close to 1
        if (empty == 0.0) {
            used = 1.0;
        }
        // A probability: (m/n)(1 - (1 - p0/m)^n) is p0 exactly at n = 1, and rounding could put it a hair above 1
        // (clients=1, slots=100, p0=1 gave 1.0000000000000002, whose log1p(-s) was NaN).
        return Math.min(1.0, p.sliding() ? (double) p.targetWindow() / m * used : (double) m / p.clients() * used);
    }

    /** The datasets the exact curve maximises over (randomized response, fixed window) or canonical. */
    List<CheckInDataset> datasets() {
        if (!p.rr() || !p.type().equals(CheckInParameters.FIXED_TYPE)) {
            return List.of(CheckInDataset.CANONICAL);
        }
        return switch (p.dataset()) {
            case "worst" -> {
                List<CheckInDataset> list = new ArrayList<>(List.of(CheckInDataset.CANONICAL));
                if (p.clients() >= 2) {
                    list.add(CheckInDataset.HELPER);
                }
                list.add(CheckInDataset.OPPOSITE);
                list.removeIf(d -> !d.canonical() && !affordable(d));
                yield List.copyOf(list);
            }
            case "exhaustive" -> CheckInDataset.all(p.clients());
            default -> List.of(CheckInDataset.named(p.dataset()));
        };
    }

    /** The named datasets left out of {@code worst} because their exact law is too costly here. */
    List<CheckInDataset> unaffordable() {
        if (!p.rr() || !p.type().equals(CheckInParameters.FIXED_TYPE) || !p.dataset().equals("worst")) {
            return List.of();
        }
        List<CheckInDataset> list = new ArrayList<>();
        for (CheckInDataset d : List.of(CheckInDataset.HELPER, CheckInDataset.OPPOSITE)) {
            if ((!d.equals(CheckInDataset.HELPER) || p.clients() >= 2) && !affordable(d)) {
                list.add(d);
            }
        }
        return list;
    }

    private boolean affordable(CheckInDataset d) {
        return SlotValueLaw.work(p.clients(), p.slots(), p.p0(), d.highOthers() + 1) <= SlotValueLaw.MAX_WORK;
    }

    /** The exact law of a round on {@code d} (randomized response). */
    Round round(CheckInDataset d) {
        return rounds.computeIfAbsent(d.name(), k -> buildRound(d));
    }

    private Round buildRound(CheckInDataset d) {
        if (p.averaged()) {
            RandomizedResponse rr = new RandomizedResponse(p.eps0());
            ShuffleLaw law = new ShuffleLaw(rr, rr.replacement(), rr.target(), rr.replacement(),
                    new ShuffleLaw.Reports.SelfSampled(p.clients(), p.p0()), p.clients());
            return new Round(d, law.withCanary(), law.withoutCanary(), law.droppedMass(), "averaged updates = "
                    + "shuffling of N ~ Binomial(n, p0) reports, " + law.describe(), law);
        }
        ExchangeableReleases releases = releases(d);
        DiscreteLaw[] k = releases.randomizedResponse(p.eps0());
        double dropped = ExchangeableReleases.DROPPED_MASS + (d.canonical() ? 0.0
                : slotLaw(d, true).droppedMass() + slotLaw(d, false).droppedMass());
        String describe = String.format(Locale.ROOT, "K = number of ones among the %d release(s) of the target's "
                + "window; %s", releases.releases(), d.canonical() ? "U ~ Bernoulli(s), s = "
                        + String.format(Locale.ROOT, "%.6g", selection(p)) : "U by the occupancy computation");
        return new Round(d, k[0], k[1], dropped, describe, null);
    }

    private SlotValueLaw slotLaw(CheckInDataset d, boolean withCanary) {
        return new SlotValueLaw(p.clients(), p.slots(), p.p0(), d.highOthers() + (withCanary ? 1 : 0),
                d.dummyHigh());
    }

    /** The laws of {@code U} in both worlds for a dataset. */
    ExchangeableReleases releases(CheckInDataset d) {
        int w = p.targetWindow();
        double[] with = new double[w + 1];
        double[] without = new double[w + 1];
        java.util.Arrays.fill(without, Double.NEGATIVE_INFINITY);
        without[0] = 0.0;
        if (d.canonical()) {
            double s = selection(p);
            java.util.Arrays.fill(with, Double.NEGATIVE_INFINITY);
            with[0] = Math.log1p(-s);
            if (w >= 1) {
                with[1] = Math.log(s);
            }
            return new ExchangeableReleases(w, with, without);
        }
        return new ExchangeableReleases(w, slotLaw(d, true).logProbabilities(),
                slotLaw(d, false).logProbabilities());
    }

    /** The per-round exact profile on a dataset. */
    DiscretePairProfile perRound(CheckInDataset d) {
        return profiles.computeIfAbsent(d.name(), k -> {
            Round r = round(d);
            return new DiscretePairProfile(p.type() + "-exact(" + d.name() + ")", "exact profile of one round, "
                    + d.name() + " dataset: " + r.describe(), BoundKind.PAIR_PROFILE, r.withCanary(),
                    r.withoutCanary(), r.droppedMass());
        });
    }

    /** The discrete loss of one round on a dataset, the dropped mass at +inf, for composition. */
    DpEvent.DiscreteLoss event(CheckInDataset d) {
        Round r = round(d);
        double[] a = logs(r.withCanary());
        double[] b = logs(r.withoutCanary());
        DpEvent.DiscreteLoss l = DpEvent.DiscreteLoss.ofLogPair(d.name() + " dataset, " + r.describe(), a, b);
        return new DpEvent.DiscreteLoss(l.description(), plus(l.remove(), r.droppedMass()),
                plus(l.add(), r.droppedMass()));
    }

    private static DpEvent.LossMasses plus(DpEvent.LossMasses m, double dropped) {
        return new DpEvent.LossMasses(m.losses(), m.masses(), m.infinityMass() + dropped);
    }

    static double[] logs(DiscreteLaw law) {
        double[] l = new double[law.atoms()];
        for (int i = 0; i < l.length; i++) {
            l[i] = law.logProbability(i);
        }
        return l;
    }

    /** The datasets ranked by their per-round exact epsilon at delta = 1e-6, largest first (ties: listed order). */
    List<Ranked> ranking() {
        List<Ranked> r = ranking;
        if (r == null) {
            List<Ranked> list = new ArrayList<>();
            for (CheckInDataset d : datasets()) {
                list.add(new Ranked(d, perRound(d).epsilon(REFERENCE_DELTA)));
            }
            List<Ranked> sorted = new ArrayList<>(list);
            sorted.sort(Comparator.comparingDouble((Ranked x) -> -x.epsilon()));
            // Keep canonical first unless another is larger by more than 1e-9 relative (mirror images tie).
            Ranked top = sorted.get(0);
            Ranked canonical = list.get(0);
            if (canonical.dataset().canonical() && top.epsilon() <= canonical.epsilon() * (1 + 1e-9)) {
                sorted.remove(canonical);
                sorted.add(0, canonical);
            }
            r = List.copyOf(sorted);
            ranking = r;
        }
        return r;
    }

    /** The dataset the simulators use: the worst of {@link #datasets()} per round at delta = 1e-6. */
    CheckInDataset simulated() {
        return p.rr() ? ranking().get(0).dataset() : CheckInDataset.CANONICAL;
    }

    /** The exact curve ({@code TYPE-exact}), or null where none is computed (Gaussian, window of 2 or more). */
    PrivacyBound exact() {
        PrivacyBound e = exact;
        if (e == null && (p.rr() || p.targetWindow() == 1)) {
            e = p.rr() ? exactRandomizedResponse() : exactGaussianOneSlot();
            exact = e;
        }
        return e;
    }

    private PrivacyBound exactRandomizedResponse() {
        String name = p.type() + "-exact";
        List<PrivacyBound> parts = new ArrayList<>();
        for (CheckInDataset d : datasets()) {
            parts.add(p.rounds() == 1 ? perRound(d) : new PldAccountant().account(p.type() + "-exact(" + d.name()
                    + ")", new DpEvent.SelfComposed(event(d), p.rounds()), Adjacency.REPLACE_ONE));
        }
        String over = parts.size() == 1 ? "the " + datasets().get(0).name() + " dataset"
                : "the maximum over " + parts.size() + " datasets (" + String.join(", ", datasets().stream()
                        .limit(4).map(CheckInDataset::name).toList()) + (parts.size() > 4 ? ", ..." : "") + ")";
        String source = "exact privacy curve of " + p.describe() + ", " + over + ": per round a finite sum over K "
                + "(the likelihood ratio is monotone in K), both directions" + (p.rounds() > 1 ? "; composed over "
                + p.rounds() + " rounds by the PLD accountant on the discrete loss distribution, losses rounded up "
                + "to its grid" : "") + "; a lower bound on the worst case over all datasets"
                + (p.dataset().equals("exhaustive") ? " (here: the worst case, every dataset being searched)" : "");
        return parts.size() == 1 ? new LabelledBound(name, BoundKind.PAIR_PROFILE, parts.get(0), source)
                : new MaximumBound(name, source, BoundKind.PAIR_PROFILE, parts);
    }

    /** The Gaussian randomizer's laws of the window's releases, {D, D'}. */
    StatisticLaw[] gaussianLaws() {
        int w = p.targetWindow();
        double s = selection(p);
        double[] logU = new double[w + 1];
        java.util.Arrays.fill(logU, Double.NEGATIVE_INFINITY);
        logU[0] = Math.log1p(-s);
        logU[1] = Math.log(s);
        double c = p.clip();
        double replacement = p.pair().equals("symmetric") ? -c : 0.0;
        StatisticLaw with = new ExchangeableReleases(w, logU, logU).gaussian(c, 0.0, p.sigma())[0];
        StatisticLaw without;
        if (replacement == 0.0) {
            double[] none = new double[w + 1];
            java.util.Arrays.fill(none, Double.NEGATIVE_INFINITY);
            none[0] = 0.0;
            without = new ExchangeableReleases(w, none, none).gaussian(c, 0.0, p.sigma())[0];
        } else {
            without = new ExchangeableReleases(w, logU, logU).gaussian(replacement, 0.0, p.sigma())[0];
        }
        return new StatisticLaw[] {with, without};
    }

    private PrivacyBound exactGaussianOneSlot() {
        double s = selection(p);
        double c = p.clip();
        double sd = p.sigma();
        GaussianMixture with = GaussianMixture.twoPoint(s, 0.0, c, sd);
        GaussianMixture without = p.pair().equals("symmetric") ? GaussianMixture.twoPoint(s, 0.0, -c, sd)
                : GaussianMixture.single(0.0, sd);
        String name = p.type() + "-exact";
        MixturePairProfile one = new MixturePairProfile(name, "one slot", with, without, 1.0);
        String source = String.format(Locale.ROOT, "exact privacy curve of %s: the target's window has one served "
                + "slot, whose release is the mixture (1 - s) N(0, sigma^2) + s N(+-C, sigma^2), s = %.6g; both "
                + "directions by root bracketing and normal CDFs%s; a lower bound on the worst case over all datasets",
                p.describe(), s, p.rounds() > 1 ? "; composed over " + p.rounds() + " rounds by the PLD accountant"
                        : "");
        if (p.rounds() == 1) {
            return new LabelledBound(name, BoundKind.PAIR_PROFILE, one, source);
        }
        PrivacyBound composed = ProfileComposition.compose(one, p.rounds());
        return new LabelledBound(name, BoundKind.PAIR_PROFILE, composed, source + ": " + composed.source());
    }

    /** One line on the exact computation's range, for notes. */
    String describeDatasets() {
        return String.join(", ", datasets().stream().map(CheckInDataset::name).toList());
    }

    /** eps at the reference delta of a profile, formatted. */
    static String format(double e) {
        return Checks.format(e);
    }
}
