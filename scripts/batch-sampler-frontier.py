#!/usr/bin/env python3
"""Regenerates the frontier table of docs/batch-samplers.md: what is proven about each batch sampler's epsilon at the
deltas practice reports, and whether Poisson accounting of it is proven safe.

For each configuration and each delta in {1e-3, 1e-6, 1e-8, 1e-10, 1e-12} the script runs `./dp-audit bound ...
--delta D --json` and reads every bound's kind and epsilon:

  * certified lower: the largest epsilon among the bounds of kind lower-bound (the max tests `bnb-max-test`,
    `allocation-max-test`, Chua et al.'s `chua24-shuffle-lower`, the lower end `allocation-pld-lower` of the PLD
    bracket of the dominating pair, the sum test `allocation-sum-test` of k-of-T allocation);
  * certified upper: the smallest among the bounds of kind upper-bound (`allocation-pld-upper`,
    `allocation-decomposition-upper`, `deterministic`);
  * relative width: (upper - lower) / lower;
  * Poisson: `poisson-pld`, the Poisson accounting deployments use; "proven safe" when it is at least the certified
    upper end, "proven unsafe" when it is below the certified lower end, "undecided" otherwise;
  * seconds: the whole `bound` call (JVM start included).

Usage (needs the built jars: `mvn -B -q install -DskipTests`; several minutes on two cores):
  python3 scripts/batch-sampler-frontier.py            # prints the table and rewrites it in docs/batch-samplers.md
  python3 scripts/batch-sampler-frontier.py --print    # prints it only
  python3 scripts/batch-sampler-frontier.py --grid     # issue 59 item 2's grid for balls-and-bins (T in {100, 1000,
                                                       # 10^4}, sigma in {0.5, 0.7, 1}, 1 and 4 epochs, delta 1e-4 to
                                                       # 1e-12): the certified bracket's relative width in epsilon,
                                                       # printed only (about 26 minutes); --steps, --sigma and
                                                       # --epochs (comma-separated) restrict it to those rows;
                                                       # --delta-width adds the width in delta, issue 59's own
                                                       # measure: (upper - lower) / upper of the bracket on delta at
                                                       # the epsilon where the certified upper end reaches delta
                                                       # (one more `bound --epsilon` call per cell)
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "batch-samplers.md")
BEGIN = "<!-- frontier table: scripts/batch-sampler-frontier.py -->"
END = "<!-- end of frontier table -->"

CONFIGS = [
    ["balls-and-bins", "steps=1000", "sigma=0.5"],
    ["balls-and-bins", "steps=1000", "sigma=1"],
    ["balls-and-bins", "steps=1000", "sigma=1", "epochs=4"],
    ["balls-and-bins", "steps=10000", "sigma=0.7"],
    ["random-allocation", "steps=1000", "sigma=1", "k=2"],
    ["random-allocation", "steps=1000", "sigma=1", "k=4"],
    ["shuffled-batches", "steps=1000", "sigma=0.5"],
    ["shuffled-batches", "steps=1000", "sigma=1"],
    ["shuffled-batches", "steps=1000", "sigma=1", "epochs=4"],
    ["shuffled-batches", "steps=1000", "sigma=1", "epochs=4", "shuffle=persistent"],
    ["shuffled-batches", "steps=1000", "sigma=1", "epochs=16"],
    ["shuffled-batches", "steps=1000", "sigma=1", "epochs=16", "shuffle=persistent"],
]
DELTAS = [1e-3, 1e-6, 1e-8, 1e-10, 1e-12]


def bound(args, delta, at="--delta"):
    """Every bound's JSON from `bound ARGS --delta D` (or `--epsilon E` with at="--epsilon")."""
    cmd = [os.path.join(ROOT, "dp-audit"), "bound"] + args + [at, repr(delta), "--json", "--quiet"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["bounds"]


def fmt(x):
    if x is None or x != x:
        return "-"
    return "inf" if x == float("inf") else "%.4g" % x


def finite(b):
    e = b.get("epsilon")
    return e if isinstance(e, (int, float)) else None


def rows():
    out = []
    for cfg in CONFIGS:
        for delta in DELTAS:
            start = time.time()
            bounds = bound(cfg, delta)
            seconds = time.time() - start
            lows = [(finite(b), b["name"]) for b in bounds if b["kind"] == "lower-bound" and finite(b) is not None]
            ups = [(finite(b), b["name"]) for b in bounds if b["kind"] == "upper-bound" and finite(b) is not None]
            lo = max(lows) if lows else (None, "-")
            hi = min(ups) if ups else (None, "-")
            poisson = next((finite(b) for b in bounds if b["name"] == "poisson-pld"), None)
            width = (hi[0] - lo[0]) / lo[0] if lo[0] and hi[0] is not None else None
            if poisson is None or lo[0] is None or hi[0] is None:
                verdict = "-"
            elif poisson >= hi[0]:
                verdict = "proven safe"
            elif poisson < lo[0]:
                verdict = "proven unsafe"
            else:
                verdict = "undecided"
            out.append("| %s | %g | %s (%s) | %s (%s) | %s | %s | %s | %.1f |" % (
                " ".join(cfg), delta, fmt(lo[0]), lo[1], fmt(hi[0]), hi[1],
                "-" if width is None else "%.2g%%" % (100 * width), fmt(poisson), verdict, seconds))
            print(out[-1], flush=True)
    return out


GRID_DELTAS = [1e-4, 1e-6, 1e-8, 1e-10, 1e-12]


def option(name, default):
    """The values after `--name` (comma-separated), or default."""
    if "--" + name in sys.argv:
        return [type(default[0])(v) for v in sys.argv[sys.argv.index("--" + name) + 1].split(",")]
    return default


def delta_width(args, epsilon):
    """The certified bracket's width in delta at epsilon, relative to its upper end: (upper - lower) / upper."""
    bounds = bound(args, epsilon, at="--epsilon")
    lows = [b["delta"] for b in bounds if b["kind"] == "lower-bound" and isinstance(b.get("delta"), (int, float))]
    ups = [b["delta"] for b in bounds if b["kind"] == "upper-bound" and isinstance(b.get("delta"), (int, float))]
    if not lows or not ups or not min(ups) > 0:
        return None
    return (min(ups) - max(lows)) / min(ups)


def grid():
    """Issue 59's grid: the width in epsilon at each delta; with --delta-width also the width in delta at the epsilon
    where the certified upper end reaches that delta (a second `bound` call per cell)."""
    in_delta = "--delta-width" in sys.argv
    print("| T | sigma | epochs | " + " | ".join("%g" % d for d in GRID_DELTAS) + " | seconds (max) |")
    print("|---|---|---|" + "---|" * len(GRID_DELTAS) + "---|")
    for steps in option("steps", [100, 1000, 10000]):
        for sigma in option("sigma", [0.5, 0.7, 1.0]):
            for epochs in option("epochs", [1, 4]):
                cells = []
                slowest = 0.0
                for delta in GRID_DELTAS:
                    start = time.time()
                    args = ["balls-and-bins", "steps=%d" % steps, "sigma=%g" % sigma, "epochs=%d" % epochs]
                    bounds = bound(args, delta)
                    slowest = max(slowest, time.time() - start)
                    lows = [finite(b) for b in bounds if b["kind"] == "lower-bound" and finite(b) is not None]
                    ups = [finite(b) for b in bounds if b["kind"] == "upper-bound" and finite(b) is not None]
                    if not lows or not ups or max(lows) <= 0:
                        cells.append("-")
                        continue
                    lo, hi = max(lows), min(ups)
                    cell = "%.2g%%" % (100 * (hi - lo) / lo)
                    if in_delta:
                        start = time.time()
                        width = delta_width(args, hi)
                        slowest = max(slowest, time.time() - start)
                        cell += " / " + ("-" if width is None else "%.2g%%" % (100 * width))
                    cells.append(cell)
                print("| %d | %g | %d | %s | %.0f |" % (steps, sigma, epochs, " | ".join(cells), slowest), flush=True)


def main():
    if "--grid" in sys.argv:
        grid()
        return
    table = ["| sampler | delta | certified lower epsilon | certified upper epsilon | relative width | Poisson "
             "accounting | Poisson accounting is | seconds |", "|---|---|---|---|---|---|---|---|"] + rows()
    if "--print" in sys.argv:
        return
    with open(DOC) as f:
        text = f.read()
    i, j = text.index(BEGIN) + len(BEGIN), text.index(END)
    with open(DOC, "w") as f:
        f.write(text[:i] + "\n" + "\n".join(table) + "\n" + text[j:])


if __name__ == "__main__":
    main()
