package io.dpaudit.junit;

import io.dpaudit.core.blackbox.BlackBoxMechanism;
import java.util.Objects;

/**
 * JUnit 5 assertions that audit a differentially private mechanism from a library's own test suite.
 *
 * <pre>{@code
 * @Test
 * void laplaceMechanismIsOneDp() {
 *     DpAssert.assertThat((double[] x, UniformRandomProvider rng) -> myLaplace(x, 1.0, rng))
 *             .onNeighbours(new double[] {0}, new double[] {1})
 *             .withTrials(10_000_000).withSeed(42)
 *             .satisfies(1.0, 0);
 * }
 * }</pre>
 *
 * <p>The mechanism is run as a black box on the two neighbouring inputs under dp-audit's engine (one root seed,
 * independent streams per shard, the same numbers on any number of threads), and its outputs are told apart by a
 * learned distinguisher or a statistic of your choice. {@link MechanismAssert#satisfies} fails when the audit refutes
 * the claim; {@link MechanismAssert#violates} fails when it does not (for tests that pin a known bug).
 */
public final class DpAssert {
    private DpAssert() {
    }

    /**
     * Starts an assertion about a scenario file (the JSON {@code dp-audit run} reads): its mechanism audited against
     * its claims, as {@code run} would, at the trial count and seed the test gives.
     */
    public static ScenarioAssert assertThatScenario(java.nio.file.Path scenario) {
        return new ScenarioAssert(Objects.requireNonNull(scenario, "scenario"));
    }

    /** Starts an assertion about {@code mechanism}; name the neighbouring inputs next. */
    public static <I> Unpaired<I> assertThat(BlackBoxMechanism<I> mechanism) {
        return new Unpaired<>(Objects.requireNonNull(mechanism, "mechanism"));
    }

    /**
     * A mechanism whose neighbouring inputs are not given yet.
     *
     * @param <I> the input type
     */
    public static final class Unpaired<I> {
        private final BlackBoxMechanism<I> mechanism;

        Unpaired(BlackBoxMechanism<I> mechanism) {
            this.mechanism = mechanism;
        }

        /**
         * The neighbouring inputs: {@code withCanary} holds the record (world D), {@code withoutCanary} does not (D').
         * The claim is audited in both orders of the pair.
         */
        public MechanismAssert<I> onNeighbours(I withCanary, I withoutCanary) {
            return new MechanismAssert<>(mechanism, withCanary, withoutCanary);
        }
    }
}
