#!/usr/bin/env python3
"""Recompute a dp-audit report's empirical bounds from its histograms, and plot them.

    python3 examples/recompute.py dp-audit-out            # a report folder (report.json + counts.json)
    python3 examples/recompute.py dp-audit-out --plot hist.png

For every empirical epsilon lower bound in report.json, this finds the certifying threshold test in the
evaluation counts of counts.json, recounts its true and false positives, recomputes the one-sided
Clopper-Pearson bounds (scipy) and epsilon = log((TPR_lower - delta) / FPR_upper) -- or, where the report's
certification is "conditional", the conditional odds-ratio bound (Fisher's noncentral hypergeometric law of the
true positives given the total, Berger-Boos interval for the false-positive rate) -- and prints both. With
--plot it draws both worlds' score histograms (matplotlib) with the selected thresholds. Needs numpy, scipy
(and pandas, matplotlib for --plot).
"""
import argparse
import json
import math
import os
import sys

import numpy as np
from scipy.special import gammaln
from scipy.stats import beta


def number(x):
    """report.json writes non-finite numbers as strings."""
    return {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}.get(x, x) if isinstance(x, str) else x


def dense(side, slots):
    out = np.zeros(slots, dtype=np.int64)
    out[np.asarray(side["slots"], dtype=np.int64)] = np.asarray(side["counts"], dtype=np.int64)
    return out


def edges(binning):
    """Threshold value of each edge k in [0, bins] (the test 'score >= edge k' counts slots k+1 .. bins+1)."""
    if binning["exact"]:
        return np.array([number(v) for v in binning["values"]], dtype=float)
    lo, hi, bins = number(binning["lo"]), number(binning["hi"]), binning["bins"]
    e = lo + np.arange(bins + 1) * ((hi - lo) / bins)
    e[bins] = hi
    return e


def clopper_pearson(k, n, a, upper):
    if upper:
        return 1.0 if k == n else beta.ppf(1 - a, k + 1, n - k)
    return 0.0 if k == 0 else beta.ppf(a, k, n - k + 1)


NUISANCE_SHARE = 0.05  # ConditionalEpsilonBound.NUISANCE_SHARE


def fnch_upper_tail(x, n, m, s, psi):
    """P(X >= x) for Fisher's noncentral hypergeometric law given X + Y = s (log-gamma terms, 14 sd either side)."""
    b = (m - s) + psi * (n + s)
    c = psi * n * s
    mu = 2 * c / (b + math.sqrt(max(0.0, b * b - 4 * (psi - 1) * c)))
    sd = math.sqrt(max(1.0, mu * (1 - mu / max(n, 1)) * (s - mu) / max(s, 1)))
    w = int(14 * sd + 50)
    ks = np.arange(max(0, s - m, int(mu) - w), min(n, s, int(mu) + w) + 1, dtype=float)
    lp = -gammaln(ks + 1) - gammaln(n - ks + 1) - gammaln(s - ks + 1) - gammaln(m - s + ks + 1) + ks * math.log(psi)
    pm = np.exp(lp - lp.max())
    return float(pm[ks >= x].sum() / pm.sum())


def conditional_epsilon(x, n, y, m, delta, level):
    """The conditional odds-ratio lower bound on log((p - delta) / q) at error level `level` (0 when none)."""
    g = NUISANCE_SHARE * level
    if x == 0 or (delta > 0 and y == 0):
        return 0.0
    qu = clopper_pearson(y, m, g if delta == 0 else g / 2, True)
    ql = clopper_pearson(y, m, g / 2, False) if delta > 0 else math.nan
    if (delta > 0 and not ql > 0) or not (1 - delta) / qu > 1:
        return 0.0

    def rejects(e0):
        r = math.exp(e0)
        den = 1 - r * qu - delta
        if den <= 0:
            return False
        first = r if delta == 0 else r + delta / ql
        return fnch_upper_tail(x, n, m, x + y, first * (1 - qu) / den) <= level - g

    if not rejects(0.0):
        return 0.0
    lo, hi = 0.0, math.log((1 - delta) / qu)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if rejects(mid) else (lo, mid)
    return lo


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--plot", metavar="PNG")
    args = ap.parse_args()
    report = json.load(open(os.path.join(args.folder, "report.json")))
    counts = json.load(open(os.path.join(args.folder, "counts.json")))
    if counts["audit"] is None:
        sys.exit("counts.json holds no audit counts")
    binning = counts["audit"]["binning"]
    slots = binning["bins"] + 2
    evaluation = counts["audit"]["evaluation"]
    # Each world's own trial count (external score files may hold different numbers per world).
    trials = {"D": evaluation["withCanary"]["trials"], "D'": evaluation["withoutCanary"]["trials"]}
    n = trials["D"]
    world = {"D": dense(evaluation["withCanary"], slots), "D'": dense(evaluation["withoutCanary"], slots)}
    # upper[w][k] = trials of world w with score at or above edge k
    upper = {w: np.cumsum(c[::-1])[::-1][1:] for w, c in world.items()}
    e = edges(binning)
    n_prime = trials["D'"]
    print(f"{report.get('scenarioName') or report['scenario'].get('name', '?')}: {n:,} evaluation trials of D, {n_prime:,} of D'")
    for bound in report["empirical"]["epsilonLowerBounds"]:
        t = bound["test"]
        threshold, flagged = number(t["threshold"]), t["direction"].split(" flags ")[1]
        other = "D'" if flagged == "D" else "D"
        k = int(np.argmin(np.abs(e - threshold))) if math.isfinite(threshold) else (0 if threshold < 0 else len(e) - 1)
        tail = (lambda w: upper[w][k]) if t["direction"].startswith("score >=") else (lambda w: trials[w] - upper[w][k])
        tp, fp = int(tail(flagged)), int(tail(other))
        a = number(t["errorLevelPerRate"])
        tpr, fpr = clopper_pearson(tp, trials[flagged], a, False), clopper_pearson(fp, trials[other], a, True)
        delta = number(bound["delta"])
        if bound.get("certification") == "conditional":
            eps = conditional_epsilon(tp, trials[flagged], fp, trials[other], delta, 2 * a)
        else:
            eps = math.log((tpr - delta) / fpr) if tpr > delta and fpr > 0 else (math.inf if tpr > delta else 0.0)
        print(f"  delta = {delta:g}: test '{t['direction']}' at {threshold:.6g}: TP {tp} (report {t['truePositives']}),"
              f" FP {fp} (report {t['falsePositives']}); epsilon >= {max(eps, 0):.6g}"
              f" ({bound.get('certification', 'clopper-pearson')}; report {number(bound['epsilon']):.6g})")
    if counts.get("estimate"):
        print(f"  estimate histograms: {counts['estimate']['counts']['trials']:,} trials per world, "
              f"bracket: {counts['estimate']['lossBracket']}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import pandas as pd
        centers = (e[:-1] + e[1:]) / 2 if not binning["exact"] else e[:-1]
        frame = pd.DataFrame({"score": centers, "D": world["D"][1:-1], "D'": world["D'"][1:-1]})
        ax = frame.plot(x="score", y=["D", "D'"], logy=True, drawstyle="steps-mid")
        for bound in report["empirical"]["epsilonLowerBounds"]:
            ax.axvline(number(bound["test"]["threshold"]), color="grey", ls=":")
        ax.set_ylabel("evaluation trials per bin")
        plt.savefig(args.plot, dpi=120, bbox_inches="tight")
        print("plot:", args.plot)


if __name__ == "__main__":
    main()
