package io.dpaudit.core.accounting;

import io.dpaudit.core.Checks;
import java.util.List;
import java.util.Locale;

/**
 * What a mechanism does, as an immutable tree of privacy events (the event algebra of dp_accounting's
 * {@code dp_event.py}, restated). Accountants turn an event and an {@link Adjacency} into guarantees.
 */
public sealed interface DpEvent permits DpEvent.Gaussian, DpEvent.PoissonSampled, DpEvent.SampledWithoutReplacement,
        DpEvent.Profiled, DpEvent.DiscreteLoss, DpEvent.SelfComposed, DpEvent.Composed {
    /** One line, used in the sources of bounds. */
    String describe();

    /**
     * A release of {@code sum of contributions clipped to clip + N(0, sigma^2 I)}. Its l2 sensitivity, and so its
     * Gaussian-DP parameter {@code mu = sensitivity / sigma}, depends on the adjacency.
     *
     * @param sigma noise standard deviation, {@code > 0}
     * @param clip clipping norm of one record's contribution, {@code > 0}
     */
    record Gaussian(double sigma, double clip) implements DpEvent {
        public Gaussian {
            Checks.positive("sigma", sigma);
            Checks.positive("clip", clip);
        }

        /** {@code mu = sensitivity / sigma} under {@code adjacency}. */
        public double mu(Adjacency adjacency) {
            return adjacency.sumSensitivity(clip) / sigma;
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "Gaussian(sigma=%s, clip=%s)", Checks.format(sigma), Checks.format(clip));
        }
    }

    /**
     * Poisson sampling: every record takes part independently with probability {@code q}, then {@code event} runs
     * on the sample. Defined for add/remove adjacency.
     */
    record PoissonSampled(double q, DpEvent event) implements DpEvent {
        public PoissonSampled {
            Checks.samplingProbability("q", q);
        }

        @Override
        public String describe() {
            return "PoissonSampled(q=" + Checks.format(q) + ", " + event.describe() + ")";
        }
    }

    /**
     * Sampling without replacement of a fixed-size batch: {@code sampleSize} of {@code populationSize} records,
     * uniformly, then {@code event} runs on the batch. Defined for replace-one adjacency.
     */
    record SampledWithoutReplacement(long sampleSize, long populationSize, DpEvent event) implements DpEvent {
        public SampledWithoutReplacement {
            Checks.atLeast("sampleSize", sampleSize, 1);
            Checks.atLeast("populationSize", populationSize, sampleSize);
        }

        /** The sampling fraction {@code m / n}. */
        public double fraction() {
            return (double) sampleSize / populationSize;
        }

        @Override
        public String describe() {
            return "SampledWithoutReplacement(" + sampleSize + " of " + populationSize + ", " + event.describe() + ")";
        }
    }

    /**
     * A round known only through its privacy profiles: {@code remove(eps) = H_{e^eps}(P||Q)} and
     * {@code add(eps) = H_{e^eps}(Q||P)} for {@code eps >= 0} (the same function twice for a symmetric (ε, δ(ε))-DP
     * guarantee, such as a theorem's). The PLD accountant turns it into a dominating pair by connect-the-dots, using
     * the dual identity {@code H_{e^-a}(P||Q) = 1 - e^-a + e^-a H_{e^a}(Q||P)} for negative losses; losses above
     * {@code maxLoss} are put at {@code +inf}.
     *
     * @param description what the profile is (name and source)
     * @param remove {@code eps -> H_{e^eps}(P||Q)}, non-increasing, for {@code eps >= 0}
     * @param add {@code eps -> H_{e^eps}(Q||P)}, non-increasing, for {@code eps >= 0}
     * @param maxLoss the largest loss represented
     */
    record Profiled(String description, java.util.function.DoubleUnaryOperator remove,
            java.util.function.DoubleUnaryOperator add, double maxLoss) implements DpEvent {
        public Profiled {
            Checks.positive("maxLoss", maxLoss);
        }

        /** A symmetric profile: both directions are {@code profile}. */
        public static Profiled symmetric(String description, java.util.function.DoubleUnaryOperator profile,
                double maxLoss) {
            return new Profiled(description, profile, profile, maxLoss);
        }

        @Override
        public String describe() {
            return "Profiled(" + description + ")";
        }
    }

    /**
     * A round whose privacy loss is known exactly as a finite distribution: the pair {@code (P, Q)} of a discrete
     * statistic (randomized response, a shuffled count, a check-in count). Direction {@code remove} is the law of
     * {@code L = log(P/Q)} under {@code P}, direction {@code add} that of {@code log(Q/P)} under {@code Q}; mass where
     * the other law has none sits at {@code +inf}.
     *
     * @param description what the pair is (name and source)
     * @param remove the loss distribution of {@code H(P || Q)}
     * @param add the loss distribution of {@code H(Q || P)}
     */
    record DiscreteLoss(String description, LossMasses remove, LossMasses add) implements DpEvent {
        /** The two directions of the pair {@code (p, q)} (probabilities over the same atoms). */
        public static DiscreteLoss ofPair(String description, double[] p, double[] q) {
            return ofLogPair(description, log(p), log(q));
        }

        /** The two directions of the pair given by log-probabilities over the same atoms. */
        public static DiscreteLoss ofLogPair(String description, double[] logP, double[] logQ) {
            if (logP.length != logQ.length) {
                throw new IllegalArgumentException("laws over " + logP.length + " and " + logQ.length + " atoms");
            }
            return new DiscreteLoss(description, LossMasses.of(logP, logQ), LossMasses.of(logQ, logP));
        }

        private static double[] log(double[] x) {
            double[] l = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                l[i] = Math.log(x[i]);
            }
            return l;
        }

        @Override
        public String describe() {
            return "DiscreteLoss(" + description + ")";
        }
    }

    /**
     * A finite privacy-loss distribution: loss values with their masses, and a mass at {@code +inf}.
     *
     * @param losses finite loss values
     * @param masses their masses, each {@code > 0}
     * @param infinityMass the mass at {@code +inf}
     */
    record LossMasses(double[] losses, double[] masses, double infinityMass) {
        public LossMasses {
            if (losses.length != masses.length) {
                throw new IllegalArgumentException("one mass per loss value");
            }
            losses = losses.clone();
            masses = masses.clone();
        }

        /** The law of {@code log(a/b)} under {@code a}, from log-probabilities. */
        static LossMasses of(double[] logA, double[] logB) {
            int n = 0;
            double infinity = 0;
            for (int i = 0; i < logA.length; i++) {
                if (logA[i] > Double.NEGATIVE_INFINITY) {
                    if (logB[i] > Double.NEGATIVE_INFINITY) {
                        n++;
                    } else {
                        infinity += Math.exp(logA[i]);
                    }
                }
            }
            double[] l = new double[n];
            double[] m = new double[n];
            int o = 0;
            for (int i = 0; i < logA.length; i++) {
                if (logA[i] > Double.NEGATIVE_INFINITY && logB[i] > Double.NEGATIVE_INFINITY) {
                    l[o] = logA[i] - logB[i];
                    m[o++] = Math.exp(logA[i]);
                }
            }
            return new LossMasses(l, m, infinity);
        }

        /** Smallest and largest finite loss; {@code {0, 0}} when there is none. */
        double[] range() {
            if (losses.length == 0) {
                return new double[] {0, 0};
            }
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (double x : losses) {
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
            }
            return new double[] {lo, hi};
        }
    }

    /** {@code event} repeated {@code count} times with fresh randomness (adaptive composition). */
    record SelfComposed(DpEvent event, long count) implements DpEvent {
        public SelfComposed {
            Checks.atLeast("count", count, 1);
        }

        @Override
        public String describe() {
            return event.describe() + " x " + count;
        }
    }

    /** A sequence of events (adaptive composition). */
    record Composed(List<DpEvent> events) implements DpEvent {
        public Composed {
            if (events.isEmpty()) {
                throw new IllegalArgumentException("a composition needs at least one event");
            }
            events = List.copyOf(events);
        }

        @Override
        public String describe() {
            return "Composed" + events.stream().map(DpEvent::describe).toList();
        }
    }
}
