package io.dpaudit.attacks.learned;

import io.dpaudit.core.blackbox.TrainableScorer;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSamplerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A learned distinguisher in the manner of DP-Sniper (Bichsel, Steffen, Bogunovic &amp; Vechev, IEEE S&amp;P 2021): a
 * probabilistic classifier between the two worlds, fitted on samples drawn for it alone, whose log-odds then serve as
 * the attack's score — the audit chooses a threshold on its selection trials and certifies it on its evaluation
 * trials, as for any other score. Learning can only make the test more or less powerful; it cannot make a bound
 * invalid, because the samples it learns from are independent of the trials that certify.
 *
 * <p>Candidates, fitted on 80% of the training sample ({@link TrainingSample}):
 * <ul>
 *   <li>logistic regression on the output's values, squares and atom indicators ({@link LogisticModel}) — always;</li>
 *   <li>for one-dimensional outputs, a quantile-histogram likelihood ratio ({@link HistogramModel});</li>
 *   <li>for discrete outputs (at most 2^16 distinct values, each seen 8 times on average), the plug-in likelihood
 *       ratio of each distinct output ({@link ExactMatchModel}).</li>
 * </ul>
 * The candidate with the smallest log-loss on the other 20% is kept. Written here rather than taken from a library:
 * the three models are a few hundred lines over EJML's Cholesky solver, allocation-free at scoring time, and
 * deterministic; the ML libraries on Maven Central (Smile, Tribuo, DL4J) would add tens of megabytes and their own
 * threading and randomness to a path that must be reproducible bit for bit.
 */
public final class LearnedDistinguisher implements TrainableScorer {
    /** Scenario and command-line name of the attack. */
    public static final String NAME = "learned";

    @Override
    public Scorer train(TrialSamplerFactory sampler, int trials, UniformRandomProvider rng,
            ProgressListener progress) {
        if (trials < 10) {
            throw new IllegalArgumentException("a learned distinguisher needs at least 10 training outputs per world");
        }
        long start = System.nanoTime();
        progress.onPhase("training", String.format(Locale.ROOT, "%d outputs per world to learn a distinguisher from",
                trials));
        TrainingSample sample = TrainingSample.draw(sampler, trials, rng);
        List<ScoreModel> candidates = new ArrayList<>();
        candidates.add(LogisticModel.fit(sample));
        if (sample.length() == 1) {
            candidates.add(HistogramModel.fit(sample));
        }
        ExactMatchModel exact = ExactMatchModel.fit(sample);
        if (exact != null) {
            candidates.add(exact);
        }
        ScoreModel best = null;
        double bestLoss = Double.POSITIVE_INFINITY;
        StringBuilder losses = new StringBuilder();
        for (ScoreModel m : candidates) {
            double loss = validationLoss(m, sample);
            losses.append(losses.length() == 0 ? "" : "; ").append(kind(m)).append(' ')
                    .append(String.format(Locale.ROOT, "%.5f", loss));
            if (loss < bestLoss) {
                bestLoss = loss;
                best = m;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // No wall-clock time here: the description goes into reports, which must not differ between identical runs.
        String description = String.format(Locale.ROOT, "learned: %s; chosen by validation log-loss (%s; %.4f "
                + "is chance); fitted on %d and validated on %d outputs per world", best.description(), losses,
                Math.log(2), sample.fitCount(), sample.validCount());
        progress.onPhase("training", String.format(Locale.ROOT, "%s, validation log-loss %.5f (%.1f s)", kind(best),
                bestLoss, seconds));
        return new LearnedScorer(best, sample.length(), description);
    }

    private static String kind(ScoreModel m) {
        return m instanceof LogisticModel ? "logistic" : m instanceof HistogramModel ? "histogram" : "exact-match";
    }

    /** Mean log-loss of the model's log-odds on the validation sample (equal priors), in nats per output. */
    static double validationLoss(ScoreModel m, TrainingSample s) {
        double loss = 0;
        int l = s.length();
        for (int i = 0; i < s.validCount(); i++) {
            loss += LogisticModel.softplus(-clip(m.score(s.validWith(), i * l)));
            loss += LogisticModel.softplus(clip(m.score(s.validWithout(), i * l)));
        }
        return loss / (2.0 * s.validCount());
    }

    private static double clip(double x) {
        return Math.max(-50, Math.min(50, x));
    }

    @Override
    public String description() {
        return "learned: a classifier between the worlds (logistic regression, histogram or exact-match likelihood "
                + "ratio, chosen on validation data) fitted on training samples of their own";
    }

    /** The fitted model as an attack. */
    static final class LearnedScorer implements Scorer {
        private final ScoreModel model;
        private final int length;
        private final String description;

        LearnedScorer(ScoreModel model, int length, String description) {
            this.model = model;
            this.length = length;
            this.description = description;
        }

        @Override
        public int outputLength() {
            return length;
        }

        @Override
        public double[] score(double[] outputs, int trials, double[] scratch) {
            for (int t = 0; t < trials; t++) {
                scratch[t] = model.score(outputs, t * length);
            }
            return scratch;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public boolean mayBeDiscrete() {
            return true;
        }
    }
}
