"""Recipe for clopper_pearson_reference.json (python3 make_clopper_pearson_reference.py > clopper_pearson_reference.json).

One-sided Clopper-Pearson bounds from their definition, in mpmath at 40 digits (mpmath 1.3): the upper bound p_U
solves P(Binomial(n, p) <= k) = a and the lower bound p_L solves P(Binomial(n, p) >= k) = a, the binomial tail summed
term by term and the root found by 200 bisections. Independent of commons-math3's regularized beta function.
"""
import mpmath as mp, json
mp.mp.dps = 40
def cdf_le(n, p, k):  # P(Bin(n,p) <= k)
    p = mp.mpf(p); q = 1 - p
    term = q ** n; s = term
    for i in range(1, k + 1):
        term = term * (n - i + 1) / i * p / q
        s += term
    return s
def upper(k, n, a):  # p with P(X <= k) = a
    lo, hi = mp.mpf(0), mp.mpf(min(1, (k + 50 + 10 * mp.sqrt(k + 1)) / n))
    for _ in range(200):
        mid = (lo + hi) / 2
        if cdf_le(n, mid, k) > a: lo = mid
        else: hi = mid
    return (lo + hi) / 2
def lower(k, n, a):  # p with P(X >= k) = a  <=> P(X <= k-1) = 1 - a
    lo, hi = mp.mpf(0), mp.mpf(min(1, (k + 50 + 10 * mp.sqrt(k + 1)) / n))
    for _ in range(200):
        mid = (lo + hi) / 2
        if cdf_le(n, mid, k - 1) > 1 - a: lo = mid
        else: hi = mid
    return (lo + hi) / 2
rows = []
for n in [10**6, 10**9, 10**10]:
    for k in [0, 1, 10, 100, 1000]:
        for a in [0.025, 1e-6]:
            r = {"n": n, "k": k, "a": a, "upper": float(upper(k, n, mp.mpf(a)))}
            if k >= 1:
                r["lower"] = float(lower(k, n, mp.mpf(a)))
            rows.append(r)
print(json.dumps(rows, indent=0))
