package io.dpaudit.examples;

import io.dpaudit.attacks.LikelihoodRatioAttack;
import io.dpaudit.core.Checks;
import io.dpaudit.core.audit.AuditPlan;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.Parameters;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A new mechanism family, complete and minimal: randomized response on one bit, {@code eps0}-DP — the user's bit is
 * reported truthfully with probability {@code e^eps0 / (1 + e^eps0)}, flipped otherwise. A family is a package of
 * {@code mechanisms} with these parts, and registering it is one line in {@code MechanismCatalog} (a list of
 * {@link #TYPE}s); nothing in the core, the attacks or the reports changes:
 *
 * <ol>
 *   <li>the parameters, validated with one-line errors naming the field ({@link #parse});</li>
 *   <li>the {@link AuditableMechanism}: type, adjacency, simulators, bounds;</li>
 *   <li>a reduced simulator that states the exact law of its output ({@link OutputModel#ofAtoms}), from which the
 *       likelihood-ratio attack and the two-sided estimate work;</li>
 *   <li>a faithful simulator that runs the algorithm as written (here: the record, the coin, the report);</li>
 *   <li>the bounds: the exact profile of the simulated pair ({@link DiscretePairProfile}), and the family's
 *       calibratable bounds (none here).</li>
 * </ol>
 * {@link #audit} runs it through the same {@link Auditor} every scenario uses.
 */
public final class Example05_AMechanismFamily {
    private Example05_AMechanismFamily() {
    }

    /** The catalog entry: the name scenarios use, a summary, the parameters, the parser. */
    public static final MechanismType TYPE = new MechanismType("randomized-response-bit", "randomized response on one "
            + "bit (a worked example family)", "eps0 > 0", Example05_AMechanismFamily::parse, Map.of("eps0", 1.0));

    static AuditableMechanism parse(Parameters p) {
        p.allowOnly(Set.of("type", "eps0"));
        double eps0 = Checks.positive(p.field("eps0"), p.number("eps0"));
        return new RandomizedResponse(p, eps0);
    }

    /** Randomized response on the bit 1 (with the record) against 0 (without it). */
    record RandomizedResponse(Parameters parameters, double eps0) implements AuditableMechanism {
        double truth() {
            return 1 / (1 + Math.exp(-eps0));
        }

        DiscreteLaw law(int bit) {
            double t = truth();
            return DiscreteLaw.ofProbabilities(bit == 1 ? new double[] {1 - t, t} : new double[] {t, 1 - t},
                    i -> "report " + i);
        }

        /** One release of the randomizer. */
    @Override
    public long roundsPerTrial() {
        return 1;
    }

    @Override
        public String type() {
            return TYPE.type();
        }

        @Override
        public String adjacency() {
            return "replace the user's bit";
        }

        @Override
        public MechanismSimulator reduced() {
            double t = truth();
            return MechanismSimulator.of(OutputModel.ofAtoms(1, law(1), law(0)), "randomized response, eps0 = "
                    + eps0, rng -> (world, out, trials) -> {
                        int bit = world == World.WITH_CANARY ? 1 : 0;
                        for (int i = 0; i < trials; i++) {
                            out[i] = rng.nextDouble() < t ? bit : 1 - bit;
                        }
                    });
        }

        @Override
        public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
            options.allowOnly(Set.of("kind"));
            return reduced(); // one record, one coin: the algorithm as written is the reduced simulator
        }

        @Override
        public List<BoundFamily> boundFamilies() {
            return List.of();
        }

        @Override
        public List<PrivacyBound> otherBounds() {
            return List.of(new DiscretePairProfile("randomized-response-bit-exact", "the exact profile of the pair "
                    + "(bit 1, bit 0): eps0-DP with delta(eps) = max(0, t - e^eps (1 - t))", BoundKind.PAIR_PROFILE,
                    law(1), law(0), 0.0));
        }
    }

    /** Audits the true claim eps0-DP and the false claim (eps0 / 2)-DP at {@code eps0 = 1}. */
    public static AuditResult audit(long trials) {
        AuditableMechanism m = TYPE.parser().apply(new Parameters("mechanism.", Map.of("type", TYPE.type(), "eps0",
                1.0)));
        MechanismSimulator sim = m.reduced();
        return Auditor.run(AuditPlan.of(sim, LikelihoodRatioAttack.of(sim.outputModel()),
                AuditSettings.defaults(trials, 5, 2)).withClaims(List.of(new Claim("1-DP", 1.0, 0.0, "stated"),
                        new Claim("0.5-DP", 0.5, 0.0, "stated"))), ProgressListener.NONE);
    }

    /** Runs the example and prints what it found. */
    public static void main(String[] args) {
        audit(10_000_000L).claims().forEach(c -> System.out.printf(Locale.ROOT, "%s: %s (epsilon >= %.4g)%n",
                c.claim().label(), c.verdict().label(), c.epsilonLowerBound().epsilon()));
    }
}
