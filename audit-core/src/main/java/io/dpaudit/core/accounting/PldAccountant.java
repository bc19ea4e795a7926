package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * The privacy-loss-distribution accountant: tight δ(ε) and ε(δ) of compositions of (Poisson-subsampled) Gaussian
 * mechanisms, both directions of add/remove adjacency.
 *
 * <p>For each direction — remove: {@code P = (1-q) N(0,1) + q N(mu,1)} against {@code Q = N(0,1)}; add: the
 * reverse — every factor's exact one-round profile (closed forms of {@link PoissonSubsampledGaussianBound} and
 * {@link GaussianBound}) is discretised pessimistically by connect-the-dots on a grid of spacing {@code h}, the
 * factors are composed by FFT ({@link PrivacyLossPmf}), and the answer is the worse of the two directions, rounded up.
 * The grid covers each factor's losses up to the point where its output has tail mass below 1e-30; the rest is put
 * at {@code +inf}. Compositions of plain Gaussians are exact in closed form ({@code mu = sqrt(sum T_i mu_i^2)}).
 *
 * <p>Grid: {@code h = 1e-4} (dp_accounting's default) or finer when a factor's loss range is small (at least 10^4
 * points per factor, but never below {@code h = 1e-6}, where connect-the-dots' round-off would start to show). When a factor or the composition window would exceed 2^23 points, {@code h} is doubled until
 * it fits — every grid gives an upper bound, coarser ones a looser one — and the method string reports the {@code h}
 * used. {@code epsilon(delta)} for a δ at or below the mass at {@code +inf} (truncation plus the round-off floor) is
 * an {@link AccountingLimitException}, never {@code +inf} or a wrong number. Supported: {@code Gaussian},
 * {@code PoissonSampled(Gaussian)} under add/remove, {@code SampledWithoutReplacement(Gaussian)} under replace-one,
 * profiled rounds, and their {@code SelfComposed} and {@code Composed} forms.
 *
 * <p><b>Sampling without replacement</b> (a batch of {@code m} of {@code n} records, {@code gamma = m/n}, replace-one
 * adjacency, a Gaussian base whose replace-one sensitivity gives {@code mu}). The advanced joint convexity of
 * Balle, Barthe &amp; Gaboardi (NeurIPS 2018, Thm 2) splits the output law into batches without the record (the same
 * in both worlds), with it, and with its replacement; both pairs of parts that differ are replace-one neighbours of
 * the base (a batch holding the record against the same batch holding the replacement, and against a batch in which
 * it is replaced by a uniformly chosen outsider). Hence, in each direction and for {@code eps >= 0},
 * {@code H_{e^eps} <= gamma delta_G(log(1 + (e^eps - 1)/gamma); mu)} — the remove-direction profile of the
 * Poisson-subsampled Gaussian with {@code q = gamma}, which the dataset whose other records all equal the replacement
 * attains. This symmetric profile is composed through its dual-identity dominating pair (as profiled rounds are):
 * for {@code eps < 0} it uses {@code 1 - e^eps + e^eps delta(-eps)}, the larger of the two directions' curves.
 */
public final class PldAccountant implements PrivacyAccountant {
    /** Accountant name. */
    public static final String NAME = "pld";
    /** Default grid spacing of the privacy loss. */
    public static final double DEFAULT_H = 1e-4;
    /** Tail mass allowed outside the composition window (added to {@code +inf}). */
    public static final double TAIL = 1e-20;
    /** Output tail a Gaussian factor's loss range leaves out, per side. */
    static final double OUTPUT_TAIL = 1e-30;
    private static final double Z_TAIL = Normal.inverseSurvival(OUTPUT_TAIL);
    private static final int MIN_POINTS_PER_FACTOR = 10_000;
    /** Grid points of a profiled factor's range: each point costs one evaluation of a possibly expensive profile. */
    private static final int PROFILED_POINTS = 2_000;
    /**
     * Finest grid used. Connect-the-dots divides second differences of δ by {@code e^h - 1}, so its round-off grows
     * like {@code 1e-16 / h}; at {@code 1e-6} that is 1e-10 relative, at 1e-9 it would be 1e-7.
     */
    private static final double MIN_H = 1e-6;
    private static final int MAX_POINTS = PrivacyLossPmf.MAX_FFT_LENGTH;

    private final double baseH;
    /** Round discrete losses down instead of up: the lower end of the discretisation bracket. */
    private final boolean optimistic;
    /** Grid points over a profiled factor's loss range (at least; finer where {@code baseH} asks). */
    private final int profiledPoints;
    /**
     * How much finer the grid of the composition that gives a profiled event's lower end is: a profiled factor's grid
     * is coarse (its profile is expensive), and the bracket's width is {@code T h}.
     */
    private static final int LOWER_END_REFINEMENT = 16;

    /** The accountant with the default grid spacing. */
    public PldAccountant() {
        this(DEFAULT_H);
    }

    /** The accountant with grid spacing at most {@code h}. */
    public PldAccountant(double h) {
        this(h, false);
    }

    private PldAccountant(double h, boolean optimistic) {
        this(h, optimistic, PROFILED_POINTS);
    }

    private PldAccountant(double h, boolean optimistic, int profiledPoints) {
        if (!(h > 0) || !Double.isFinite(h)) {
            throw new IllegalArgumentException("h must be > 0: " + h);
        }
        this.baseH = h;
        this.optimistic = optimistic;
        this.profiledPoints = profiledPoints;
    }

    /**
     * The lower end of the discretisation bracket of compositions of discrete privacy losses: every loss is rounded
     * <i>down</i> to the grid instead of up. Since {@code delta(eps) = E[(1 - e^{eps - L})_+]} increases with every
     * loss of the composition, its curve lies below the exact one by at most what the grid moves; the exact curve lies
     * between it and {@link #account}'s. What the FFT composition may add is subtracted, not added: the mass the
     * window's ends alias into it ({@link #TAIL}), twice the round-off allowance of every grid point it sums (which
     * bounds the error either way), and the mass at {@code +inf} (ComposedDirection#certifiedBelow), plain and, where
     * those cost more than a thousandth of the answer, tilted; its ε(δ) inverts that profile from below. So it is a
     * proven lower bound ({@link BoundKind#LOWER_BOUND}) on the composition of the discrete laws given — on a
     * mechanism's curve when each law is stochastically below the mechanism's own privacy loss (a lower end of its
     * bracket, say). Until 2026-11-30 it added the allowance and was an approximation: on 3000-fold randomized
     * response it lay 2.5e-6 above the exact δ(0.5) = 0.78277 (DiscretePairProfileTest). Events with other than
     * discrete or plain Gaussian factors are not supported.
     */
    public static PldAccountant optimisticDiscrete() {
        return optimisticDiscrete(DEFAULT_H);
    }

    /** {@link #optimisticDiscrete()} with grid spacing at most {@code h}. */
    public static PldAccountant optimisticDiscrete(double h) {
        return new PldAccountant(h, true);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void requireSupported(DpEvent event, Adjacency adjacency) {
        flatten(event, adjacency, 1, new ArrayList<>());
    }

    /**
     * A leaf factor and how often it occurs: a (Poisson-sampled) Gaussian, a Gaussian sampled without replacement
     * ({@code symmetric}: both directions bounded by the one profile), or a profiled round.
     */
    private record Factor(double q, double mu, DpEvent.Profiled profiled, long count, boolean symmetric,
            DpEvent.DiscreteLoss discrete) {
        Factor(double q, double mu, DpEvent.Profiled profiled, long count) {
            this(q, mu, profiled, count, false, null);
        }

        Factor(double q, double mu, DpEvent.Profiled profiled, long count, boolean symmetric) {
            this(q, mu, profiled, count, symmetric, null);
        }

        boolean gaussian() {
            return profiled == null && discrete == null && q == 1.0;
        }

        DpEvent.LossMasses losses(boolean add) {
            return add ? discrete.add() : discrete.remove();
        }
    }

    /**
     * Flattens the event tree into its leaf factors with their counts, checking every node: the one walk that both
     * decides support and starts the computation.
     */
    private static void flatten(DpEvent e, Adjacency a, long times, List<Factor> out) {
        if (e instanceof DpEvent.Gaussian g) {
            out.add(new Factor(1.0, g.mu(a), null, times));
        } else if (e instanceof DpEvent.PoissonSampled p) {
            if (a != Adjacency.ADD_REMOVE) {
                throw new UnsupportedEventException(NAME, e, "Poisson sampling is accounted under add/remove "
                        + "adjacency only");
            }
            if (!(p.event() instanceof DpEvent.Gaussian g)) {
                throw new UnsupportedEventException(NAME, e, "only a Gaussian can be Poisson-sampled, not "
                        + p.event().describe());
            }
            out.add(new Factor(p.q(), g.mu(a), null, times));
        } else if (e instanceof DpEvent.SampledWithoutReplacement w) {
            if (a != Adjacency.REPLACE_ONE) {
                throw new UnsupportedEventException(NAME, e, "sampling without replacement is accounted under "
                        + "replace-one adjacency only");
            }
            if (!(w.event() instanceof DpEvent.Gaussian g)) {
                throw new UnsupportedEventException(NAME, e, "only a Gaussian can be sampled without replacement, "
                        + "not " + w.event().describe());
            }
            out.add(new Factor(w.fraction(), g.mu(a), null, times, w.fraction() < 1.0));
        } else if (e instanceof DpEvent.Profiled pr) {
            out.add(new Factor(Double.NaN, Double.NaN, pr, times));
        } else if (e instanceof DpEvent.DiscreteLoss d) {
            out.add(new Factor(Double.NaN, Double.NaN, null, times, false, d));
        } else if (e instanceof DpEvent.SelfComposed s) {
            flatten(s.event(), a, Math.multiplyExact(times, s.count()), out);
        } else if (e instanceof DpEvent.Composed c) {
            for (DpEvent x : c.events()) {
                flatten(x, a, times, out);
            }
        } else {
            throw new UnsupportedEventException(NAME, e, "no privacy-loss distribution for this event");
        }
    }

    @Override
    public PrivacyBound account(String name, DpEvent event, Adjacency adjacency) {
        List<Factor> factors = new ArrayList<>();
        flatten(event, adjacency, 1, factors);
        if (factors.stream().allMatch(Factor::gaussian)) {
            double mu2 = 0;
            for (Factor f : factors) {
                mu2 += f.count() * f.mu() * f.mu();
            }
            return gaussian(name, Math.sqrt(mu2), event, adjacency);
        }
        ComposedDirection remove = direction(factors, false);
        // Factors sampled without replacement are accounted by one symmetric profile: if all are, so is the sum.
        ComposedDirection add = factors.stream().allMatch(f -> f.symmetric() || f.gaussian()) ? remove
                : direction(factors, true);
        double h = Math.max(remove.plain.h(), add.plain.h());
        if (h > MAX_H) {
            return optimistic ? nothingFromBelow(name, event, adjacency, h) : refusal(name, event, adjacency, h);
        }
        if (optimistic) {
            String method = String.format(Locale.ROOT, "PLD accountant (OPTIMISTIC: discrete losses rounded down to the "
                    + "grid, h = %.3g, FFT composition less the mass aliased into its window, the mass at +inf and "
                    + "twice a measured round-off allowance per grid point, exponential tilting where those would "
                    + "dominate; max of remove and add directions: a proven lower bound on the composition of the "
                    + "discrete laws given)", remove.plain.h());
            return AccountedBound.of(name, method, event, adjacency, BoundKind.LOWER_BOUND,
                    epsilon -> Math.max(0.0, SafeRounding.down(Math.max(remove.certifiedBelow(epsilon),
                            add.certifiedBelow(epsilon)))), null);
        }
        String discretisation = factors.stream().anyMatch(f -> f.discrete() != null)
                ? "discrete losses rounded up to the grid" : "connect-the-dots";
        String method = String.format(Locale.ROOT, "PLD accountant (pessimistic " + discretisation + ", h = %.3g, FFT "
                + "composition with tail %.0e at +inf, a measured round-off allowance per grid point, exponential "
                + "tilting where round-off would dominate; max of remove and add directions)", remove.plain.h(), TAIL);
        java.util.function.UnaryOperator<double[]> batch = epsilons -> {
            double[] r = remove.plain.deltas(epsilons);
            double[] d = add == remove ? r : add.plain.deltas(epsilons);
            double[] out = new double[r.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = SafeRounding.upProbability(Math.max(r[i], d[i]));
            }
            return out;
        };
        return AccountedBound.of(name, method, event, adjacency, BoundKind.UPPER_BOUND,
                epsilon -> SafeRounding.upProbability(Math.max(remove.delta(epsilon), add.delta(epsilon))),
                delta -> {
                    double e = Math.max(remove.epsilon(delta), add.epsilon(delta));
                    if (!Double.isFinite(e)) {
                        double limit = Math.max(remove.plain.infinityMass(), add.plain.infinityMass());
                        throw new AccountingLimitException(NAME, delta, limit, "that much mass sits at +inf "
                                + "(truncation of the grid and of the composition window, and mass lost to "
                                + "round-off); use the rdp accountant");
                    }
                    return SafeRounding.up(e);
                }).withBatch(batch).withLowerEnd(lowerEnd(name, event, adjacency, factors, remove, add));
    }

    /**
     * The lower end of the bracket ({@link ComposedDirection#lowerEnd}, the larger of the two directions'). With a profiled
     * factor the grid is coarse and the bracket wide ({@code T h}), so the lower end comes from the same event composed
     * on a grid {@value #LOWER_END_REFINEMENT} times finer (made on first use: reports ask for it at a few points of
     * an exact curve; the curve itself is unchanged), or the coarse one where that is higher.
     */
    private DoubleUnaryOperator lowerEnd(String name, DpEvent event, Adjacency adjacency, List<Factor> factors,
            ComposedDirection remove, ComposedDirection add) {
        DoubleUnaryOperator coarse = epsilon -> Math.max(remove.lowerEnd(epsilon), add.lowerEnd(epsilon));
        if (profiledPoints != PROFILED_POINTS || factors.stream().noneMatch(f -> f.profiled() != null)) {
            return coarse;
        }
        java.util.function.Supplier<PrivacyBound> fine = new java.util.function.Supplier<>() {
            private PrivacyBound value;

            @Override
            public synchronized PrivacyBound get() {
                if (value == null) {
                    value = new PldAccountant(baseH, false, PROFILED_POINTS * LOWER_END_REFINEMENT).account(name,
                            event, adjacency);
                }
                return value;
            }
        };
        return epsilon -> Math.max(coarse.applyAsDouble(epsilon), fine.get().deltaLowerEnd(epsilon));
    }

    /**
     * Grid spacings above this cannot be discretised (connect-the-dots weighs profile differences by {@code e^h},
     * which overflows near 709, and the masses it cannot place would be lost, making delta optimistic).
     */
    private static final double MAX_H = 500;

    /**
     * The answer for an event whose loss range is too wide for the grid (a noise scale far below the clip): no
     * claim at all ({@code delta = 1} at every finite eps, no finite eps for any delta < 1), never an optimistic one.
     */
    private static PrivacyBound refusal(String name, DpEvent event, Adjacency adjacency, double h) {
        String why = String.format(Locale.ROOT, "the privacy-loss range is too wide for the PLD grid (spacing %.3g "
                + "needed, at most %.0f supported): no bound given; use the rdp accountant", h, MAX_H);
        return AccountedBound.of(name, "PLD accountant: " + why, event, adjacency, BoundKind.UPPER_BOUND,
                epsilon -> 1.0, delta -> {
                    if (delta >= 1) {
                        return 0.0;
                    }
                    throw new AccountingLimitException(NAME, delta, 1.0, why);
                }).withLowerEnd(epsilon -> 0.0); // nothing computed: nothing known from below either
    }

    /** The optimistic answer where the grid cannot hold the losses: nothing is known from below (δ = 0, ε = 0). */
    private static PrivacyBound nothingFromBelow(String name, DpEvent event, Adjacency adjacency, double h) {
        String why = String.format(Locale.ROOT, "PLD accountant (OPTIMISTIC): the privacy-loss range is too wide for "
                + "the grid (spacing %.3g needed, at most %.0f supported): nothing computed, so the lower bound is 0",
                h, MAX_H);
        return AccountedBound.of(name, why, event, adjacency, BoundKind.LOWER_BOUND, epsilon -> 0.0, delta -> 0.0);
    }

    private ComposedDirection direction(List<Factor> factors, boolean add) {
        Discretised d = terms(factors, add);
        return new ComposedDirection(d.terms(), d.window(), d.meanShift());
    }

    private static PrivacyBound gaussian(String name, double mu, DpEvent event, Adjacency adjacency) {
        GaussianBound g = new GaussianBound(mu);
        String method = String.format(Locale.ROOT, "PLD accountant, exact: a composition of Gaussian mechanisms is "
                + "the Gaussian mechanism with mu = %.6g (Balle & Wang 2018 profile)", mu);
        return AccountedBound.of(name, method, event, adjacency, BoundKind.UPPER_BOUND, g::delta, g::epsilon);
    }

    /** The discretised factors of one direction and the Chernoff window of their composition (null: none needed). */
    private record Discretised(List<PmfComposition.Term> terms, long[] window, double meanShift) {
    }

    /**
     * The largest mean by which connect-the-dots moves a loss, {@code max_s [h (1 - e^{-s}) / (1 - e^{-h}) - s]}, which
     * is {@code y - log(1 + y)} with {@code y = h / (1 - e^{-h}) - 1} (about {@code h^2 / 8}); raised by a relative
     * 1e-9 for rounding. Connect-the-dots splits the mass of a loss {@code l = l_i + s} between the grid points
     * {@code l_i} and {@code l_i + h} keeping both worlds' masses (so its profile matches at the grid points and is
     * affine in {@code e^eps} between them), which moves the loss by {@code -s} or {@code h - s}, on average by the
     * bracketed term.
     */
    static double connectTheDotsMeanShift(double h) {
        double y = h / -Math.expm1(-h) - 1;
        return Math.max(0.0, y - Math.log1p(y)) * (1 + 1e-9) + Double.MIN_NORMAL;
    }

    /** The discretised factors of one direction, with the grid coarsened as needed to fit. */
    private Discretised terms(List<Factor> factors, boolean add) {
        double h = baseH;
        for (Factor f : factors) {
            double[] r = range(f, add);
            h = Math.min(h, Math.max((r[1] - r[0]) / MIN_POINTS_PER_FACTOR, MIN_H));
        }
        for (Factor f : factors) {
            double[] r = range(f, add);
            if (f.profiled() != null) {
                h = Math.max(h, (r[1] - r[0]) / profiledPoints);
            }
        }
        for (Factor f : factors) {
            double[] r = range(f, add);
            while ((r[1] - r[0]) / h > MAX_POINTS - 2) {
                h *= 2;
            }
        }
        while (true) {
            List<PmfComposition.Term> terms = new ArrayList<>();
            for (Factor f : factors) {
                PrivacyLossPmf pmf;
                if (f.discrete() != null) {
                    DpEvent.LossMasses l = f.losses(add);
                    pmf = PrivacyLossPmf.fromLosses(l.losses(), l.masses(), l.infinityMass(), h, !optimistic);
                } else if (optimistic) {
                    throw new UnsupportedEventException(NAME, f.profiled() != null ? f.profiled()
                            : new DpEvent.Gaussian(1, 1), "an optimistic discretisation exists for discrete privacy "
                            + "losses only");
                } else {
                    double[] r = range(f, add);
                    pmf = PrivacyLossPmf.connectTheDots(profile(f, add), r[0], r[1], h);
                }
                terms.add(new PmfComposition.Term(pmf, f.count()));
            }
            double meanShift = 0;
            for (Factor f : factors) {
                meanShift += f.count() * (f.discrete() != null ? h : connectTheDotsMeanShift(h));
            }
            if (terms.size() == 1 && terms.get(0).count() == 1) {
                return new Discretised(terms, null, meanShift); // nothing to compose
            }
            long[] w = PmfComposition.window(terms, TAIL);
            if (w[1] - w[0] + 1 <= MAX_POINTS) {
                return new Discretised(terms, w, meanShift);
            }
            h *= 2;
        }
    }

    private static DoubleUnaryOperator profile(Factor f, boolean add) {
        if (f.profiled() != null) {
            DoubleUnaryOperator same = add ? f.profiled().add() : f.profiled().remove();
            DoubleUnaryOperator other = add ? f.profiled().remove() : f.profiled().add();
            // Negative losses by the dual identity H_{e^-a}(P||Q) = 1 - e^-a + e^-a H_{e^a}(Q||P).
            return eps -> eps >= 0 ? same.applyAsDouble(eps)
                    : Math.min(1.0, -Math.expm1(eps) + Math.exp(eps) * other.applyAsDouble(-eps));
        }
        double q = f.q();
        double mu = f.mu();
        if (q == 1.0) {
            return eps -> GaussianBound.exactDelta(eps, mu);
        }
        if (f.symmetric()) {
            // Both directions of replace-one are bounded by q * delta_G(log(1 + (e^eps - 1)/q); mu) for eps >= 0
            // (see withoutReplacementProfile); negative losses by the dual identity with that same profile.
            return eps -> eps >= 0 ? PoissonSubsampledGaussianBound.remove(eps, q, mu)
                    : Math.min(1.0, -Math.expm1(eps) + Math.exp(eps) * PoissonSubsampledGaussianBound.remove(-eps, q, mu));
        }
        return add ? eps -> PoissonSubsampledGaussianBound.add(eps, q, mu)
                : eps -> PoissonSubsampledGaussianBound.remove(eps, q, mu);
    }

    /**
     * The loss range of a factor in a direction: where its output law {@code P} has all but 1e-30 of its mass. The
     * remove loss {@code l(y) = log(1 - q + q e^{mu y - mu^2/2})} increases in {@code y}; the add loss is
     * {@code -l(y)} with {@code y ~ N(0, 1)}.
     */
    private static double[] range(Factor f, boolean add) {
        if (f.discrete() != null) {
            return f.losses(add).range();
        }
        if (f.profiled() != null) {
            return new double[] {-f.profiled().maxLoss(), f.profiled().maxLoss()};
        }
        double q = f.q();
        double mu = f.mu();
        if (q == 1.0) {
            return new double[] {mu * mu / 2 - Z_TAIL * mu, mu * mu / 2 + Z_TAIL * mu};
        }
        if (f.symmetric()) {
            double top = SubsampledGaussianRdp.loss(q, mu, mu + Z_TAIL);
            return new double[] {-top, top};
        }
        // The loss tends to log(1 - q) only as y -> -inf; the output has all but 1e-30 of its mass above y = -Z_TAIL,
        // where the loss is l(-Z_TAIL). With little signal (mu Z_TAIL below about 0.7) that end is far closer to the
        // losses, and the grid spacing (the range over MIN_POINTS_PER_FACTOR) follows: at q = 0.5, mu = 2e-6 the
        // losses lie within 2.3e-5 of 0 while log(1 - q) = -0.69 made the spacing 7e-5, and delta(1e-6) came out 4.7
        // times the exact value. Losses beyond that end are rounded up to it (remove direction: connect-the-dots'
        // chord from (0, 1) stays above the convex profile) or sent to +inf (add direction, mass 1e-30): still valid.
        // It is used only where it at least halves the range, so that other grids are unchanged.
        double floor = Math.log1p(-q);
        double tail = SubsampledGaussianRdp.loss(q, mu, -Z_TAIL);
        double lowest = tail > floor / 2 ? tail : floor;
        if (add) {
            return new double[] {-SubsampledGaussianRdp.loss(q, mu, Z_TAIL), -lowest};
        }
        return new double[] {lowest, SubsampledGaussianRdp.loss(q, mu, mu + Z_TAIL)};
    }
}
