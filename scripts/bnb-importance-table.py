#!/usr/bin/env python3
"""Regenerates the importance-sampling table of docs/batch-samplers.md: balls-and-bins' epsilon at small delta from its
own importance sampler (estimate.method = importance), beside what is proven deterministically.

For each configuration the script writes a scenario with the deltas {1e-8, 1e-10, 1e-12}, the likelihood-ratio attack
at 2000 trials (the attack is not what is measured) and `"estimate": {"method": "importance", "samples": 100000}`,
runs `./dp-audit run SCENARIO --threads 2 --quiet`, and reads from report.json the estimate's interval on epsilon(delta)
(95% simultaneous over its grid, both directions and both sides), the max test's proven lower bound
(`bnb-max-test`), the certified lattice bracket (`allocation-pld-lower`, `allocation-pld-upper`) and the Poisson
accounting (`poisson-pld`). "Poisson" says whether Poisson accounting is shown safe (at least the interval's upper
end), unsafe (below its lower end) or undecided by the estimate, at the estimate's confidence. Seconds: the whole run
(JVM start, bounds, the attack's trials and the estimate).

Usage (needs the built jars: `mvn -B -q install -DskipTests`; about ten minutes on two cores):
  python3 scripts/bnb-importance-table.py            # prints the table and rewrites it in docs/batch-samplers.md
  python3 scripts/bnb-importance-table.py --print    # prints it only
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "batch-samplers.md")
BEGIN = "<!-- importance table: scripts/bnb-importance-table.py -->"
END = "<!-- end of importance table -->"

CONFIGS = [(1000, 0.5, 1), (1000, 0.5, 4), (1000, 0.7, 1), (1000, 1.0, 1), (10000, 0.5, 1)]
DELTAS = [1e-8, 1e-10, 1e-12]


def run(steps, sigma, epochs, out):
    scenario = {"name": "bnb-importance-T%d-sigma%s-E%d" % (steps, sigma, epochs),
                "mechanism": {"type": "balls-and-bins", "steps": steps, "sigma": sigma, "epochs": epochs},
                "attack": "likelihood-ratio", "trials": 2000, "seed": 59, "deltas": DELTAS,
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


def rows():
    out = []
    for steps, sigma, epochs in CONFIGS:
        with tempfile.TemporaryDirectory() as d:
            report, seconds = run(steps, sigma, epochs, d)
        for e in report["estimate"]["epsilonAtDelta"]:
            delta = num(e["delta"])
            lo, hi = num(e["lower"]), num(e["upper"])
            poisson = bound_at(report, "poisson-pld", delta)
            verdict = "undecided"
            if poisson is not None and hi != float("inf") and poisson >= hi:
                verdict = "safe"
            elif poisson is not None and poisson < lo:
                verdict = "unsafe"
            width = (hi - lo) / lo if lo > 0 and hi != float("inf") else float("inf")
            out.append("| T = %d, sigma = %s, E = %d | %g | [%s, %s] | %s | %s | [%s, %s] | %s | %s | %.0f |" % (
                steps, sigma, epochs, delta, fmt(lo), fmt(hi),
                "%.2g%%" % (100 * width) if width != float("inf") else "inf", fmt(bound_at(report, "bnb-max-test", delta)),
                fmt(bound_at(report, "allocation-pld-lower", delta)), fmt(bound_at(report, "allocation-pld-upper", delta)),
                fmt(poisson), verdict, seconds))
    return out


def main():
    header = ["| configuration | delta | importance estimate of epsilon (95%) | width | max test (proven lower) | "
              "lattice bracket (certified) | Poisson | Poisson accounting | seconds |",
              "|---|---|---|---|---|---|---|---|---|"]
    table = "\n".join(header + rows())
    print(table)
    if "--print" in sys.argv:
        return
    with open(DOC) as f:
        text = f.read()
    a = text.index(BEGIN) + len(BEGIN)
    b = text.index(END)
    with open(DOC, "w") as f:
        f.write(text[:a] + "\n" + table + "\n" + text[b:])


if __name__ == "__main__":
    main()
