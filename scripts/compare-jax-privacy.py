#!/usr/bin/env python3
"""dp-audit's score-file audit beside jax_privacy's canary-score auditor, on identical score files.

For each configuration — scores of the world with the canary against scores of the world without it, Gaussian
N(1, 1) vs N(0, 1) (mu = 1) or Laplace Lap(1, 1) vs Lap(0, 1) (true epsilon 1), 10^5 or 10^6 scores per world —
and each seed, the script writes both score files as .npy (numpy's default_rng(seed)), runs

  * `./dp-audit scores --with IN.npy --without OUT.npy --deltas 0,1e-5 --seed SEED` (95%, held-out selection), and
  * jax_privacy's `CanaryScoreAuditor(in, out).epsilon_clopper_pearson(0.05, delta)` with its defaults (every threshold,
    Bonferroni over them, one-sided), imported from a checkout of github.com/google-deepmind/jax_privacy given by
    --jax-privacy (its auditing.py needs numpy and scipy; `dp_accounting`, used only by its GDP helpers, is replaced by
    an empty module when it is not installed),

and prints a Markdown table of the epsilon lower bounds: median and range over the seeds for each tool, and on how many
seeds dp-audit's bound is at least jax_privacy's. With --write it replaces the block between the jax-privacy markers
in docs/auditing-what-others-built.md.

Usage (needs the built jar, `mvn -B -q install -DskipTests`):
  python3 scripts/compare-jax-privacy.py --jax-privacy /path/to/jax_privacy [--seeds 20] [--write]
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import types

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DELTAS = (0.0, 1e-5)
BEGIN, END = "<!-- jax-privacy:begin -->", "<!-- jax-privacy:end -->"


def load_auditor(checkout):
    if importlib.util.find_spec("dp_accounting") is None:
        sys.modules["dp_accounting"] = types.ModuleType("dp_accounting")
    path = os.path.join(checkout, "jax_privacy", "auditing.py")
    spec = importlib.util.spec_from_file_location("jax_privacy_auditing", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module.CanaryScoreAuditor


def scores(kind, n, seed):
    rng = np.random.default_rng(seed)
    if kind == "gaussian":
        return rng.normal(1.0, 1.0, n), rng.normal(0.0, 1.0, n)
    return rng.laplace(1.0, 1.0, n), rng.laplace(0.0, 1.0, n)


def dp_audit(with_path, without_path, seed, out):
    proc = subprocess.run([os.path.join(ROOT, "dp-audit"), "scores", "--with", with_path, "--without", without_path,
                           "--deltas", ",".join(str(d) for d in DELTAS), "--seed", str(seed), "--quiet", "--out", out],
                          cwd=ROOT, capture_output=True, text=True)
    if proc.returncode not in (0, 3):
        sys.exit("dp-audit failed: " + proc.stderr.strip())
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    return {b["delta"]: b["epsilon"] for b in report["empirical"]["epsilonLowerBounds"]}


def jax_privacy_commit(checkout):
    """The short commit of a jax_privacy git work tree, or "unknown" when the directory is not the top of one (a git
    archive unpacked inside some other repository must not report that repository's commit)."""
    def git(*a):
        return subprocess.run(["git", *a], cwd=checkout, capture_output=True, text=True).stdout.strip()
    top = git("rev-parse", "--show-toplevel")
    if not top or os.path.realpath(top) != os.path.realpath(checkout):
        return "unknown (pass --jax-privacy-commit)"
    return git("rev-parse", "--short", "HEAD") or "unknown (pass --jax-privacy-commit)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jax-privacy", required=True, help="a checkout of google-deepmind/jax_privacy")
    parser.add_argument("--jax-privacy-commit", help="the jax_privacy commit the checkout holds, for the table's header "
                        "(read with git when the checkout is a git work tree; a `git archive` has no history)")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--write", action="store_true", help="rewrite the block in docs/auditing-what-others-built.md")
    args = parser.parse_args()
    auditor = load_auditor(args.jax_privacy)
    rows = ["| scores | per world | δ | dp-audit: median [min, max] | jax_privacy: median [min, max] "
            "| seeds where dp-audit ≥ jax_privacy |", "|---|---|---|---|---|---|"]
    for kind in ("gaussian", "laplace"):
        for n in (100_000, 1_000_000):
            ours = {d: [] for d in DELTAS}
            theirs = {d: [] for d in DELTAS}
            for seed in range(1, args.seeds + 1):
                a, b = scores(kind, n, seed)
                with tempfile.TemporaryDirectory() as tmp:
                    pa, pb = os.path.join(tmp, "in.npy"), os.path.join(tmp, "out.npy")
                    np.save(pa, a)
                    np.save(pb, b)
                    found = dp_audit(pa, pb, seed, os.path.join(tmp, "report"))
                jax = auditor(a, b)
                for d in DELTAS:
                    ours[d].append(found[d])
                    theirs[d].append(float(jax.epsilon_clopper_pearson(0.05, d)))
            for d in DELTAS:
                o, t = np.array(ours[d]), np.array(theirs[d])
                label = "N(1,1) vs N(0,1)" if kind == "gaussian" else "Lap(1,1) vs Lap(0,1)"
                row = (f"| {label} | 10^{int(round(np.log10(n)))} | {d:g} | {np.median(o):.4f} [{o.min():.4f}, "
                       f"{o.max():.4f}] | {np.median(t):.4f} [{t.min():.4f}, {t.max():.4f}] | "
                       f"{int(np.sum(o >= t))} of {len(o)} |")
                print(row, flush=True)
                rows.append(row)
    table = "\n".join(rows) + "\n"
    if args.write:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        head = args.jax_privacy_commit or jax_privacy_commit(args.jax_privacy)
        stamp = (f"Generated by `python3 scripts/compare-jax-privacy.py --seeds {args.seeds}` at commit {commit} "
                 f"(jax_privacy {head}); 95% confidence for both.\n")
        doc = os.path.join(ROOT, "docs", "auditing-what-others-built.md")
        with open(doc) as f:
            text = f.read()
        i, j = text.index(BEGIN), text.index(END)
        text = text[:i + len(BEGIN)] + "\n" + stamp + "\n" + table + text[j:]
        with open(doc + ".tmp", "w") as f:
            f.write(text)
        os.replace(doc + ".tmp", doc)


if __name__ == "__main__":
    main()
