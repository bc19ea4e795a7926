package io.dpaudit.benchmarks;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.SequentialRun;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Trials and seconds to a verdict, sequential against fixed design, on shipped scenarios: the numbers of the table in
 * docs/how-the-audit-works.md ("Sequential audits"). Not a JMH benchmark: each measurement is one whole audit (seconds
 * to minutes), and what is compared is mostly trials, which do not depend on the machine.
 *
 * <p>For each scenario: the fixed design once, at the scenario's trials and seed (its verdicts, trials and wall
 * seconds, training of a learned attack included); then the sequential design with the scenario's trials as the
 * budget at {@code seeds} seeds (the scenario's and the next ones), recording the trials and seconds at the first look
 * that found a claim violated (the moment the exit code is 3), the look that resolved every claim if any, and the
 * trials the run used. Bound computation is outside both timings. Two threads.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar io.dpaudit.benchmarks.SequentialStoppingTable [SEEDS] [FILE...]}
 * (default 5 seeds; default scenarios: the zoo, and the seed scenarios whose pinned reports have a violated claim).
 */
public final class SequentialStoppingTable {
    private static final String[] DEFAULT = {
        "zoo/noisy-histogram-scale-epsilon.json", "zoo/noisy-max-laplace-value.json",
        "zoo/noisy-max-exponential-value.json", "zoo/sparse-vector-3.json", "zoo/sparse-vector-4.json",
        "zoo/sparse-vector-5.json", "zoo/sparse-vector-6.json", "zoo/fl-sigma-halved.json",
        "zoo/fl-q-misreported.json", "zoo/fl-replace-one-sensitivity-G.json",
        "zoo/fl-poisson-accounting-fixed-size.json", "zoo/fl-gdp-clt-at-T1.json",
        "zoo/dpsgd-shuffle-accounted-as-poisson.json", "zoo/noisy-max-laplace-value-pair-search.json",
        "seed-000/fig1-d100-orthogonal.json", "seed-000/fig2-3-sigma0.5-d10-orthogonal.json",
        "seed-001/dss-m1000-r5-q0.2-eps0-8-thm1-constant-one.json", "seed-001/dss-m2000-q0.05-eps0-2-rounds-50.json",
        "seed-001/dss-planted-double-amplification.json", "seed-002/batch-rate-misreported.json",
        "seed-002/clt-as-bound-small-KR.json", "seed-002/clt-small-KR.json", "seed-002/fig-e1-symmetric.json",
        "seed-002/lemma38-broadcast.json", "seed-002/mnist-like-sigma0.75-add-remove.json",
        "seed-002/persistent-state-p2-amplification.json", "seed-002/persistent-state-thm1.json",
        "seed-004/checkin-planted-per-slot-no-composition.json", "seed-004/shuffling-planted-as-subsampling.json",
        "zoo/laplace.json", "zoo/noisy-histogram-correct.json", "zoo/noisy-max-laplace-index.json",
        "zoo/noisy-max-exponential-index.json", "zoo/sparse-vector-1.json", "zoo/sparse-vector-2.json",
        "zoo/fl-dpsgd-correct.json", "zoo/fl-replace-one-correct.json", "zoo/fl-gdp-clt-accurate.json",
        "zoo/dpsgd-balls-and-bins-accounted-as-deterministic.json"};

    private SequentialStoppingTable() {
    }

    /** One audit's outcome. */
    private record Outcome(boolean violated, long trialsToViolation, double secondsToViolation, long trialsToResolve,
            double secondsToResolve, long trialsUsed, double seconds, String verdicts) {
    }

    /** Runs the table: {@code [SEEDS] [FILE...]}. */
    public static void main(String[] args) {
        int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<String> files = args.length > 1 ? Arrays.asList(args).subList(1, args.length) : List.of(DEFAULT);
        List<double[]> violatedRows = new ArrayList<>(); // fixed trials, fixed s, sequential trials, sequential s
        List<double[]> consistentRows = new ArrayList<>();
        System.out.println("| scenario | fixed: trials, s, verdicts | sequential (" + seeds + " seeds): trials to "
                + "violated (median, max), s (median, max) | to every claim resolved (median trials) | used (median) |");
        System.out.println("|---|---|---|---|---|");
        for (String f : files) {
            Path path = Path.of("scenarios").resolve(f);
            Scenario scenario = ScenarioReader.read(path);
            Outcome fixed = run(scenario, scenario.seed());
            List<Outcome> seq = new ArrayList<>();
            for (int i = 0; i < seeds; i++) {
                seq.add(run(scenario.withStopping(Stopping.SEQUENTIAL, scenario.trials()), scenario.seed() + i));
            }
            long[] toViolation = seq.stream().filter(Outcome::violated).mapToLong(Outcome::trialsToViolation)
                    .sorted().toArray();
            double[] secondsToViolation = seq.stream().filter(Outcome::violated)
                    .mapToDouble(Outcome::secondsToViolation).sorted().toArray();
            long[] toResolve = seq.stream().filter(o -> o.trialsToResolve() > 0).mapToLong(Outcome::trialsToResolve)
                    .sorted().toArray();
            long[] used = seq.stream().mapToLong(Outcome::trialsUsed).sorted().toArray();
            System.out.printf(Locale.ROOT, "| %s | %,d, %.1f s, %s | %s | %s | %,d |%n", f, fixed.trialsUsed(),
                    fixed.seconds(), fixed.verdicts(), toViolation.length == 0 ? "never violated"
                            : String.format(Locale.ROOT, "%,d (%d of %d seeds), %,d; %.2f s, %.2f s",
                                    median(toViolation), toViolation.length, seeds,
                                    toViolation[toViolation.length - 1], median(secondsToViolation),
                                    secondsToViolation[secondsToViolation.length - 1]),
                    toResolve.length == 0 ? "not resolved" : String.format(Locale.ROOT, "%,d (%d of %d)",
                            median(toResolve), toResolve.length, seeds), median(used));
            if (fixed.violated()) {
                for (Outcome o : seq) {
                    if (o.violated()) {
                        violatedRows.add(new double[] {fixed.trialsUsed(), fixed.seconds(), o.trialsToViolation(),
                                o.secondsToViolation()});
                    }
                }
            } else {
                for (Outcome o : seq) {
                    consistentRows.add(new double[] {fixed.trialsUsed(), o.trialsToResolve(), o.violated() ? 1 : 0});
                }
            }
        }
        summary(violatedRows, consistentRows);
    }

    private static void summary(List<double[]> violated, List<double[]> consistent) {
        if (!violated.isEmpty()) {
            double[] ratio = violated.stream().mapToDouble(r -> r[0] / r[2]).sorted().toArray();
            double[] seqTrials = violated.stream().mapToDouble(r -> r[2]).sorted().toArray();
            double[] seqSeconds = violated.stream().mapToDouble(r -> r[3]).sorted().toArray();
            double[] fixedSeconds = violated.stream().mapToDouble(r -> r[1]).sorted().toArray();
            System.out.printf(Locale.ROOT, "%nViolated in the fixed design, %d sequential runs that found the "
                    + "violation: trials to it median %.0f, 90th percentile %.0f; seconds median %.2f, 90th "
                    + "percentile %.2f (fixed design: seconds median %.2f, 90th percentile %.2f); fixed trials over "
                    + "sequential trials: median %.0f, 10th percentile %.0f%n", violated.size(), quantile(seqTrials,
                            0.5), quantile(seqTrials, 0.9), quantile(seqSeconds, 0.5), quantile(seqSeconds, 0.9),
                    quantile(fixedSeconds, 0.5), quantile(fixedSeconds, 0.9), quantile(ratio, 0.5),
                    quantile(ratio, 0.1));
        }
        if (!consistent.isEmpty()) {
            long falseAlarms = consistent.stream().filter(r -> r[2] > 0).count();
            double[] resolved = consistent.stream().filter(r -> r[1] > 0).mapToDouble(r -> r[1]).sorted().toArray();
            System.out.printf(Locale.ROOT, "Not violated in the fixed design, %d sequential runs: %d violated; %d "
                    + "powered consistent before the budget, trials median %s%n", consistent.size(), falseAlarms,
                    resolved.length, resolved.length == 0 ? "-" : String.format(Locale.ROOT, "%.0f",
                            quantile(resolved, 0.5)));
        }
    }

    private static Outcome run(Scenario scenario, long seed) {
        ScenarioAudit.Prepared p = ScenarioAudit.prepare(scenario, scenario.trials(), seed, 2);
        long start = System.nanoTime();
        AuditResult r = ScenarioAudit.audit(p, ProgressListener.NONE);
        double seconds = (System.nanoTime() - start) / 1e9;
        double training = seconds - r.elapsedSeconds(); // a learned attack trains before the audit's clock starts
        StringBuilder verdicts = new StringBuilder();
        for (ClaimResult c : r.claims()) {
            verdicts.append(verdicts.length() > 0 ? " " : "").append(c.verdict().label().charAt(0));
        }
        for (TradeOffClaimResult c : r.tradeOffClaims()) {
            verdicts.append(verdicts.length() > 0 ? " " : "").append(c.verdict().label().charAt(0));
        }
        boolean violated = r.anyViolated();
        SequentialRun seq = r.sequential();
        if (seq == null) {
            return new Outcome(violated, r.settings().trialsPerWorld(), seconds, 0, 0, r.settings().trialsPerWorld(),
                    seconds, verdicts.toString());
        }
        long toViolation = 0;
        double secondsToViolation = 0;
        for (SequentialRun.Look l : seq.looks()) {
            if (l.claims().contains(Verdict.VIOLATED) || l.tradeOffClaims().contains(Verdict.VIOLATED)) {
                toViolation = l.trialsPerWorld();
                secondsToViolation = training + l.elapsedSeconds();
                break;
            }
        }
        boolean resolved = seq.stop() == SequentialRun.Stop.RESOLVED;
        return new Outcome(violated, toViolation, secondsToViolation, resolved ? seq.last().trialsPerWorld() : 0,
                resolved ? seconds : 0, seq.last().trialsPerWorld(), seconds, verdicts.toString());
    }

    private static long median(long[] sorted) {
        return sorted[(sorted.length - 1) / 2];
    }

    private static double median(double[] sorted) {
        return sorted[(sorted.length - 1) / 2];
    }

    /** The {@code p} quantile of sorted values (the smallest value with at least a share {@code p} at or below it). */
    private static double quantile(double[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
