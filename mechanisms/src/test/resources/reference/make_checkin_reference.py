"""Recipe for checkin_reference.json (python3 make_checkin_reference.py > checkin_reference.json).

Exact privacy curves of random check-ins (seed 004), written independently of dp-audit's Java code, in mpmath at 50
significant digits (mpmath 1.3, Python 3.11). Two independent routes:

1. Brute force (small n, m): every check-in configuration is enumerated (each client out with probability 1 - p0, or
   at each slot of its window with probability p0/m); given a configuration, each served slot's release is
   randomized response on a uniformly chosen occupant's bit (or the dummy's), independently across slots. The law of
   the FULL vector of served releases (2^|S| outcomes) is accumulated, and delta(eps) is computed on it: this checks
   the Java code's claim that the number of ones in the target's window is sufficient, as well as its law. Averaged
   updates: the full view is each slot's (count, ones); enumerated the same way.
2. Closed form (larger n, m, canonical dataset): U ~ Bernoulli(s) with s = (m/n)(1 - (1 - p0/m)^n) (sliding window:
   (w/m)(1 - (1 - p0/m)^m)), and the law of K by direct convolution of Binomial(U, p1) and Binomial(m - U, q1), not by
   the forced-ones decomposition the Java code uses.

delta(eps) = max over the two directions of sum (P - e^eps Q)_+.
"""
import itertools
import json
import mpmath as mp

mp.mp.dps = 50


def hockey(P, Q, eps):
    e = mp.e ** eps
    rem = sum((a - e * b) for a, b in zip(P, Q) if a > e * b)
    add = sum((b - e * a) for a, b in zip(P, Q) if b > e * a)
    return max(rem, add)


def rr_probs(eps0):
    p1 = mp.e ** eps0 / (1 + mp.e ** eps0)
    return p1, 1 - p1


def brute_force(n, m, p0, eps0, high_others, dummy_high, sliding=False, target=1):
    """Law of the full vector of served releases in D (target holds 1) and D' (target holds 0).

    Clients are 1..n; the target is client `target`; the first `high_others` other clients hold 1."""
    p1, q1 = rr_probs(eps0)
    p0 = mp.mpf(p0)
    values = {}
    h = 0
    for c in range(1, n + 1):
        if c == target:
            continue
        values[c] = 1 if h < high_others else 0
        if h < high_others:
            h += 1
    served = list(range(m, n + 1)) if sliding else list(range(1, m + 1))
    windows = {c: (list(range(c, c + m)) if sliding else list(range(1, m + 1))) for c in range(1, n + 1)}
    laws = {}
    for world, tv in (("D", 1), ("Dp", 0)):
        vals = dict(values)
        vals[target] = tv
        law = [mp.mpf(0)] * (2 ** len(served))
        choices = [[None] + windows[c] for c in range(1, n + 1)]
        for config in itertools.product(*choices):
            w = mp.mpf(1)
            for c, slot in zip(range(1, n + 1), config):
                w *= (1 - p0) if slot is None else p0 / m
            # per served slot: probability that its release input is 1
            p_high = []
            for s in served:
                occ = [c for c, slot in zip(range(1, n + 1), config) if slot == s]
                if occ:
                    p_high.append(mp.mpf(sum(vals[c] for c in occ)) / len(occ))
                else:
                    p_high.append(mp.mpf(1 if dummy_high else 0))
            p_one = [ph * p1 + (1 - ph) * q1 for ph in p_high]
            for idx in range(len(law)):
                pr = w
                for i, po in enumerate(p_one):
                    pr *= po if (idx >> i) & 1 else 1 - po
                law[idx] += pr
        laws[world] = law
    return laws["D"], laws["Dp"]


def brute_force_averaged(n, m, p0, eps0):
    """Averaged updates, canonical dataset (others 0, target client 1): the view is each slot's (count, ones)."""
    p1, q1 = rr_probs(eps0)
    p0 = mp.mpf(p0)
    laws = {}
    for world, tv in (("D", 1), ("Dp", 0)):
        law = {}
        for config in itertools.product(*[[None] + list(range(1, m + 1)) for _ in range(n)]):
            w = mp.mpf(1)
            for slot in config:
                w *= (1 - p0) if slot is None else p0 / m
            # each client's report: one with probability p1 (target holding 1) or q1
            probs = [(p1 if (c == 0 and tv == 1) else q1) for c in range(n)]
            present = [c for c in range(n) if config[c] is not None]
            for bits in itertools.product([0, 1], repeat=len(present)):
                pr = w
                view = [[0, 0] for _ in range(m)]
                for c, b in zip(present, bits):
                    pr *= probs[c] if b else 1 - probs[c]
                    view[config[c] - 1][0] += 1
                    view[config[c] - 1][1] += b
                key = tuple(tuple(v) for v in view)
                law[key] = law.get(key, mp.mpf(0)) + pr
        laws[world] = law
    keys = sorted(set(laws["D"]) | set(laws["Dp"]))
    return [laws["D"].get(k, mp.mpf(0)) for k in keys], [laws["Dp"].get(k, mp.mpf(0)) for k in keys]


def closed_form(n, m, p0, eps0, sliding=False, window=None):
    p1, q1 = rr_probs(eps0)
    p0 = mp.mpf(p0)
    if sliding:
        s = mp.mpf(window) / m * (1 - (1 - p0 / m) ** m)
        w = window
    else:
        s = mp.mpf(m) / n * (1 - (1 - p0 / m) ** n)
        w = m
    base = [mp.binomial(w, k) * q1 ** k * (1 - q1) ** (w - k) for k in range(w + 1)]
    # U = 1: one release Bernoulli(p1), w - 1 Bernoulli(q1)
    rest = [mp.binomial(w - 1, k) * q1 ** k * (1 - q1) ** (w - 1 - k) for k in range(w)]
    one = [(p1 * (rest[k - 1] if k >= 1 else 0) + (1 - p1) * (rest[k] if k < w else 0)) for k in range(w + 1)]
    P = [(1 - s) * b + s * o for b, o in zip(base, one)]
    return P, base, s


EPS = [0.0, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0]


def curve(P, Q):
    return [mp.nstr(hockey(P, Q, e), 30) for e in EPS]


cases = []
# Brute force, fixed window: (n, m, p0, eps0, high_others, dummy_high)
for (n, m, p0, eps0, h, d) in [(3, 2, "0.5", 1.0, 0, False), (4, 3, "1", 2.0, 0, False), (4, 3, "1", 2.0, 1, False),
                               (4, 3, "1", 2.0, 0, True), (5, 2, "0.3", 3.0, 1, False), (5, 3, "0.7", 1.5, 2, True),
                               (6, 2, "1", 4.0, 0, True), (2, 4, "0.9", 2.5, 1, False)]:
    P, Q = brute_force(n, m, p0, eps0, h, d)
    cases.append({"type": "random-checkin", "route": "brute-force", "clients": n, "slots": m, "p0": float(p0),
                  "eps0": eps0, "highOthers": h, "dummyHigh": d, "epsilons": EPS, "deltas": curve(P, Q)})
# Brute force, sliding windows (canonical): (n, m, p0, eps0, target client)
for (n, m, p0, eps0, t) in [(5, 2, "0.8", 2.0, 2), (5, 2, "0.8", 2.0, 1), (6, 3, "1", 1.5, 3), (6, 3, "0.5", 3.0, 1)]:
    P, Q = brute_force(n, m, p0, eps0, 0, False, sliding=True, target=t)
    cases.append({"type": "random-checkin-sliding", "route": "brute-force", "clients": n, "slots": m,
                  "p0": float(p0), "eps0": eps0, "target": "interior" if t == m else "edge", "epsilons": EPS,
                  "deltas": curve(P, Q)})
# Brute force, averaged updates: (n, m, p0, eps0)
for (n, m, p0, eps0) in [(3, 2, "0.6", 2.0), (4, 2, "1", 1.0), (4, 3, "0.5", 3.0)]:
    P, Q = brute_force_averaged(n, m, p0, eps0)
    cases.append({"type": "random-checkin-averaged", "route": "brute-force", "clients": n, "slots": m,
                  "p0": float(p0), "eps0": eps0, "epsilons": EPS, "deltas": curve(P, Q)})
# Closed form, canonical dataset, larger sizes
for (n, m, p0, eps0) in [(1000, 1000, "1", 1.0), (10000, 1000, "0.2", 2.0), (100, 5000, "1", 4.0),
                         (20000, 2000, "0.05", 0.5)]:
    P, Q, s = closed_form(n, m, p0, eps0)
    cases.append({"type": "random-checkin", "route": "closed-form", "clients": n, "slots": m, "p0": float(p0),
                  "eps0": eps0, "highOthers": 0, "dummyHigh": False, "selection": mp.nstr(s, 30), "epsilons": EPS,
                  "deltas": curve(P, Q)})
for (n, m, p0, eps0, t) in [(3000, 1000, "0.5", 2.0, "interior"), (3000, 1000, "0.5", 2.0, "edge")]:
    w = m if t == "interior" else 1
    P, Q, s = closed_form(n, m, p0, eps0, sliding=True, window=w)
    cases.append({"type": "random-checkin-sliding", "route": "closed-form", "clients": n, "slots": m,
                  "p0": float(p0), "eps0": eps0, "target": t, "selection": mp.nstr(s, 30), "epsilons": EPS,
                  "deltas": curve(P, Q)})

print(json.dumps({"generator": "make_checkin_reference.py (mpmath 1.3, 50 digits)", "cases": cases}, indent=1))
