#!/usr/bin/env python3
"""Regenerates the importance-sampling tables of docs/batch-samplers.md: epsilon at small delta of the batch samplers
with dependent rounds from their own importance sampler (estimate.method = importance), beside what is proven
deterministically.

Two tables: balls-and-bins (beside its max test `bnb-max-test` and its certified lattice bracket
`allocation-pld-lower`/`allocation-pld-upper`), and k-of-T random allocation and the shuffle's lower-bound pair (beside
the best proven lower bound — `allocation-max-test` or `allocation-sum-test`, `chua24-shuffle-lower` — and the certified
upper bound — `allocation-decomposition-upper`, or for the shuffle's pair `deterministic`, which bounds the pair too).

For each configuration the script writes a scenario with the table's deltas, the likelihood-ratio attack at 2000
trials (the attack is not what is measured) and `"estimate": {"method": "importance", "samples": 100000}`, runs
`./dp-audit run SCENARIO --threads 2 --quiet`, and reads from report.json the estimate's interval on epsilon(delta)
(95% simultaneous over its grid, both directions and both sides) and the bounds' epsilon at each delta. "Poisson" says
whether Poisson accounting (`poisson-pld`) is shown safe (at least the interval's upper end), unsafe (below its lower
end) or undecided, by the estimate (at its confidence) or by the proven bounds (safe at or above the certified upper
bound, unsafe below the proven lower bound), whichever decides; for the shuffle, whose pair is only a lower bound on
the sampler, it can be shown unsafe only. Seconds: the whole run (JVM start, bounds, the attack's trials and the
estimate).

Usage (needs the built jars: `mvn -B -q install -DskipTests`; about ten minutes on two cores):
  python3 scripts/importance-table.py                  # prints both tables and rewrites them in docs/batch-samplers.md
  python3 scripts/importance-table.py --print          # prints them only
  python3 scripts/importance-table.py --only others    # only the second table (or: --only balls-and-bins)
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "batch-samplers.md")

# (type, steps, sigma, epochs, k, persistent)
TABLES = {
    "balls-and-bins": {
        "markers": ("<!-- importance table: scripts/importance-table.py balls-and-bins -->",
                    "<!-- end of importance table -->"),
        "configs": [("balls-and-bins", 1000, 0.5, 1, 1, False), ("balls-and-bins", 1000, 0.5, 4, 1, False),
                    ("balls-and-bins", 1000, 0.7, 1, 1, False), ("balls-and-bins", 1000, 1.0, 1, 1, False),
                    ("balls-and-bins", 10000, 0.5, 1, 1, False)],
        "deltas": [1e-8, 1e-10, 1e-12],
        "lower": ["bnb-max-test"],
        "upper": ["allocation-pld-upper"],
        "header": ["| configuration | delta | importance estimate of epsilon (95%) | width | max test (proven lower) | "
                   "lattice bracket (certified) | Poisson | Poisson accounting | seconds |",
                   "|---|---|---|---|---|---|---|---|---|"],
    },
    "others": {
        "markers": ("<!-- importance table: scripts/importance-table.py others -->",
                    "<!-- end of the other samplers' importance table -->"),
        "configs": [("random-allocation", 1000, 0.5, 1, 2, False), ("random-allocation", 1000, 0.7, 1, 2, False),
                    ("random-allocation", 1000, 1.0, 1, 2, False), ("random-allocation", 1000, 0.5, 1, 4, False),
                    ("random-allocation", 1000, 0.7, 1, 4, False), ("shuffled-batches", 1000, 0.5, 1, 1, False),
                    ("shuffled-batches", 1000, 1.0, 1, 1, False), ("shuffled-batches", 1000, 1.0, 4, 1, True),
                    ("shuffled-batches", 1000, 1.0, 4, 1, False)],
        "deltas": [1e-6, 1e-8, 1e-10, 1e-12],
        "lower": ["allocation-max-test", "allocation-sum-test", "chua24-shuffle-lower"],
        "upper": ["allocation-decomposition-upper", "deterministic"],
        "header": ["| configuration | delta | importance estimate of epsilon (95%) | width | best proven lower bound | "
                   "certified upper bound | Poisson | Poisson accounting | seconds |",
                   "|---|---|---|---|---|---|---|---|---|"],
    },
}


def run(config, deltas, out):
    kind, steps, sigma, epochs, k, persistent = config
    mechanism = {"type": kind, "steps": steps, "sigma": sigma, "epochs": epochs}
    if kind == "random-allocation":
        mechanism["k"] = k
    if persistent:
        mechanism["shuffle"] = "persistent"
    scenario = {"name": "importance-%s-T%d-k%d-sigma%s-E%d" % (kind, steps, k, sigma, epochs),
                "mechanism": mechanism, "attack": "likelihood-ratio", "trials": 2000, "seed": 59, "deltas": deltas,
                "estimate": {"method": "importance", "samples": 100000}}
    path = os.path.join(out, "scenario.json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    start = time.time()
    subprocess.run([os.path.join(ROOT, "dp-audit"), "run", path, "--out", os.path.join(out, "report"), "--threads",
                    "2", "--quiet"], check=True, capture_output=True, text=True)
    seconds = time.time() - start
    with open(os.path.join(out, "report", "report.json")) as f:
        return json.load(f), seconds


def num(x):
    if isinstance(x, str):
        return float(x)
    return x


def fmt(x):
    if x is None or x != x:
        return "-"
    return "inf" if x == float("inf") else "%.4g" % x


def bound_at(report, name, delta):
    for b in report["bounds"]:
        if b["name"] == name:
            for p in b.get("epsilonAtDeltas", []):
                if abs(num(p["delta"]) / delta - 1) < 1e-9:
                    return num(p["epsilon"])
    return None


def describe(config):
    kind, steps, sigma, epochs, k, persistent = config
    if kind == "balls-and-bins":
        return "T = %d, sigma = %s, E = %d" % (steps, sigma, epochs)
    if kind == "random-allocation":
        return "%d of T = %d, sigma = %s, E = %d" % (k, steps, sigma, epochs)
    return "shuffle pair, T = %d, sigma = %s, E = %d%s" % (steps, sigma, epochs,
                                                         "" if epochs == 1 else (" persistent" if persistent
                                                                                 else " dynamic"))


def best(report, names, delta, pick):
    values = [v for v in (bound_at(report, n, delta) for n in names) if v is not None and v == v]
    return pick(values) if values else None


def rows(table):
    spec = TABLES[table]
    out = []
    for config in spec["configs"]:
        with tempfile.TemporaryDirectory() as d:
            report, seconds = run(config, spec["deltas"], d)
        shuffle = config[0] == "shuffled-batches"
        for e in report["estimate"]["epsilonAtDelta"]:
            delta = num(e["delta"])
            lo, hi = num(e["lower"]), num(e["upper"])
            poisson = bound_at(report, "poisson-pld", delta)
            lower = best(report, spec["lower"], delta, max)
            upper = best(report, spec["upper"], delta, min)
            # by the estimate (95%) or the proven bounds, whichever decides (the shuffle's upper end is not its pair's)
            floor = max(lo, lower if lower is not None else 0)
            ceiling = min(hi, upper if upper is not None and not shuffle else float("inf"))
            verdict = "undecided"
            if poisson is not None and ceiling != float("inf") and poisson >= ceiling and not shuffle:
                verdict = "safe"
            elif poisson is not None and poisson < floor:
                verdict = "unsafe"
            width = (hi - lo) / lo if lo > 0 and hi != float("inf") else float("inf")
            proven = ("[%s, %s]" % (fmt(bound_at(report, "allocation-pld-lower", delta)), fmt(upper))
                      if table == "balls-and-bins" else fmt(upper))
            out.append("| %s | %g | [%s, %s] | %s | %s | %s | %s | %s | %.0f |" % (
                describe(config), delta, fmt(lo), fmt(hi), "%.2g%%" % (100 * width) if width != float("inf") else "inf",
                fmt(lower), proven, fmt(poisson), verdict, seconds))
    return out


def main():
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    for name, spec in TABLES.items():
        if only is not None and only != name:
            continue
        table = "\n".join(spec["header"] + rows(name))
        print(table)
        if "--print" in sys.argv:
            continue
        with open(DOC) as f:
            text = f.read()
        begin, end = spec["markers"]
        a = text.index(begin) + len(begin)
        b = text.index(end)
        with open(DOC, "w") as f:
            f.write(text[:a] + "\n" + table + "\n" + text[b:])


if __name__ == "__main__":
    main()
