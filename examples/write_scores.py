#!/usr/bin/env python3
"""Write per-trial canary scores as a Python audit would, in the formats `dp-audit scores` reads.

A real run trains (or runs) the mechanism many times with the canary and many times without it, and keeps one score
per run: the canary's loss, the inner product of the final model's update with the canary's gradient, the log-odds of
a membership classifier -- any statistic fixed before the runs, higher meaning "the canary was in". Here the runs are
simulated by the Gaussian mechanism on the canary's coordinate (noise multiplier sigma, sensitivity 1), whose true
epsilon is known, so that the audit can be checked:

    python3 examples/write_scores.py --out /tmp/scores --trials 1000000 --sigma 1
    dp-audit scores --with /tmp/scores/with.npy --without /tmp/scores/without.npy --deltas 1e-5 --claim 4.38,1e-5

Formats: .npy (float64; --float32 for float32), .csv with a header ("score"), plain .txt, and .gz of each (--gzip).
Only numpy is needed.
"""
import argparse
import gzip
import os

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--trials", type=int, default=1_000_000, help="runs per world")
    ap.add_argument("--sigma", type=float, default=1.0, help="noise standard deviation (sensitivity 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--float32", action="store_true")
    ap.add_argument("--formats", default="npy", help="comma-separated: npy, csv, txt")
    ap.add_argument("--gzip", action="store_true")
    args = ap.parse_args()
    formats = args.formats.split(",")
    # Every input is checked before anything is written: one line naming the field, exit 2, no partial output.
    unknown = [f for f in formats if f not in ("npy", "csv", "txt")]
    if unknown:
        ap.error(f"--formats = {args.formats}: unknown format {unknown[0]!r} (npy, csv, txt)")
    if args.trials < 1:
        ap.error(f"--trials = {args.trials}: must be at least 1")
    if not (args.sigma > 0 and np.isfinite(args.sigma)):
        ap.error(f"--sigma = {args.sigma}: must be a positive finite number")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        ap.error(f"--out = {args.out}: exists and is not a directory")
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    dtype = np.float32 if args.float32 else np.float64
    worlds = {
        "with": (1.0 + args.sigma * rng.standard_normal(args.trials)).astype(dtype),   # canary included
        "without": (args.sigma * rng.standard_normal(args.trials)).astype(dtype),      # canary left out
    }
    for fmt in formats:
        for world, scores in worlds.items():
            path = os.path.join(args.out, f"{world}.{fmt}" + (".gz" if args.gzip else ""))
            opener = gzip.open if args.gzip else open
            with opener(path, "wb") as f:
                if fmt == "npy":
                    np.save(f, scores)
                elif fmt == "csv":
                    f.write(b"score\n")
                    np.savetxt(f, scores, fmt="%.17g")
                else:
                    np.savetxt(f, scores, fmt="%.17g")
            print(path)


if __name__ == "__main__":
    main()
