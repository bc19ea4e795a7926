package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Faithful simulator of PriFedSync with a persistent global model ({@code state: persistent}), with explicit clients,
 * records, clipping, noise and model state:
 * <ol>
 *   <li>each round every client tosses its sampling coin ({@code nextDouble() < p}, clients in index order; client 0 is
 *       the target client j, client 1 the observer of the weak notion, clients 1..m-1 the coalition of the strong
 *       one);</li>
 *   <li>if j takes part it runs {@code K} full-batch steps: every record's gradient (dimension {@code d}) clipped to
 *       norm {@code C} and summed, plus {@code N(0, s^2 I_d)} noise; the global model {@code w} moves by the noisy
 *       sums (learning rate 1, known to all);</li>
 *   <li>when the observer takes part it reads {@code w}: its change since the observer's previous reading, less the
 *       other records' known clipped gradients, and the number of j's updates in it (participant lists are public)
 *       form the round's block ({@link PersistentObservation}); nothing is output when that number is 0.</li>
 * </ol>
 * Raw gradients along {@code e_1} are twice the pair's clipped ones, as in {@link FaithfulPriFedSyncSimulator}.
 */
final class FaithfulPersistentSimulator {
    private FaithfulPersistentSimulator() {
    }

    static MechanismSimulator of(PriFedSyncParameters p, int dimension) {
        if (p.records() > FaithfulPriFedSyncSimulator.MAX_RECORDS) {
            throw new InvalidInputException("mechanism.records", p.records(), "exceeds "
                    + FaithfulPriFedSyncSimulator.MAX_RECORDS + " for the faithful simulator; use the reduced one");
        }
        OutputModel model = new OutputModel(p.rounds(), new PersistentObservation(dimension),
                PersistentBlockLaw.withCanary(p), PersistentBlockLaw.withoutCanary(p), null);
        String d = String.format(Locale.ROOT, "faithful: %s; explicit client coins, full-batch steps with clipping of "
                + "%d-dimensional gradients, Gaussian noise, a persistent global model read by the observer", p.describe(),
                dimension);
        return MechanismSimulator.of(model, d, rng -> new Sampler(rng, p, dimension));
    }

    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian normal;
        private final PriFedSyncParameters p;
        private final int dimension;
        private final double[] model;
        private final double[] lastSeen;

        Sampler(UniformRandomProvider rng, PriFedSyncParameters p, int dimension) {
            this.rng = rng;
            this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
            this.p = p;
            this.dimension = dimension;
            this.model = new double[dimension];
            this.lastSeen = new double[dimension];
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            double c = p.clip();
            double raw = 2 * c * (world == World.WITH_CANARY ? 1.0 : p.replacementGradient());
            double otherRaw = 2 * c * p.othersGradient();
            double knownPerStep = p.records() * FaithfulPriFedSyncSimulator.clipped(otherRaw, c);
            double sd = p.noiseScale() * c;
            boolean weak = p.notion().equals("weak");
            int block = 2 + dimension;
            for (int t = 0; t < trials; t++) {
                Arrays.fill(model, 0.0);
                Arrays.fill(lastSeen, 0.0);
                int unseen = 0;
                for (int r = 0; r < p.rounds(); r++) {
                    int coins = FaithfulPriFedSyncSimulator.clientCoins(rng, p, weak);
                    boolean target = (coins & FaithfulPriFedSyncSimulator.TARGET) != 0;
                    boolean observer = (coins & FaithfulPriFedSyncSimulator.OBSERVER) != 0;
                    if (target) {
                        unseen++;
                        for (int k = 0; k < p.localSteps(); k++) {
                            double sum = 0;
                            for (int i = 0; i < p.records(); i++) { // record 0 is the target (or its replacement)
                                sum += FaithfulPriFedSyncSimulator.clipped(i == 0 ? raw : otherRaw, c);
                            }
                            model[0] += sum;
                            for (int i = 0; i < dimension; i++) {
                                model[i] += sd * normal.sample();
                            }
                        }
                    }
                    int base = (t * p.rounds() + r) * block;
                    if (observer && unseen > 0) {
                        out[base] = 1.0;
                        out[base + 1] = unseen;
                        for (int i = 0; i < dimension; i++) {
                            out[base + 2 + i] = model[i] - lastSeen[i];
                            lastSeen[i] = model[i];
                        }
                        // the adversary removes the other records' known gradients: records x K steps per update
                        out[base + 2] -= unseen * p.localSteps() * knownPerStep;
                        unseen = 0;
                    } else {
                        Arrays.fill(out, base, base + block, 0.0);
                    }
                }
            }
        }
    }
}
