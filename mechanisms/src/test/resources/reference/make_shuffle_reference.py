"""Recipe for shuffle_reference.json (python3 make_shuffle_reference.py > shuffle_reference.json).

Exact privacy curves of shuffled protocols (seed 001), written independently of dp-audit's Java code, in mpmath at
50 significant digits (mpmath 1.3, Python 3.11). Where the Java code writes each world as a tilt of one multinomial,
this script conditions on the target's report instead:

- plain shuffling of n binary randomized-response reports, others holding the replacement bit 0:
  P_D(c) = p1 B(n-1, p0)(c-1) + (1-p1) B(n-1, p0)(c),  P_D'(c) = p0 B(n-1, p0)(c-1) + (1-p0) B(n-1, p0)(c);
- k-ary randomized response (others hold category 1, target 0 vs 1): the same conditioning on the counts of
  categories 0 and 1 among the n-1 others (a trinomial);
- dss-SGD: K ~ Binomial(m, q) (or K = qm for the fixed scheme); given K = k the target is one of the reports with
  probability k/n (n = m r), else all k reports come from others:
  P_D(k, c) = P(K = k) [ (1 - k/n) B(k, p0)(c) + (k/n) (p1 B(k-1, p0)(c-1) + (1-p1) B(k-1, p0)(c)) ].

delta(eps) = max over the two directions of sum (P - e^eps Q)_+, and eps(delta) by bisection on it (to 1e-12).
"""
import json
import mpmath as mp

mp.mp.dps = 50


def binom_pmf(n, p, c):
    if c < 0 or c > n:
        return mp.mpf(0)
    return mp.binomial(n, c) * p ** c * (1 - p) ** (n - c)


def hockey(P, Q, eps):
    e = mp.e ** eps
    rem = sum((a - e * b) for a, b in zip(P, Q) if a > e * b)
    add = sum((b - e * a) for a, b in zip(P, Q) if b > e * a)
    return max(rem, add)


def eps_at(P, Q, delta):
    if hockey(P, Q, 0) <= delta:
        return mp.mpf(0)
    lo, hi = mp.mpf(0), mp.mpf(1)
    while hockey(P, Q, hi) > delta:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if hockey(P, Q, mid) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo < mp.mpf('1e-14'):
            break
    return hi


def shuffled_rr(n, eps0):
    p1 = mp.e ** eps0 / (1 + mp.e ** eps0)
    p0 = 1 - p1
    P = [p1 * binom_pmf(n - 1, p0, c - 1) + (1 - p1) * binom_pmf(n - 1, p0, c) for c in range(n + 1)]
    Q = [p0 * binom_pmf(n - 1, p0, c - 1) + (1 - p0) * binom_pmf(n - 1, p0, c) for c in range(n + 1)]
    return P, Q


def shuffled_krr(n, k, eps0):
    t = mp.e ** eps0 / (mp.e ** eps0 + k - 1)
    o = (1 - t) / (k - 1)
    # others hold category 1: P(0) = o, P(1) = t, rest (k-2) o
    po, p1o, pr = o, t, (k - 2) * o
    base = {}
    for a in range(n):
        for b in range(n - a):
            r = n - 1 - a - b
            base[(a, b)] = mp.factorial(n - 1) / (mp.factorial(a) * mp.factorial(b) * mp.factorial(r)) \
                * po ** a * p1o ** b * pr ** r
    def world(target):  # target law over (0, 1, rest)
        out = {}
        for (a, b), w in base.items():
            for key, pr_t in (((a + 1, b), target[0]), ((a, b + 1), target[1]), ((a, b), target[2])):
                out[key] = out.get(key, mp.mpf(0)) + w * pr_t
        return out
    D = world((t, o, (k - 2) * o))
    Dp = world((o, t, (k - 2) * o))
    keys = sorted(set(D) | set(Dp))
    return [D.get(x, mp.mpf(0)) for x in keys], [Dp.get(x, mp.mpf(0)) for x in keys]


def dss(m, r, q, eps0, fixed=False):
    n = m * r
    p1 = mp.e ** eps0 / (1 + mp.e ** eps0)
    p0 = 1 - p1
    ks = [int(round(q * m))] if fixed else range(m + 1)
    P, Q = [], []
    for k in ks:
        pk = mp.mpf(1) if fixed else binom_pmf(m, mp.mpf(q), k)
        w = mp.mpf(k) / n
        for c in range(k + 1):
            base = binom_pmf(k, p0, c)
            with_t = p1 * binom_pmf(k - 1, p0, c - 1) + (1 - p1) * binom_pmf(k - 1, p0, c) if k > 0 else 0
            P.append(pk * ((1 - w) * base + w * with_t))
            Q.append(pk * base)
    return P, Q


CASES = [
    {"type": "shuffled-randomizer", "randomizer": "rr", "clients": 10, "eps0": 0.5},
    {"type": "shuffled-randomizer", "randomizer": "rr", "clients": 100, "eps0": 2.0},
    {"type": "shuffled-randomizer", "randomizer": "rr", "clients": 1000, "eps0": 4.0},
    {"type": "shuffled-randomizer", "randomizer": "krr", "symbols": 4, "clients": 30, "eps0": 2.0},
    {"type": "dss-sgd", "randomizer": "rr", "clients": 100, "records": 1, "q": 0.1, "eps0": 1.0},
    {"type": "dss-sgd", "randomizer": "rr", "clients": 200, "records": 4, "q": 0.2, "eps0": 2.0},
    {"type": "dss-sgd", "randomizer": "rr", "clients": 50, "records": 3, "q": 0.5, "eps0": 3.0},
    {"type": "dss-sgd", "randomizer": "rr", "clients": 100, "records": 2, "q": 0.3, "eps0": 1.5, "sampling": "fixed"},
]
EPSILONS = [0.0, 0.05, 0.2, 0.5, 1.0]
DELTAS = [1e-3, 1e-6]

out = []
for c in CASES:
    if c["type"] == "shuffled-randomizer":
        if c["randomizer"] == "rr":
            P, Q = shuffled_rr(c["clients"], mp.mpf(c["eps0"]))
        else:
            P, Q = shuffled_krr(c["clients"], c["symbols"], mp.mpf(c["eps0"]))
    else:
        P, Q = dss(c["clients"], c["records"], c["q"], mp.mpf(c["eps0"]), c.get("sampling") == "fixed")
    row = dict(c)
    row["deltaAtEpsilon"] = [{"epsilon": e, "delta": float(hockey(P, Q, mp.mpf(e)))} for e in EPSILONS]
    row["epsilonAtDelta"] = [{"delta": d, "epsilon": float(eps_at(P, Q, mp.mpf(d)))} for d in DELTAS]
    out.append(row)
print(json.dumps({"recipe": "make_shuffle_reference.py (mpmath 1.3, 50 digits)", "cases": out}, indent=1))
