#!/usr/bin/env python3
"""Regenerates the DP-Sniper / StatDP comparison table (docs/zoo-vs-peers.md and the README's copy of it).

For each black-box algorithm of DP-Sniper's benchmark (Bichsel et al., IEEE S&P 2021) that dp-audit's zoo runs, on
the input pair DP-Sniper found strongest, the script

  1. computes what is known about the pair from its exact output law (SciPy quadrature; no simulation):
     * the true epsilon of the pair, sup |log p(o)/p'(o)| over outputs o ("inf" where the supports differ);
     * the oracle bound at N trials per world: the pure-DP lower bound a test fixed in advance would certify with all
       N trials and its counts at their expected values, log(CP_lower(TPR) / CP_upper(FPR)), each Clopper-Pearson
       end at (1 - confidence)/2, maximised over the tests dp-audit's attacks can express: every union of outputs
       taken in likelihood-ratio order for discrete outputs, every threshold event for one-dimensional ones, both
       directions. An auditor that must also find its test (dp-audit spends 10% of its trials choosing it) stays
       below this line in expectation; a single run can land above it by luck;
  2. runs `./dp-audit run` on scenarios/zoo/<row>.json at 10^7 and 2*10^8 trials per world (seed 2026, 95% confidence)
     and at 2*10^8 with 90% confidence (DP-Sniper's level), the latter twice: with each world's trials drawn apart,
     as DP-Sniper samples, and with coupled trials (both worlds on common random numbers, the paired bound; access to
     the mechanism's randomness that DP-Sniper's sampling does not have); reads epsilon at delta = 0 from report.json;
  3. sets the results beside DP-Sniper's and StatDP's published lower bounds, copied from DP-Sniper's reference results
     (github.com/eth-sri/dp-sniper, eval_sp2021/reference-results: dd_search_reg_data.log, `eps_lcb`, logistic
     regression, 90% confidence, 2*10^8 final samples; statdp_1_data.log and statdp_2_data.log, `statdp_result.eps_lcb`,
     StatDP's own input pair and post-processing, two runs).

Usage (needs the built jars: `mvn -B -q install -DskipTests`; about 30 minutes on two cores):
  python3 scripts/zoo-vs-peers.py            # runs everything, rewrites docs/zoo-vs-peers.md and the README block
  python3 scripts/zoo-vs-peers.py --oracle   # prints the exact columns only (seconds)
  python3 scripts/zoo-vs-peers.py --readme-only  # the README's seven-column copy from docs/zoo-vs-peers.md
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy import integrate
from scipy.special import comb
from scipy.stats import beta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))
from recompute import conditional_epsilon  # noqa: E402
SEED = 2026
SMALL, LARGE = 10_000_000, 200_000_000
# DP-Sniper's sample sizes (dpsniper/search/ddconfig.py): n_final = 2*10^8 samples per input estimate the chosen
# event's probabilities, n_check = 1.07*10^7 more choose it (n_train = 1.07*10^7 train the classifier). The like-for-like
# run gives dp-audit the same: LARGE trials per world certify, SNIPER_CHECK more (its held-out part) choose the test.
SNIPER_CHECK = 10_700_000
RESEEDS = (2027, 2028, 2029, 2030)

# (scenario file, label, DP-Sniper eps_lcb, StatDP eps_lcb run 1, run 2); values as printed in the logs named above.
ROWS = [
    ("laplace", "Laplace mechanism", 0.09680373477842874, 0.09981418282420251, 0.09961720683589348),
    ("noisy-histogram-correct", "noisy histogram, Lap(1/ε)", 0.09779357853762427, 0.08283071852918455,
     0.09943568335950492),
    ("noisy-histogram-scale-epsilon", "noisy histogram, Lap(ε) (bug)", 4.60202151350145, 9.7169265671521,
     10.002168576736125),
    ("noisy-max-laplace-index", "report noisy max, Laplace, index", 0.09225381318933756, 0.09195171216431208,
     0.0921021169451548),
    ("noisy-max-exponential-index", "report noisy max, exponential, index", 0.09750314019873763,
     0.09957525329005956, 0.09967230375558023),
    ("noisy-max-laplace-value", "report noisy max, Laplace, value (bug)", 0.24781576679261352, 0.1991418003968266,
     0.1960705014773274),
    ("noisy-max-exponential-value", "report noisy max, exponential, value (bug)", 0.34634322696561437,
     0.19601980077941494, 0.1988300779701171),
    ("sparse-vector-1", "sparse vector, Algorithm 1", 0.08579843744077742, 0.029753775766650392,
     0.029845918933959936),
    ("sparse-vector-2", "sparse vector, Algorithm 2", 0.085933777378977, 0.031642012639005124, 0.040683452034789624),
    ("sparse-vector-3", "sparse vector, Algorithm 3 (bug)", 0.17157204754154964, 0.023061332406729917,
     0.17928544503534738),
    ("sparse-vector-4", "sparse vector, Algorithm 4 (bug)", 0.1686833019846503, 0.17085960551924195,
     0.17190839183318207),
    ("sparse-vector-5", "sparse vector, Algorithm 5 (bug)", 1.7611853568928795, 14.314308557571438,
     14.314307341616473),
    ("sparse-vector-6", "sparse vector, Algorithm 6 (bug)", 0.2720409230566201, 0.32203660515097443,
     0.3199544091460842),
]


# ---------------------------------------------------------------- exact laws

def lap_cdf(x, b):
    return 0.5 * math.exp(x / b) if x < 0 else 1 - 0.5 * math.exp(-x / b)


def lap_pdf(x, b):
    return math.exp(-abs(x) / b) / (2 * b)


def exp_cdf(x, b):
    return 0.0 if x <= 0 else -math.expm1(-x / b)


def exp_pdf(x, b):
    return 0.0 if x < 0 else math.exp(-x / b) / b


def quad(f, breaks):
    """Integral of f over the real line, split at the given points (the kinks of Laplace densities)."""
    pts = sorted(set(breaks))
    edges = [-math.inf] + pts + [math.inf]
    return sum(integrate.quad(f, a, b, epsabs=1e-15, epsrel=1e-12, limit=400)[0] for a, b in zip(edges, edges[1:]))


def ints(s):
    return [float(v) for v in str(s).split(",")]


def noisy_max_index(q, scale, exponential):
    cdf, pdf = (exp_cdf, exp_pdf) if exponential else (lap_cdf, lap_pdf)
    out = []
    for k in range(len(q)):
        def f(x, k=k):
            p = pdf(x - q[k], scale)
            for j in range(len(q)):
                if j != k:
                    p *= cdf(x - q[j], scale)
            return p
        out.append(quad(f, [v for v in q] + [v + 3 * scale for v in q]))
    return np.array(out)


def svt_first_above(q, threshold, rho_scale, nu_scale):
    """Variants 1, 2 and 4 with c = 1: the index of the first query answered above, or none (index len(q))."""
    out = []
    for k in range(len(q) + 1):
        def f(r, k=k):
            x = threshold + r
            p = lap_pdf(r, rho_scale)
            for i in range(k):
                p *= lap_cdf(x - q[i], nu_scale)
            if k < len(q):
                p *= 1 - lap_cdf(x - q[k], nu_scale)
            return p
        out.append(quad(f, [0.0] + [v - threshold for v in q]))
    return np.array(out)


def svt6_classes(q, threshold, rho_scale, nu_scale):
    """Algorithm 6 (no cut-off) on answers that take two values a (first five) and b (last five): the law of the
    output bits grouped by (ones among the first five, ones among the last five), per output, with multiplicities."""
    a, b = q[0], q[5]
    assert all(v == a for v in q[:5]) and all(v == b for v in q[5:])
    probs, mult = [], []
    for k1 in range(6):
        for k2 in range(6):
            def f(r, k1=k1, k2=k2):
                x = threshold + r
                pa = 1 - lap_cdf(x - a, nu_scale)
                pb = 1 - lap_cdf(x - b, nu_scale)
                return lap_pdf(r, rho_scale) * pa ** k1 * (1 - pa) ** (5 - k1) * pb ** k2 * (1 - pb) ** (5 - k2)
            probs.append(quad(f, [0.0, a - threshold, b - threshold]))
            mult.append(comb(5, k1) * comb(5, k2))
    return np.array(probs), np.array(mult)


def cp_eps(p, q, n, confidence):
    """log(CP lower of TPR p / CP upper of FPR q) at expected counts, each end at (1 - confidence)/2 (arrays too)."""
    a = (1 - confidence) / 2
    k1 = np.clip(np.asarray(p, dtype=float), 0.0, 1.0) * n
    k0 = np.clip(np.asarray(q, dtype=float), 0.0, 1.0) * n
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(k1 > 0, beta.ppf(a, np.maximum(k1, 1e-300), n - k1 + 1), 0.0)
        hi = np.where(k0 < n, beta.ppf(1 - a, k0 + 1, np.maximum(n - k0, 1e-300)), 1.0)
        e = np.where(lo > 0, np.log(lo / hi), 0.0)
    return np.maximum(e, 0.0)


TOP_TESTS = 10


def conditional_eps(x, n, y, m, confidence):
    """ConditionalEpsilonBound.epsilon at delta = 0 (examples/recompute.py's independent implementation)."""
    return conditional_epsilon(x, n, y, m, 0.0, 1 - confidence)


def best_eps(p, q, n, confidence):
    """The best test's bound at expected counts: the larger of the Clopper-Pearson ratio and the conditional bound,
    the latter evaluated on the TOP_TESTS tests with the largest Clopper-Pearson bound (as dp-audit certifies each test
    by whichever of the two its selection trials predict larger)."""
    cp = cp_eps(p, q, n, confidence)
    best = float(np.max(cp))
    for i in np.argsort(-cp)[:TOP_TESTS]:
        x = int(round(float(np.clip(p[i], 0, 1)) * n))
        y = int(round(float(np.clip(q[i], 0, 1)) * n))
        best = max(best, conditional_eps(x, n, y, n, confidence))
    return best


def discrete_oracle(P, Q, n, confidence, mult=None):
    """Best union of outputs taken in likelihood-ratio order (either direction); mult: outputs per class."""
    m = np.ones_like(P) if mult is None else mult
    best = 0.0
    for X, Y in ((P, Q), (Q, P)):
        order = np.argsort(-(np.log(X) - np.log(Y)))
        best = max(best, best_eps(np.cumsum((X * m)[order]), np.cumsum((Y * m)[order]), n, confidence))
    return best


def threshold_oracle(cdf_d, cdf_dp, grid, n, confidence):
    """Best threshold event {x <= t} or {x > t}, either world flagged, over a grid of t."""
    P = np.array([cdf_d(t) for t in grid])
    Q = np.array([cdf_dp(t) for t in grid])
    best = 0.0
    for p, q in ((P, Q), (1 - P, 1 - Q)):
        best = max(best, best_eps(p, q, n, confidence), best_eps(q, p, n, confidence))
    return best


def exact_columns(name, mech, confidence=0.95):
    """(true epsilon of the pair, oracle at SMALL, oracle at LARGE) for a zoo scenario's mechanism block."""
    eps = float(mech["epsilon"])
    t = mech["type"]
    if t == "laplace":
        d, dp = float(mech["d"]), float(mech["dPrime"])
        b = 1 / eps
        grid = np.linspace(min(d, dp) - 60 * b, max(d, dp) + 60 * b, 4001)
        cd = lambda x: lap_cdf(x - d, b)
        cdp = lambda x: lap_cdf(x - dp, b)
        return abs(d - dp) / b, threshold_oracle(cd, cdp, grid, SMALL, confidence), \
            threshold_oracle(cd, cdp, grid, LARGE, confidence)
    if t == "noisy-histogram":
        d, dp = ints(mech["d"]), ints(mech["dPrime"])
        b = 1 / eps if mech.get("scale", "inverse") == "inverse" else eps
        diff = [i for i in range(len(d)) if d[i] != dp[i]]
        assert len(diff) == 1
        x0, x1 = d[diff[0]], dp[diff[0]]
        grid = np.linspace(min(x0, x1) - 60 * b, max(x0, x1) + 60 * b, 20001)
        cd = lambda x: lap_cdf(x - x0, b)
        cdp = lambda x: lap_cdf(x - x1, b)
        return abs(x0 - x1) / b, threshold_oracle(cd, cdp, grid, SMALL, confidence), \
            threshold_oracle(cd, cdp, grid, LARGE, confidence)
    if t == "noisy-max":
        d, dp = ints(mech["d"]), ints(mech["dPrime"])
        expo = mech.get("noise", "laplace") == "exponential"
        scale = 2 / eps
        if mech.get("output", "index") == "index":
            P, Q = noisy_max_index(d, scale, expo), noisy_max_index(dp, scale, expo)
            return float(np.max(np.abs(np.log(P / Q)))), discrete_oracle(P, Q, SMALL, confidence), \
                discrete_oracle(P, Q, LARGE, confidence)
        cdf = exp_cdf if expo else lap_cdf
        cd = lambda x: math.prod(cdf(x - v, scale) for v in d)
        cdp = lambda x: math.prod(cdf(x - v, scale) for v in dp)
        lo, hi = min(d + dp) - (0 if expo else 40 * scale), max(d + dp) + 40 * scale
        grid = np.concatenate([np.linspace(lo, hi, 20001), np.linspace(min(d + dp), max(d + dp), 2001)])
        if expo and min(d) != min(dp) or expo and max(d) != max(dp):
            true = math.inf  # the supports [max answer, inf) differ
        else:
            pdf = exp_pdf if expo else lap_pdf
            dens = lambda q, x: sum(pdf(x - q[k], scale) * math.prod(cdf(x - q[j], scale) for j in range(len(q))
                                                                     if j != k) for k in range(len(q)))
            xs = np.linspace(lo + 1, hi - 1, 4001)
            true = max(abs(math.log(dens(d, x) / dens(dp, x))) for x in xs)
        return true, threshold_oracle(cd, cdp, grid, SMALL, confidence), \
            threshold_oracle(cd, cdp, grid, LARGE, confidence)
    if t == "sparse-vector":
        v = int(mech["variant"])
        c = int(mech.get("c", 1))
        thr = float(mech.get("threshold", 1))
        d, dp = ints(mech["d"]), ints(mech["dPrime"])
        eps1 = eps / 4 if v == 4 else eps / 2
        eps2 = eps - eps1
        rho = c / eps1 if v == 2 else 1 / eps1
        if c == 1 and v in (1, 2, 4):
            nu = 2 * c / eps2 if v in (1, 2) else 1 / eps2
            P, Q = svt_first_above(d, thr, rho, nu), svt_first_above(dp, thr, rho, nu)
            return float(np.max(np.abs(np.log(P / Q)))), discrete_oracle(P, Q, SMALL, confidence), \
                discrete_oracle(P, Q, LARGE, confidence)
        if v == 5:
            # no query noise: query i is above iff rho <= answer_i - threshold; outputs are decided by rho alone
            def law(q):
                cuts = sorted(set(x - thr for x in q))
                masses, prev = {}, -math.inf
                for cut in cuts:  # rho in (prev, cut]: exactly the queries with answer - threshold >= cut are above
                    bits = tuple(1 if x - thr >= cut else 0 for x in q)
                    masses[bits] = lap_cdf(cut, rho) - (0.0 if prev == -math.inf else lap_cdf(prev, rho))
                    prev = cut
                masses[tuple(0 for _ in q)] = 1 - lap_cdf(prev, rho)
                return masses
            Pm, Qm = law(d), law(dp)
            keys = sorted(set(Pm) | set(Qm))
            P = np.array([Pm.get(k, 0.0) for k in keys]) + 1e-300
            Q = np.array([Qm.get(k, 0.0) for k in keys]) + 1e-300
            true = math.inf if any((Pm.get(k, 0) == 0) != (Qm.get(k, 0) == 0) for k in keys) \
                else float(np.max(np.abs(np.log(P / Q))))
            return true, discrete_oracle(P, Q, SMALL, confidence), discrete_oracle(P, Q, LARGE, confidence)
        if v == 6:
            nu = 1 / eps2
            P, mult = svt6_classes(d, thr, rho, nu)
            Q, _ = svt6_classes(dp, thr, rho, nu)
            return float(np.max(np.abs(np.log(P / Q)))), discrete_oracle(P, Q, SMALL, confidence, mult), \
                discrete_oracle(P, Q, LARGE, confidence, mult)
    return None, None, None  # Algorithm 3 (a noisy answer with a position): a two-dimensional law, not computed


# ---------------------------------------------------------------- dp-audit runs

def audit(scenario_path, trials, confidence, seed=SEED, selection_trials=None, coupled=False):
    """epsilon at delta = 0 and the counted seconds of one `dp-audit run`; with selection_trials, `trials` certify and
    selection_trials more per world choose the test (held-out fraction s / (trials + s)); with coupled, both worlds of
    each trial run on common random numbers and epsilon is certified by the paired bound."""
    with open(scenario_path) as f:
        scenario = json.load(f)
    scenario["confidence"] = confidence
    if coupled:
        scenario["simulator"] = {"kind": "reduced", "coupling": "common-random-numbers"}
    if selection_trials is not None:
        total = trials + selection_trials
        scenario["thresholdSelection"] = {"method": "held-out", "holdoutFraction": selection_trials / total}
        trials = total
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scenario.json")
        with open(path, "w") as f:
            json.dump(scenario, f)
        out = os.path.join(tmp, "out")
        proc = subprocess.run([os.path.join(ROOT, "dp-audit"), "run", path, "--trials", str(trials), "--seed",
                               str(seed), "--out", out, "--quiet"], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode not in (0, 3):
            sys.exit(f"dp-audit failed on {scenario_path}: {proc.stderr.strip()}")
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
    if selection_trials is not None:
        sel = report["thresholdSelection"]
        assert (sel["selectionTrialsPerWorld"], sel["evaluationTrialsPerWorld"]) == (selection_trials,
                                                                                    trials - selection_trials), sel
    bounds = [b for b in report["empirical"]["epsilonLowerBounds"] if b["delta"] == 0]
    # coupled trials are certified by one of the two forms of the paired bound, independent ones never are
    assert (bounds[0]["certification"] in ("paired", "marginal")) == coupled, bounds[0]
    return bounds[0]["epsilon"], report["elapsedSeconds"]


def fmt(x):
    if x is None:
        return "—"
    if x == math.inf:
        return "∞"
    return f"{x:.4g}"


def main():
    if "--readme-only" in sys.argv:
        write_readme()
        return
    oracle_only = "--oracle" in sys.argv
    lines = []
    header = ("| algorithm (zoo scenario) | true ε of the pair | oracle 10⁷ | dp-audit 10⁷ | oracle 2·10⁸ | dp-audit 2·10⁸ "
              "| dp-audit at DP-Sniper's sizes, 90% | dp-audit, coupled trials, DP-Sniper's sizes, 90% "
              "| DP-Sniper (2·10⁸, 90%) | StatDP (two runs) |")
    lines.append(header)
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    seconds = 0.0
    below = []
    for name, label, sniper, statdp1, statdp2 in ROWS:
        path = os.path.join(ROOT, "scenarios", "zoo", name + ".json")
        with open(path) as f:
            mech = json.load(f)["mechanism"]
        true, o_small, o_large = exact_columns(name, mech)
        if oracle_only:
            print(f"{name:32s} true {fmt(true):>8s}  oracle 1e7 {fmt(o_small):>8s}  oracle 2e8 {fmt(o_large):>8s}",
                  flush=True)
            continue
        small, s1 = audit(path, SMALL, 0.95)
        large, s2 = audit(path, LARGE, 0.95)
        large90, s3 = audit(path, LARGE, 0.90, selection_trials=SNIPER_CHECK)
        coupled90, s4 = audit(path, LARGE, 0.90, selection_trials=SNIPER_CHECK, coupled=True)
        seconds += s1 + s2 + s3 + s4
        mark = "" if large90 >= sniper else " (below)"
        if large90 < sniper:
            below.append((label, path, sniper, large90))
        row = (f"| {label} (`{name}`) | {fmt(true)} | {fmt(o_small)} | {fmt(small)} | {fmt(o_large)} | {fmt(large)} "
               f"| {fmt(large90)}{mark} | {fmt(coupled90)}{' (below)' if coupled90 < sniper else ''} | {fmt(sniper)} "
               f"| {fmt(statdp1)} / {fmt(statdp2)} |")
        print(row, flush=True)
        lines.append(row)
    if oracle_only:
        return
    # A row below DP-Sniper at seed 2026 is run again with RESEEDS further seeds (rule fixed before any run), so that
    # one run's luck is told apart from a gap: DP-Sniper's figure is one run too.
    notes = []
    for label, path, sniper, first in below:
        values = [first]
        for seed in RESEEDS:
            e, s = audit(path, LARGE, 0.90, seed, selection_trials=SNIPER_CHECK)
            values.append(e)
            seconds += s
        values.sort()
        median = values[len(values) // 2]
        notes.append(f"* {label}: DP-Sniper's sizes, 90%, seeds {SEED}–{RESEEDS[-1]}: " + ", ".join(fmt(v) for v in values)
                     + f" (median {fmt(median)}; DP-Sniper {fmt(sniper)}, oracle at 95% above)")
        print(notes[-1], flush=True)
    table = "\n".join(lines) + "\n"
    if notes:
        table += ("\nRows below DP-Sniper at seed " + str(SEED) + ", run again with " + str(len(RESEEDS))
                  + " further seeds (a rule fixed before the runs; both figures are single runs):\n\n"
                  + "\n".join(notes) + "\n")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    stamp = (f"Generated by `python3 scripts/zoo-vs-peers.py` at commit {commit}: seed {SEED}, δ = 0, ε lower bounds "
             f"at 95% confidence unless marked 90%; {seconds:.0f} s of audits.\n")
    doc = os.path.join(ROOT, "docs", "zoo-vs-peers.md")
    with open(doc) as f:
        text = f.read()
    text = replace_block(text, stamp + "\n" + table)
    write_atomically(doc, text)
    write_readme()


def write_readme():
    """The README's copy: the generated table of docs/zoo-vs-peers.md cut to seven columns (pair, true ε, oracle at
    2·10⁸, dp-audit at DP-Sniper's sizes independent and coupled, DP-Sniper, StatDP), so that the README stays short."""
    doc = os.path.join(ROOT, "docs", "zoo-vs-peers.md")
    with open(doc) as f:
        text = f.read()
    block = text[text.index(BEGIN) + len(BEGIN):text.index(END)]
    rows = [line for line in block.splitlines() if line.startswith("|")]
    keep = (0, 1, 4, 6, 7, 8, 9)
    out = []
    for line in rows:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        out.append("| " + " | ".join(cells[i] for i in keep) + " |")
    stamp = next(line for line in block.splitlines() if line.startswith("Generated by"))
    readme = os.path.join(ROOT, "README.md")
    with open(readme) as f:
        text = f.read()
    write_atomically(readme, replace_block(text, "\n".join(out) + "\n\n" + stamp.replace("Generated", "Cut from "
                     "docs/zoo-vs-peers.md, generated") + "\n"))


BEGIN, END = "<!-- zoo-vs-peers:begin -->", "<!-- zoo-vs-peers:end -->"


def replace_block(text, block):
    i, j = text.index(BEGIN), text.index(END)
    return text[:i + len(BEGIN)] + "\n" + block + text[j:]


def write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
