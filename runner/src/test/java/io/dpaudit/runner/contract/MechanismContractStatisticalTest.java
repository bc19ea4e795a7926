package io.dpaudit.runner.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.attacks.LikelihoodRatioAttack;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The family contract's statistical half (verify's tier; the fast half is {@link MechanismContractTest}), checked the
 * same way for every mechanism type of the catalog at the cheapest shipped scenario of that type (shortest simulator
 * output): the reduced and the faithful simulator agree in distribution; the exact log-likelihood ratio is consistent
 * with the stated law (a black box states none: reported as skipped); every bound's δ(ε) is non-increasing on [0, 20]
 * (its refusals counted and reported; a bound refusing everywhere fails); a scenario of the type audits.
 *
 * <p>Statistical checks and their false-failure rates (fixed seeds, so each outcome is deterministic): reduced against
 * faithful, a two-sample Kolmogorov–Smirnov test per world on 20,000 draws of the exact log-likelihood ratio (or of the
 * first output for a black box), failing at p &lt; 1e-4 (at most 2e-4 per type under agreement, conservative for
 * discrete scores); the law, {@code E_D'[e^L] = 1} estimated from 200,000 draws under {@code D'}, failing when it is
 * more than six standard errors plus 1e-3 from 1 (about 2e-9 per type under the central-limit approximation; the
 * ratio's lattice error is below 1e-3).
 */
@Tag("statistical")
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class MechanismContractStatisticalTest {
    private static final int DRAWS = 20_000;
    private static final int LAW_DRAWS = 200_000;

    static List<MechanismContractTest.Case> cases() throws IOException {
        return MechanismContractTest.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reducedAndFaithfulSimulatorsAgree(MechanismContractTest.Case c) {
        AuditableMechanism m = MechanismCatalog.parse(c.scenario().mechanism());
        MechanismSimulator reduced = m.reduced();
        Parameters options = c.scenario().faithful() ? c.scenario().simulator()
                : new Parameters("simulator.", Map.of("kind", "faithful"));
        MechanismSimulator faithful = m.faithful(options, RandomStreams.auxiliary(3));
        for (World w : World.values()) {
            double[] a = statistic(reduced, w, 11);
            double[] b = statistic(faithful, w, 12);
            double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(a, b);
            assertTrue(p >= 1e-4, c + ", world " + w.symbol() + ": reduced and faithful differ, KS p = " + p);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theExactLikelihoodRatioIsConsistentWithTheLaw(MechanismContractTest.Case c) {
        MechanismSimulator sim = MechanismCatalog.parse(c.scenario().mechanism()).reduced();
        org.junit.jupiter.api.Assumptions.assumeTrue(sim.outputModel() != null, c + " is a black box: it states no law to "
                + "check its likelihood ratio against");
        Scorer loss = LikelihoodRatioAttack.lossScorer(sim.outputModel());
        LossBracket bracket = loss.lossBracket();
        double[] scores = scores(sim, loss, World.WITHOUT_CANARY, 13, LAW_DRAWS);
        double[] ranks = loss.rankValues();
        double sum = 0;
        double sumSq = 0;
        for (double s : scores) {
            double v = ranks == null ? s : ranks[(int) s]; // a ranked score is the index of its value
            double l = 0.5 * (bracket.lower(v) + bracket.upper(v));
            double e = Math.exp(Math.min(l, 700));
            sum += e;
            sumSq += e * e;
        }
        double mean = sum / scores.length;
        double se = Math.sqrt(Math.max(0, sumSq / scores.length - mean * mean) / scores.length);
        assertTrue(Math.abs(mean - 1) <= 6 * se + 1e-3, c + ": E_D'[e^L] = " + mean + " (se " + se + ")");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void boundCurvesAreNonIncreasing(MechanismContractTest.Case c, org.junit.jupiter.api.TestReporter reporter) {
        AuditableMechanism m = MechanismCatalog.parse(c.scenario().mechanism());
        int refusals = 0;
        for (PrivacyBound b : m.bounds()) {
            double previous = Double.POSITIVE_INFINITY;
            int evaluated = 0;
            for (int i = 0; i <= 80; i++) {
                double eps = 0.25 * i;
                double d;
                try {
                    d = b.delta(eps);
                } catch (AccountingLimitException limit) {
                    refusals++;
                    continue;
                }
                evaluated++;
                assertTrue(d <= previous * (1 + 1e-9) + 1e-12, c + ": " + b.name() + " rises at eps " + eps + ": "
                        + previous + " -> " + d);
                previous = d;
                // the lower end of the curve's numerical bracket: a number in [0, delta]
                double low = b.deltaLowerEnd(eps);
                assertTrue(low >= 0 && low <= d, c + ": " + b.name() + " lower end " + low + " outside [0, " + d
                        + "] at eps " + eps);
            }
            assertTrue(evaluated > 0, c + ": " + b.name() + " refused every epsilon in [0, 20]: nothing checked");
        }
        reporter.publishEntry("bound refusals", Integer.toString(refusals));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aScenarioOfTheTypeAudits(MechanismContractTest.Case c) {
        AuditResult r = ScenarioAudit.audit(ScenarioAudit.prepare(c.scenario(), 20_000, c.scenario().seed(), 2),
                ProgressListener.NONE);
        assertEquals(c.scenario().claims().size(), r.claims().size() + r.tradeOffClaims().size());
    }

    /** The exact log-likelihood ratio's lower bracket (or the first output of a black box) of {@code DRAWS} trials. */
    private static double[] statistic(MechanismSimulator sim, World w, long seed) {
        if (sim.outputModel() == null) {
            TrialSampler s = sim.create(RandomStreams.auxiliary(seed));
            int length = sim.outputLength();
            double[] out = new double[DRAWS * length];
            s.sample(w, out, DRAWS);
            double[] first = new double[DRAWS];
            for (int i = 0; i < DRAWS; i++) {
                first[i] = out[i * length];
            }
            return first;
        }
        Scorer loss = LikelihoodRatioAttack.lossScorer(sim.outputModel());
        double[] s = scores(sim, loss, w, seed, DRAWS);
        double[] ranks = loss.rankValues();
        for (int i = 0; i < s.length; i++) {
            s[i] = loss.lossBracket().lower(ranks == null ? s[i] : ranks[(int) s[i]]);
        }
        return s;
    }

    private static double[] scores(MechanismSimulator sim, Scorer scorer, World w, long seed, int n) {
        TrialSampler s = sim.create(RandomStreams.auxiliary(seed));
        int length = sim.outputLength();
        int batch = 1024;
        double[] out = new double[batch * length];
        double[] scratch = new double[batch];
        double[] all = new double[n];
        for (int done = 0; done < n; done += batch) {
            int b = Math.min(batch, n - done);
            s.sample(w, out, b);
            System.arraycopy(scorer.score(out, b, scratch), 0, all, done, b);
        }
        return Arrays.copyOf(all, n);
    }
}
