#!/usr/bin/env python3
"""Writes the family contract's reference values: runner/src/test/resources/contract/TYPE.json.

Each mechanism type of the catalog gets a configuration at which its privacy curve has a closed form that needs
nothing of dp-audit's code: a degenerate one (every client selected, one step, one client, sampling probability 1)
where the family reduces to a Gaussian, randomized-response or Laplace pair, and for the Gaussian families a
non-degenerate one too. The values are computed here in double precision with the standard library only
(math.erfc for the normal tails, in the forms that avoid cancellation), so that the contract test checks every
family's bounds against an independent source: MechanismContractTest.referenceValues.

Relations: "equal" (a closed form the bound must reproduce to rtol), "upper" (an upper bound: at least the truth,
at most rtol above it), "lower" (a lower bound: at most the truth, at least rtol below it), "bracket" (the bound is the
upper end and "partner" the lower end of a numerical bracket: lower <= truth <= upper, the bracket's width being its
own statement of its resolution).

Usage: python3 scripts/contract-references.py [OUT_DIR]
"""
import json
import math
import os
import sys

EPSILONS = [0.0, 0.25, 0.5, 1.0, 2.0]


def phi_bar(x):
    """P(N(0,1) > x)."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def phi(x):
    """P(N(0,1) <= x)."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def gaussian(mu):
    """Balle & Wang (2018), Thm 8: delta(eps) of N(0,1) against N(mu,1)."""
    return lambda eps: max(0.0, phi(mu / 2 - eps / mu) - math.exp(eps) * phi(-mu / 2 - eps / mu))


def subsampled_gaussian(q, sigma):
    """Poisson-subsampled Gaussian, one round, add/remove: the larger of the two directions, by the threshold on x."""
    def delta(eps):
        # remove: P = (1-q) N(0, s^2) + q N(1, s^2) against Q = N(0, s^2); the loss rises with x
        t = sigma * sigma * math.log((math.exp(eps) - 1 + q) / q) + 0.5
        remove = (1 - q) * phi_bar(t / sigma) + q * phi_bar((t - 1) / sigma) - math.exp(eps) * phi_bar(t / sigma)
        add = 0.0
        if math.exp(-eps) > 1 - q:  # add: Q against P, on {x < t'}
            t2 = sigma * sigma * math.log((math.exp(-eps) - 1 + q) / q) + 0.5
            add = phi(t2 / sigma) - math.exp(eps) * ((1 - q) * phi(t2 / sigma) + q * phi((t2 - 1) / sigma))
        return max(0.0, remove, add)
    return delta


def binomial_sum_gaussian(n, q, s):
    """The last-iterate pair (formula sheet 16.1): sum_k Bin(k; n, q) N(k, s^2) against N(0, s^2), both directions.

    The loss log(sum_k p_k exp((2kx - k^2)/(2 s^2))) rises with x: each direction's optimal test is a threshold, found
    by bisection; the tails by erfc. (dp-audit computes the same curve in log space; this is a plain double version.)
    """
    p = [math.comb(n, k) * q ** k * (1 - q) ** (n - k) for k in range(n + 1)]

    def loss(x):
        return math.log(sum(pk * math.exp((2 * k * x - k * k) / (2 * s * s)) for k, pk in enumerate(p)))

    def root(target):
        lo, hi = -50.0 * s - 50, n + 50.0 * s + 50
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if loss(mid) < target:
                lo = mid
            else:
                hi = mid
        return 0.5 * (lo + hi)

    def delta(eps):
        x = root(eps)
        remove = sum(pk * phi_bar((x - k) / s) for k, pk in enumerate(p)) - math.exp(eps) * phi_bar(x / s)
        add = 0.0
        if -eps > math.log(p[0]):
            x2 = root(-eps)
            add = phi(x2 / s) - math.exp(eps) * sum(pk * phi((x2 - k) / s) for k, pk in enumerate(p))
        return max(0.0, remove, add)
    return delta


def randomized_response(eps0):
    """Binary randomized response with eps0: delta(eps) = (e^eps0 - e^eps) / (1 + e^eps0) below eps0."""
    return lambda eps: max(0.0, (math.exp(eps0) - math.exp(eps)) / (1 + math.exp(eps0)))


def laplace(eps0):
    """Lap(0, b) against Lap(1, b), eps0 = 1/b: delta(eps) = 1 - e^{(eps - eps0)/2} below eps0."""
    return lambda eps: max(0.0, 1 - math.exp((eps - eps0) / 2))


def entry(mechanism, bound, curve, relation, rtol, why, partner=None):
    points = []
    for e in EPSILONS:
        d = curve(e)
        if d > 1e-12:
            points.append({"epsilon": e, "delta": d})
    out = {"mechanism": mechanism, "bound": bound, "relation": relation, "rtol": rtol, "why": why,
           "points": points}
    if partner is not None:
        out["partner"] = partner
    return out


EXACT = 1e-8      # a closed form evaluated in double precision on both sides
NUMERIC = 2e-3    # an accountant's discretisation (PLD grid 1e-4), rounded on its safe side


def references():
    s15 = 1.0 / 1.5
    return {
        "gaussian": [
            entry({"type": "gaussian", "sigma": 2}, "gaussian-exact", gaussian(0.5), "equal", EXACT,
                  "Balle & Wang Thm 8, mu = 1/2"),
            entry({"type": "gaussian", "sigma": 1, "rounds": 4}, "gaussian-exact", gaussian(2.0), "equal", EXACT,
                  "four rounds compose to mu = sqrt(4)/1 = 2 (Dong, Roth & Su 2019)"),
        ],
        "poisson-subsampled-gaussian": [
            entry({"type": "poisson-subsampled-gaussian", "q": 0.1, "sigma": 1}, "poisson-subsampled-gaussian-exact",
                  subsampled_gaussian(0.1, 1.0), "equal", EXACT, "the mixture pair, both directions, one round"),
            entry({"type": "poisson-subsampled-gaussian", "q": 0.3, "sigma": 0.8}, "poisson-subsampled-gaussian-exact",
                  subsampled_gaussian(0.3, 0.8), "equal", EXACT, "the mixture pair, both directions, one round"),
            entry({"type": "poisson-subsampled-gaussian", "q": 0.1, "sigma": 1}, "pld",
                  subsampled_gaussian(0.1, 1.0), "upper", NUMERIC, "the PLD accountant against the exact pair"),
            entry({"type": "poisson-subsampled-gaussian", "q": 0.1, "sigma": 1, "view": "last-iterate"},
                  "last-iterate-exact", subsampled_gaussian(0.1, 1.0), "equal", EXACT,
                  "the last iterate of one round is the round's release"),
            entry({"type": "poisson-subsampled-gaussian", "q": 0.2, "sigma": 0.5, "rounds": 4, "view": "last-iterate"},
                  "last-iterate-exact", binomial_sum_gaussian(4, 0.2, 1.0), "equal", EXACT,
                  "four rounds summed: Binomial(4, 0.2) + N(0, 4 * 0.25) against N(0, 1)"),
        ],
        "poisson-averaged-gaussian": [
            entry({"type": "poisson-averaged-gaussian", "q": 0.1, "sigma": 1, "dimension": 16, "records": 99,
                   "divisor": "fixed"}, "poisson-subsampled-gaussian-exact", subsampled_gaussian(0.1, 1.0), "equal",
                  EXACT, "a constant divisor is post-processing of the subsampled Gaussian's mixture pair"),
            entry({"type": "poisson-averaged-gaussian", "q": 0.1, "sigma": 1, "dimension": 16, "records": 95},
                  "poisson-subsampled-gaussian-exact", subsampled_gaussian(0.1, 1.0), "equal", EXACT,
                  "int(9.5) = int(9.6) = 9: the per-dataset divisor is the same in both worlds"),
        ],
        "deterministic-batches": [
            entry({"type": "deterministic-batches", "steps": 10, "epochs": 4, "sigma": 2}, "deterministic",
                  gaussian(1.0), "equal", EXACT, "the record in one known step per epoch: mu = sqrt(E)/sigma = 1"),
        ],
        "balls-and-bins": [
            entry({"type": "balls-and-bins", "steps": 1, "epochs": 2, "sigma": 1.5}, "deterministic",
                  gaussian(math.sqrt(2) / 1.5), "equal", EXACT, "one step: mu = sqrt(E)/sigma"),
            entry({"type": "balls-and-bins", "steps": 1, "epochs": 2, "sigma": 1.5}, "allocation-pld-upper",
                  gaussian(math.sqrt(2) / 1.5), "bracket", None, "the lattice bracket at one step",
                  partner="allocation-pld-lower"),
            entry({"type": "balls-and-bins", "steps": 1, "sigma": 1.5}, "bnb-max-test", gaussian(s15), "lower",
                  NUMERIC, "one step: the max test is a threshold test, optimal for the Gaussian pair"),
            entry({"type": "balls-and-bins", "steps": 8, "epochs": 2, "sigma": 0.25, "view": "last-iterate"},
                  "last-iterate-exact", gaussian(2 / (0.25 * 4)), "equal", EXACT,
                  "the sum of 16 releases: K = E = 2 against 0, noise 0.25 * sqrt(16) = 1: mu = 2"),
        ],
        "noisy-sgd": [
            entry({"type": "noisy-sgd", "loss": "logistic", "q": 0.2, "sigma": 0.5, "steps": 4, "clip": 3.0},
                  "last-iterate-exact", binomial_sum_gaussian(4, 0.2, 1.0), "equal", EXACT,
                  "the gradient canary without projection: the model's first coordinate over eta C is Binomial(4, 0.2) "
                  "+ N(0, 4 * 0.25) against N(0, 1)"),
        ],
        "random-allocation": [
            entry({"type": "random-allocation", "steps": 1, "k": 1, "sigma": 1.5}, "deterministic", gaussian(s15),
                  "equal", EXACT, "one step, k = 1: mu = 1/sigma"),
            entry({"type": "random-allocation", "steps": 1, "k": 1, "sigma": 1.5}, "allocation-pld-upper",
                  gaussian(s15), "bracket", None, "the lattice bracket at one step", partner="allocation-pld-lower"),
            entry({"type": "random-allocation", "steps": 1, "k": 1, "sigma": 1.5}, "allocation-max-test",
                  gaussian(s15), "lower", NUMERIC,
                  "one step: the max test is a threshold test, optimal for the Gaussian pair"),
        ],
        "poisson-batches": [
            entry({"type": "poisson-batches", "steps": 1, "sigma": 1.5}, "deterministic", gaussian(s15), "equal",
                  EXACT, "one step at rate 1: mu = 1/sigma"),
            entry({"type": "poisson-batches", "steps": 1, "sigma": 1.5}, "poisson-pld", gaussian(s15), "upper",
                  NUMERIC, "the PLD accountant at rate 1"),
        ],
        "shuffled-batches": [
            entry({"type": "shuffled-batches", "steps": 1, "sigma": 1.5}, "deterministic", gaussian(s15), "equal",
                  EXACT, "one step: mu = 1/sigma"),
            entry({"type": "shuffled-batches", "steps": 1, "sigma": 1.5}, "chua24-shuffle-lower", gaussian(s15),
                  "lower", NUMERIC, "Chua et al.'s max test at one step: the Gaussian pair's own test"),
        ],
        "fixed-size-subsampled-gaussian": [
            entry({"type": "fixed-size-subsampled-gaussian", "clients": 10, "selected": 10, "sigma": 2},
                  "pair-profile(replacement)", gaussian(1.0), "equal", NUMERIC,
                  "every client selected: replace-one sensitivity 2G = 2 over noise 2, mu = 1"),
        ],
        "dp-fed": [
            entry({"type": "dp-fed", "clients": 10, "selected": 10, "sigma": 2}, "pair-profile(replacement)",
                  gaussian(1.0), "equal", NUMERIC, "every client selected: mu = 2G/nu = 1"),
        ],
        "dp-fed-ls": [
            entry({"type": "dp-fed-ls", "clients": 10, "selected": 10, "sigma": 2}, "pair-profile(replacement)",
                  gaussian(1.0), "equal", NUMERIC, "every client selected, smoothing invertible: mu = 1"),
        ],
        "random-participation": [
            entry({"type": "random-participation", "p": 1, "q": 1, "d": 0, "sigma": 2}, "exact(aligned)",
                  gaussian(0.5), "equal", EXACT, "every client and record participate: mu = clip/sigma = 1/2"),
        ],
        "random-checkin": [
            entry({"type": "random-checkin", "clients": 1, "slots": 1, "p0": 1, "eps0": 1}, "random-checkin-exact",
                  randomized_response(1.0), "equal", EXACT, "one client, one slot, always checked in: the randomizer"),
        ],
        "random-checkin-averaged": [
            entry({"type": "random-checkin-averaged", "clients": 1, "slots": 1, "p0": 1, "eps0": 1},
                  "random-checkin-averaged-exact", randomized_response(1.0), "equal", EXACT,
                  "one client, one slot, always checked in: the randomizer"),
        ],
        "random-checkin-sliding": [
            entry({"type": "random-checkin-sliding", "clients": 1, "slots": 1, "p0": 1, "eps0": 1, "target": "edge"},
                  "random-checkin-sliding-exact", randomized_response(1.0), "equal", EXACT,
                  "one client, one slot, always checked in: the randomizer"),
        ],
        "shuffled-randomizer": [
            entry({"type": "shuffled-randomizer", "clients": 1, "eps0": 1}, "shuffled-randomizer-exact",
                  randomized_response(1.0), "equal", EXACT, "one report: shuffling hides nothing"),
        ],
        "dss-sgd": [
            entry({"type": "dss-sgd", "clients": 1, "q": 1, "eps0": 1}, "dss-sgd-exact", randomized_response(1.0),
                  "equal", EXACT, "one client always joining with one record: the randomizer"),
        ],
        "prifedsync": [
            entry({"type": "prifedsync", "clients": 2, "records": 1, "batch": 1, "sigma": 1, "p": 1},
                  "prifedsync-exact", gaussian(1.0), "equal", NUMERIC,
                  "one record, one step, always synchronised: replace-one sensitivity 2C over noise 2 sigma C, mu = 1"),
        ],
        "laplace": [
            entry({"type": "laplace", "epsilon": 0.5}, "laplace-exact", laplace(0.5), "equal", EXACT,
                  "Lap(1/eps) on answers 1 apart: the Laplace pair's profile"),
        ],
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("runner", "src", "test", "resources", "contract")
    os.makedirs(out, exist_ok=True)
    for t, entries in references().items():
        with open(os.path.join(out, t + ".json"), "w") as f:
            json.dump({"type": t, "source": "scripts/contract-references.py (Python " + sys.version.split()[0]
                       + ", math.erfc)", "references": entries}, f, indent=2)
            f.write("\n")
    print("wrote", len(references()), "reference files to", out)


if __name__ == "__main__":
    main()
