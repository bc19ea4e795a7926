package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.attacks.BlackBoxAudit;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.blackbox.BlackBoxMechanism;
import io.dpaudit.core.blackbox.BlackBoxSimulator;
import io.dpaudit.core.engine.CoupledSamplerFactory;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.runner.analysis.AuditRunner;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Coupled trials (both worlds of a trial on common random numbers, {@code simulator.coupling}) and the paired bound:
 * each world keeps its exact law, a correct mechanism at its ε is not over-certified more often than the level allows,
 * planted bugs are still found, and the bound gains what coupling promises. Fixed seeds: each outcome is
 * deterministic; the false-failure rate of each statistical check on a random seed is stated with it.
 */
@Tag("statistical")
class CoupledTrialsTest {
    /** The Laplace mechanism on one query, x + Lap(1/0.1), by inversion: exactly 0.1-DP, attained in both tails. */
    private static final BlackBoxMechanism<Double> LAPLACE = (x, rng) -> {
        double u = ((rng.nextLong() >>> 11) + 0.5) * 0x1.0p-53;
        return new double[] {x + (u < 0.5 ? 10 * Math.log(2 * u) : -10 * Math.log(2 * (1 - u)))};
    };

    private static Scenario zoo(String name, boolean coupled) throws Exception {
        String text = Files.readString(Path.of("../scenarios/zoo/" + name + ".json"));
        Scenario s = ScenarioReader.parse(text, name);
        if (!coupled) {
            return s;
        }
        return ScenarioReader.parse(text.replaceFirst("\\{", "{\"simulator\": {\"coupling\": "
                + "\"common-random-numbers\"},"), name);
    }

    private static boolean below(double[] o, int from, int to) {
        for (int i = from; i < to; i++) {
            if (o[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sparse vector Algorithm 1 on DP-Sniper's pair, 2·10^6 coupled trials: the frequency of its leakiest output (the
     * first "above" at query 6) in each world lies within 4.5 standard errors of its exact probability (P = 0.0239036,
     * Q = 0.0218944, SciPy quadrature, docs/zoo-vs-peers.md); for a correct sampler each check fails with probability
     * about 7e-6. And the coupling is strong: the worlds disagree on that output in few of the trials where either
     * shows it (measured: printed).
     */
    @Test
    void eachWorldOfACoupledTrialHasItsExactLaw() throws Exception {
        Scenario s = zoo("sparse-vector-1", true);
        BlackBoxSimulator simulator = (BlackBoxSimulator) io.dpaudit.runner.ScenarioTrials.prepare(s, 1000, 1).simulator();
        CoupledSamplerFactory coupled = simulator.coupling();
        int length = coupled.outputLength();
        int n = 2_000_000;
        int batch = 1000;
        double[] d = new double[batch * length];
        double[] dPrime = new double[batch * length];
        CoupledSamplerFactory.Draws draws = coupled.coupled(new RandomStreams(2027).next());
        long inD = 0;
        long inDPrime = 0;
        long both = 0;
        for (int done = 0; done < n; done += batch) {
            draws.sample(d, dPrime, batch);
            for (int t = 0; t < batch; t++) {
                boolean a = below(d, t * length, t * length + 5) && d[t * length + 5] == 1;
                boolean b = below(dPrime, t * length, t * length + 5) && dPrime[t * length + 5] == 1;
                inD += a ? 1 : 0;
                inDPrime += b ? 1 : 0;
                both += a && b ? 1 : 0;
            }
        }
        double p = 0.0239036;
        double q = 0.0218944;
        double zD = (inD - n * p) / Math.sqrt(n * p * (1 - p));
        double zDPrime = (inDPrime - n * q) / Math.sqrt(n * q * (1 - q));
        long union = inD + inDPrime - both;
        System.out.printf("[coupled] sparse vector 1, %d coupled trials: D %d (z %.2f), D' %d (z %.2f), both %d, "
                + "discordant %d of %d in the union (%.3f)%n", n, inD, zD, inDPrime, zDPrime, both, union - both, union,
                (double) (union - both) / union);
        assertTrue(Math.abs(zD) < 4.5, "world D: z = " + zD);
        assertTrue(Math.abs(zDPrime) < 4.5, "world D': z = " + zDPrime);
        assertTrue(union - both < 0.25 * union, "weak coupling: " + (union - both) + " of " + union);
    }

    /**
     * A correct mechanism exactly at its ε (the Laplace mechanism, whose tail tests all have ratio e^0.1): over 200
     * seeds of 2·10^4 coupled trials, the ε lower bound at δ = 0 exceeds 0.1 at most as often as the 0.999 quantile
     * of Binomial(200, 0.05) (21), and the claim of 0.1-DP is found violated no more often. With the stated confidence
     * each check fails with probability at most 0.1% on a random set of seeds.
     */
    @Test
    void aCorrectMechanismAtItsEpsilonIsNotOverCertified() {
        int runs = 200;
        int above = 0;
        int violated = 0;
        List<Claim> claims = List.of(new Claim("0.1-DP", 0.1, 0, "stated"));
        for (int seed = 0; seed < runs; seed++) {
            AuditResult r = BlackBoxAudit.of(LAPLACE, 1.0, 0.0).firstCoordinate().coupled(true).trials(20_000)
                    .seed(1000 + seed).threads(1).run(claims);
            EpsilonLowerBound e = r.epsilonLowerBounds().get(0);
            assertEquals(EpsilonLowerBound.Certification.PAIRED, e.certification());
            above += e.epsilon() > 0.1 ? 1 : 0;
            violated += r.claims().get(0).verdict() == Verdict.VIOLATED ? 1 : 0;
        }
        int limit = new BinomialDistribution(null, runs, 0.05).inverseCumulativeProbability(0.999);
        System.out.printf("[coupled] Laplace at eps = 0.1, %d seeds: bound above 0.1 in %d, violated in %d "
                + "(limit %d)%n", runs, above, violated, limit);
        assertTrue(above <= limit, above + " of " + runs);
        assertTrue(violated <= limit, violated + " of " + runs);
    }

    /** The Gaussian mechanism on one query, x + N(0, 1), by Box–Muller (the same two uniforms in both worlds). */
    private static final BlackBoxMechanism<Double> GAUSSIAN = (x, rng) -> {
        double u = ((rng.nextLong() >>> 11) + 0.5) * 0x1.0p-53;
        double v = (rng.nextLong() >>> 11) * 0x1.0p-53;
        return new double[] {x + Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)};
    };

    /**
     * Verdicts on claims with δ > 0 go through the paired δ bound; a correct mechanism claimed exactly at its curve
     * must not be refuted more often than the level allows. The Gaussian mechanism with μ = 1 (N(1, 1) against
     * N(0, 1)), claimed at (1, 0.12694) and (0.5, 0.23843): its exact δ(1) = 0.1269367 and δ(0.5) = 0.2384217 (SciPy),
     * rounded up. Coupled, the worlds' outputs move together (the other world's output is in every upper tail the
     * flagged one's is in, shifted), so the paired form is the one chosen and its bound comes close to the exact δ.
     * Over 100 seeds of 2·10^4 coupled trials each claim may be found violated at most 13 times (the 0.999 quantile
     * of Binomial(100, 0.05)): each check fails with probability at most 0.1% on a random set of seeds. (A δ bound
     * with the sign of its κ term reversed is violated in every run.)
     */
    @Test
    void aCorrectMechanismOnItsCurveIsNotRefutedWithDeltaAboveZero() {
        int runs = 100;
        List<Claim> claims = List.of(new Claim("(1, 0.12694)", 1.0, 0.12694, "exact, rounded up"),
                new Claim("(0.5, 0.23843)", 0.5, 0.23843, "exact, rounded up"));
        int[] violated = new int[claims.size()];
        int paired = 0;
        for (int seed = 0; seed < runs; seed++) {
            AuditResult r = BlackBoxAudit.of(GAUSSIAN, 1.0, 0.0).firstCoordinate().coupled(true).trials(20_000)
                    .seed(3000 + seed).threads(1).run(claims);
            for (int c = 0; c < claims.size(); c++) {
                violated[c] += r.claims().get(c).verdict() == Verdict.VIOLATED ? 1 : 0;
                paired += r.claims().get(c).deltaLowerBound().certification()
                        == EpsilonLowerBound.Certification.PAIRED ? 1 : 0;
            }
        }
        int limit = new BinomialDistribution(null, runs, 0.05).inverseCumulativeProbability(0.999);
        System.out.printf("[coupled] Gaussian mu = 1 on its curve, %d seeds: violated at eps 1 in %d, at eps 0.5 in %d "
                + "(limit %d); paired form chosen in %d of %d%n", runs, violated[0], violated[1], limit, paired,
                runs * claims.size());
        for (int v : violated) {
            assertTrue(v <= limit, v + " of " + runs);
        }
    }

    /**
     * The same seed gives the same numbers on one thread and on two, and coupled runs differ from independent ones
     * (they draw differently).
     */
    @Test
    void coupledResultsDoNotDependOnThreads() {
        BlackBoxAudit<Double> a = BlackBoxAudit.of(LAPLACE, 1.0, 0.0).firstCoordinate().coupled(true)
                .trials(3_000_000).seed(5);
        List<Claim> claims = List.of(new Claim("c", 0.1, 1e-3, "stated"));
        AuditResult one = a.threads(1).run(claims);
        AuditResult two = a.threads(2).run(claims);
        assertEquals(one.epsilonLowerBounds(), two.epsilonLowerBounds());
        assertEquals(one.deltaLowerBounds(), two.deltaLowerBounds());
        assertEquals(one.claims(), two.claims());
    }

    /**
     * A claim below the pair's true ε is refuted through the paired δ bound: sparse vector Algorithm 1 (true ε 0.0878)
     * claimed 0.08-DP, 2·10^6 coupled trials at the zoo's seed (measured: δ ≥ 1.06e-4 at ε = 0.08, paired form; the
     * same trials sampled apart, as an independent audit draws them, find it consistent). Deterministic with the fixed
     * seed; on a random seed the paired bound's margin (about a third of the plug-in δ) makes a miss unlikely but not
     * impossible, which is why the seed is fixed.
     */
    @Test
    void aClaimBelowTheTrueEpsilonIsRefutedByThePairedDeltaBound() throws Exception {
        String text = Files.readString(Path.of("../scenarios/zoo/sparse-vector-1-coupled.json"))
                .replace("\"label\": \"claimed 0.1-DP\",\n      \"epsilon\": 0.1,",
                        "\"label\": \"claimed 0.08-DP\",\n      \"epsilon\": 0.08,");
        Scenario s = ScenarioReader.parse(text, "sparse-vector-1-coupled-0.08");
        assertEquals(0.08, s.claims().get(0).epsilon());
        AuditResult r = AuditRunner.run(ScenarioAudit.prepare(s, 2_000_000, s.seed(), 2), ProgressListener.NONE)
                .result();
        var claim = r.claims().get(0);
        System.out.printf("[coupled] sparse vector 1 claimed 0.08-DP, 2*10^6 coupled trials: delta >= %.4g (%s), "
                + "verdict %s%n", claim.deltaLowerBound().delta(), claim.deltaLowerBound().certification().label(),
                claim.verdict().label());
        assertEquals(Verdict.VIOLATED, claim.verdict());
        assertEquals(EpsilonLowerBound.Certification.PAIRED, claim.deltaLowerBound().certification());
    }

    /**
     * The planted bug of the noisy histogram with Lap(ε) noise is violated with coupled trials too. (The paired bound's
     * gain on sparse vector Algorithm 1 at the zoo's 10^7 trials is checked by {@code ZooTest}, which runs both
     * scenarios anyway.)
     */
    @Test
    void plantedBugsAreStillFound() throws Exception {
        Scenario bug = zoo("noisy-histogram-scale-epsilon", true);
        AuditResult r = AuditRunner.run(ScenarioAudit.prepare(bug, 1_000_000, bug.seed(), 2),
                ProgressListener.NONE).result();
        System.out.printf("[coupled] noisy histogram Lap(eps), 10^6 coupled trials: eps >= %.4g, verdict %s%n",
                r.epsilonLowerBounds().get(0).epsilon(), r.claims().get(0).verdict().label());
        assertEquals(Verdict.VIOLATED, r.claims().get(0).verdict());
        assertTrue(r.epsilonLowerBounds().get(0).epsilon() > 1.0);
    }
}
