package io.dpaudit.runner;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.runner.scenario.Scenario;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A search over neighbouring pairs before the audit ({@code "pairSearch"} in a scenario): each candidate pair — the
 * scenario's own mechanism with some parameters overridden — is screened by a short audit with the scenario's attack,
 * the one with the largest ε lower bound at the criterion δ is kept, and the audit proper then runs on it.
 *
 * <p><b>Why no correction for the search.</b> The screening audits draw from streams of their own (root seeds derived
 * from the scenario's seed and the candidate's index by a SplitMix64 mix), independent of the audit proper, which
 * certifies one pair with fresh trials. Choosing that pair on independent data does not change the confidence of what
 * is certified, so the report's bounds need no multiplicity correction (the screening numbers are reported, but are
 * not evidence). The search can only make the audit stronger: the scenario's own pair is always candidate 0, and a
 * candidate replaces it only when it screens strictly higher.
 *
 * <p><b>Candidates.</b> {@code "candidates": [{...overrides...}, ...]} lists parameter overrides (a mechanism's own
 * parameter family: seed 002's {@code pair}, a noise convention, ...); {@code "patterns": "statdp"} adds the input
 * patterns of StatDP (Ding et al., CCS 2018, Table 2) for mechanisms of two query-answer vectors {@code d} and
 * {@code dPrime} of length k: one above, one below, one above rest below, one below rest above, half half, all above,
 * and the X shape, on the all-ones vector.
 *
 * <p><b>Screens.</b> {@code "screen": "attack"} (the default) screens each candidate by a short audit as above;
 * {@code "screen": "lower-bound"} by the highest ε at the criterion δ among the candidate's proven lower bounds (bounds
 * of kind {@code lower-bound}, such as the shuffle's max test on each dataset of its {@code others} family):
 * deterministic, no trials. Where the candidates differ only in the dataset the mechanism must protect (as
 * {@code others} does), each of these is a proven lower bound on the mechanism's own ε, and so is the highest.
 */
public final class PairSearch {
    /** Scenario key. */
    public static final String KEY = "pairSearch";
    /** Screening by a short audit with the scenario's attack (the default). */
    public static final String SCREEN_ATTACK = "attack";
    /** Screening by the candidates' proven lower bounds. */
    public static final String SCREEN_LOWER_BOUND = "lower-bound";
    /** Default trials per world of each screening audit. */
    public static final long DEFAULT_SCREEN_TRIALS = 100_000;
    static final int MAX_CANDIDATES = 100;

    private PairSearch() {
    }

    /**
     * One screened candidate.
     *
     * @param label how the report names it
     * @param overrides the parameters it changes
     * @param screenEpsilon the screening audit's ε lower bound at the criterion δ, or (screen {@code lower-bound}) the
     *     highest ε of the candidate's proven lower bounds there
     */
    public record Candidate(String label, Map<String, Object> overrides, double screenEpsilon) {
        public Candidate {
            overrides = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        }
    }

    /**
     * What the search did.
     *
     * @param screen how the candidates were screened: {@value #SCREEN_ATTACK} or {@value #SCREEN_LOWER_BOUND}
     * @param criterionDelta δ of the criterion
     * @param screenTrials trials per world of each screening audit (0 for screen {@value #SCREEN_LOWER_BOUND})
     * @param candidates every candidate, the scenario's own first
     * @param chosen the index of the audited one
     */
    public record Result(String screen, double criterionDelta, long screenTrials, List<Candidate> candidates,
            int chosen) {
        public Result {
            candidates = List.copyOf(candidates);
        }

        /** The audited candidate. */
        public Candidate audited() {
            return candidates.get(chosen);
        }
    }

    /** The scenario's search, or null when it asks for none. */
    public static Result run(Scenario scenario, long seed, int threads, ProgressListener progress) {
        JsonNode node = scenario.source() == null ? null : scenario.source().get(KEY);
        if (node == null || node.isNull()) {
            return null;
        }
        Spec spec = parse(node, scenario);
        // Every candidate's parameters are checked before any screening: a bad one is refused at once, named where
        // the user wrote it, rather than after the candidates before it have been screened.
        for (int i = 1; i < spec.overrides.size(); i++) {
            try {
                io.dpaudit.mechanisms.MechanismCatalog.parse(with(scenario, spec.overrides.get(i), "").mechanism());
            } catch (InvalidInputException e) {
                throw InvalidInputException.in(spec.where.get(i), e);
            }
        }
        List<Candidate> screened = new ArrayList<>();
        int best = 0;
        for (int i = 0; i < spec.overrides.size(); i++) {
            Map<String, Object> o = spec.overrides.get(i);
            String label = i == 0 ? "as stated" : spec.labels.get(i);
            progress.check("screening pair " + (i + 1) + " of " + spec.overrides.size());
            boolean byBound = spec.screen.equals(SCREEN_LOWER_BOUND);
            progress.onPhase("pair search", String.format(Locale.ROOT, "screening %d of %d: %s (%s)", i + 1,
                    spec.overrides.size(), label, byBound ? "its proven lower bounds" : spec.screenTrials
                    + " trials per world"));
            Scenario candidate = with(scenario, o, "pairSearch candidate " + i);
            double eps = byBound ? provenLowerBound(candidate, spec.delta, spec.where.get(i))
                    : screen(candidate, spec.screenTrials, mix(seed, i), threads, spec.delta);
            screened.add(new Candidate(label, o, eps));
            if (eps > screened.get(best).screenEpsilon()) {
                best = i;
            }
        }
        return new Result(spec.screen, spec.delta, spec.screen.equals(SCREEN_LOWER_BOUND) ? 0 : spec.screenTrials,
                screened, best);
    }

    /** The scenario with the search's chosen overrides applied (and its {@code pairSearch} kept for the record). */
    public static Scenario chosen(Scenario scenario, Result r) {
        return with(scenario, r.audited().overrides(), "pairSearch");
    }

    private static Scenario with(Scenario s, Map<String, Object> overrides, String field) {
        if (overrides.isEmpty()) {
            return s;
        }
        Map<String, Object> merged = new LinkedHashMap<>(s.mechanism().values());
        merged.putAll(overrides);
        return s.withMechanism(new Parameters("mechanism.", merged));
    }

    /** One screening audit: the scenario's attack at {@code trials} per world, ε lower bound at δ, no claims. */
    private static double screen(Scenario s, long trials, long seed, int threads, double delta) {
        ScenarioTrials.Prepared t = ScenarioTrials.prepare(s, trials, seed);
        AuditSettings settings = new AuditSettings(trials, seed, threads, s.confidence(), s.selection(),
                s.histogramBins(), ScenarioTrials.pilotTrials(trials),
                ShardedPhase.shardTrialsFor(t.simulator().outputLength()), List.of(delta), List.of(),
                s.tradeOff());
        var scorer = t.scorer();
        if (t.trainable() != null) {
            scorer = t.trainable().train(t.simulator(), t.trainingTrials(),
                    io.dpaudit.core.rng.RandomStreams.training(seed), ProgressListener.NONE);
        }
        AuditResult r = Auditor.run(io.dpaudit.core.audit.AuditPlan.of(t.simulator(), scorer, settings),
                ProgressListener.NONE);
        return r.epsilonLowerBounds().get(0).epsilon();
    }

    /**
     * The highest ε at {@code delta} of the candidate's proven lower bounds (kind {@code lower-bound}); 0 where none
     * certifies a positive ε there. Refused (naming the candidate) when the mechanism states none.
     */
    private static double provenLowerBound(Scenario s, double delta, String where) {
        io.dpaudit.core.model.AuditableMechanism m = io.dpaudit.mechanisms.MechanismCatalog.parse(s.mechanism());
        double best = Double.NaN;
        for (PrivacyBound b : m.bounds()) {
            if (b.kind() != BoundKind.LOWER_BOUND) {
                continue;
            }
            double e;
            try {
                e = PrivacyBound.epsilonAt(b, delta);
            } catch (AccountingLimitException ex) {
                continue; // not computed there: it certifies nothing
            }
            if (e >= 0 && !(e <= best)) {
                best = e;
            }
        }
        if (Double.isNaN(best)) {
            throw new InvalidInputException(KEY + ".screen", SCREEN_LOWER_BOUND, "the " + m.type() + " mechanism of "
                    + where + " states no proven lower bound to screen by");
        }
        return best;
    }

    /** A root seed for screening candidate i: SplitMix64's finaliser of {@code seed + (i + 1) golden gamma}. */
    static long mix(long seed, int i) {
        long z = seed + (i + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private record Spec(List<Map<String, Object>> overrides, List<String> labels, List<String> where, long screenTrials,
            double delta, String screen) {
    }

    private static Spec parse(JsonNode node, Scenario s) {
        if (!node.isObject()) {
            throw new InvalidInputException(KEY, node.toString(), "must be an object {candidates, patterns, "
                    + "screen, screenTrials, delta}");
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!List.of("candidates", "patterns", "screen", "screenTrials", "delta").contains(k)) {
                throw new InvalidInputException(KEY + "." + k, node.get(k).toString(),
                        "unknown key (pairSearch takes candidates, patterns, screen, screenTrials, delta)");
            }
        }
        List<Map<String, Object>> overrides = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<String> where = new ArrayList<>(); // each candidate's place in the scenario, for messages
        overrides.add(Map.of());
        labels.add("as stated");
        where.add("mechanism");
        JsonNode cands = node.get("candidates");
        if (cands != null) {
            if (!cands.isArray()) {
                throw new InvalidInputException(KEY + ".candidates", cands.toString(), "must be an array of objects");
            }
            for (int i = 0; i < cands.size(); i++) {
                JsonNode c = cands.get(i);
                String f = KEY + ".candidates[" + i + "]";
                if (!c.isObject() || c.size() == 0) {
                    throw new InvalidInputException(f, c.toString(), "must be a non-empty object of mechanism "
                            + "parameters");
                }
                Map<String, Object> o = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = c.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getKey().equals("type")) {
                        throw new InvalidInputException(f + ".type", e.getValue().toString(), "a pair search keeps "
                                + "the mechanism type");
                    }
                    if (e.getValue().isNumber()) {
                        o.put(e.getKey(), e.getValue().doubleValue());
                    } else if (e.getValue().isTextual()) {
                        o.put(e.getKey(), e.getValue().textValue());
                    } else {
                        throw new InvalidInputException(f + "." + e.getKey(), e.getValue().toString(),
                                "must be a number or a string");
                    }
                }
                overrides.add(o);
                labels.add(o.toString());
                where.add(f);
            }
        }
        JsonNode patterns = node.get("patterns");
        if (patterns != null) {
            if (!patterns.isTextual() || !patterns.textValue().equals("statdp")) {
                throw new InvalidInputException(KEY + ".patterns", patterns.toString(), "must be \"statdp\"");
            }
            Object d = s.mechanism().values().get("d");
            if (!(d instanceof String text) || !s.mechanism().has("dPrime")) {
                throw new InvalidInputException(KEY + ".patterns", "statdp", "applies to mechanisms of two "
                        + "query-answer vectors d and dPrime (given as \"1,1,1\")");
            }
            int k = text.split(",").length;
            for (String[] p : statDpPatterns(k)) {
                overrides.add(Map.of("d", p[1], "dPrime", p[2]));
                labels.add("statdp " + p[0] + ": d = " + p[1] + ", dPrime = " + p[2]);
                where.add(KEY + ".patterns (" + labels.get(labels.size() - 1) + ")");
            }
        }
        if (overrides.size() < 2) {
            throw new InvalidInputException(KEY, node.toString(), "needs candidates or patterns");
        }
        if (overrides.size() > MAX_CANDIDATES + 1) {
            throw new InvalidInputException(KEY + ".candidates", (overrides.size() - 1) + " candidates",
                    "at most " + MAX_CANDIDATES);
        }
        long screenTrials = DEFAULT_SCREEN_TRIALS;
        JsonNode st = node.get("screenTrials");
        if (st != null) {
            if (!st.isNumber() || st.doubleValue() != Math.rint(st.doubleValue()) || st.doubleValue() < 1000
                    || st.doubleValue() > 1e9) {
                throw new InvalidInputException(KEY + ".screenTrials", st.toString(),
                        "must be a whole number in [1000, 1e9]");
            }
            screenTrials = (long) st.doubleValue();
        }
        double delta = s.deltas().isEmpty() ? 1e-5 : s.deltas().get(0);
        JsonNode dn = node.get("delta");
        if (dn != null) {
            if (!dn.isNumber() || !(dn.doubleValue() >= 0 && dn.doubleValue() < 1)) {
                throw new InvalidInputException(KEY + ".delta", dn.toString(), "must be a number in [0, 1)");
            }
            delta = dn.doubleValue();
        }
        String screen = SCREEN_ATTACK;
        JsonNode sn = node.get("screen");
        if (sn != null) {
            if (!sn.isTextual() || !(sn.textValue().equals(SCREEN_ATTACK) || sn.textValue().equals(SCREEN_LOWER_BOUND))) {
                throw new InvalidInputException(KEY + ".screen", sn.toString(), "must be \"" + SCREEN_ATTACK
                        + "\" (a short audit of each candidate) or \"" + SCREEN_LOWER_BOUND + "\" (its proven lower "
                        + "bounds)");
            }
            screen = sn.textValue();
            if (screen.equals(SCREEN_LOWER_BOUND) && st != null) {
                throw new InvalidInputException(KEY + ".screenTrials", st.toString(), "applies to screen \""
                        + SCREEN_ATTACK + "\" (screen \"" + SCREEN_LOWER_BOUND + "\" runs no trials)");
            }
        }
        return new Spec(overrides, labels, where, screenTrials, delta, screen);
    }

    /** StatDP's patterns on vectors of length k (k >= 2): {name, d, dPrime}. */
    static List<String[]> statDpPatterns(int k) {
        String ones = repeat("1", k);
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"one above", ones, join("2", "1", 1, k)});
        out.add(new String[] {"one below", ones, join("0", "1", 1, k)});
        out.add(new String[] {"one above rest below", ones, join("2", "0", 1, k)});
        out.add(new String[] {"one below rest above", ones, join("0", "2", 1, k)});
        out.add(new String[] {"half half", ones, join("0", "2", k / 2, k)});
        out.add(new String[] {"all above", ones, repeat("2", k)});
        out.add(new String[] {"x shape", join("1", "0", k / 2, k), join("0", "1", k / 2, k)});
        return out;
    }

    private static String repeat(String v, int k) {
        return join(v, v, k, k);
    }

    /** {@code first} repeated {@code m} times, then {@code rest} up to length k, comma-separated. */
    private static String join(String first, String rest, int m, int k) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < k; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(i < m ? first : rest);
        }
        return b.toString();
    }
}
