#!/usr/bin/env python3
"""High-precision references for the special functions dp-audit's statistics rest on (mpmath, 60 digits).

Writes audit-core/src/test/resources/numerics/special-functions.csv, read by SpecialFunctionAccuracyTest, which
measures commons-math3 and commons-numbers against it. Rerun after changing the points:
    python3 scripts/special-function-references.py
Columns: function, a, b, x, value (value as a decimal string with 25 significant digits).
  erfc      erfc(x)                                  (the normal tails: Phi(-z) = erfc(z/sqrt 2)/2)
  logGamma  log Gamma(x)                              (RDP accountants, binomial tables)
  regBeta   I_x(a, b), the regularized incomplete beta (Clopper-Pearson: Beta quantiles at 10^6..10^10 trials)
  regBetaComplement  1 - I_x(a, b), which the upper Clopper-Pearson bound solves for when it is small
"""
import os
import mpmath as mp

mp.mp.dps = 60


def binomial_lower_tail(n, k, x):
    """1 - I_x(k, n - k + 1) = P(Binomial(n, x) < k) for integers: the sum of the k lower terms, each by the ratio
    recurrence (positive terms: no cancellation)."""
    term = (1 - x) ** n
    total = term
    for j in range(1, k):
        term = term * (n - j + 1) / j * x / (1 - x)
        total += term
    return total


def binomial_upper_tail(n, k, x, lower):
    """I_x(k, n - k + 1) = P(Binomial(n, x) >= k): 1 - the lower sum when that is below 1/2 (at most one digit
    lost), else the terms from k upward until they no longer count (they decrease geometrically past the mean)."""
    if lower < 0.5:
        return 1 - lower
    term = mp.exp(mp.loggamma(n + 1) - mp.loggamma(k + 1) - mp.loggamma(n - k + 1) + k * mp.log(x)
                  + (n - k) * mp.log1p(-x))
    total = mp.mpf(0)
    j = k
    while term > total * mp.mpf(10) ** -40 and j <= n:
        total += term
        term = term * (n - j) / (j + 1) * x / (1 - x)
        j += 1
    return total


rows = []
for x in ["0.001", "0.1", "0.5", "1", "2", "3", "4", "6", "8", "10", "12", "15", "20", "25", "26.5"]:
    rows.append(("erfc", "", "", x, mp.erfc(mp.mpf(x))))
for x in ["0.5", "1.5", "2.5", "10", "30.25", "100", "1000.5", "1e4", "1e6", "1e8", "1e10"]:
    rows.append(("logGamma", "", "", x, mp.loggamma(mp.mpf(x))))
# Clopper-Pearson regimes: lower bound Beta(a; k, n-k+1), upper bound Beta(1-a; k+1, n-k), at x around k/n.
for n in [10**6, 10**8, 10**9, 10**10]:
    for k in [1, 10, 1000, 100000]:
        if k >= n:
            continue
        for a, b in [(k, n - k + 1), (k + 1, n - k)]:
            for f in ["0.3", "1", "3"]:
                x = mp.mpf(k) / n * mp.mpf(f)
                xs = repr(float(x))  # the double Java will parse; the reference is exact at that binary value
                c = binomial_lower_tail(a + b - 1, a, mp.mpf(float(xs)))
                rows.append(("regBeta", str(a), str(b), xs, binomial_upper_tail(a + b - 1, a, mp.mpf(float(xs)), c)))
                rows.append(("regBetaComplement", str(a), str(b), xs, c))
out = os.path.join(os.path.dirname(__file__), "..", "audit-core", "src", "test", "resources", "numerics",
                   "special-functions.csv")
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as fh:
    fh.write("function,a,b,x,value\n")
    for fn, a, b, x, v in rows:
        fh.write(f"{fn},{a},{b},{x},{mp.nstr(v, 25, min_fixed=-1, max_fixed=-1)}\n")
print(f"{len(rows)} references written to {os.path.normpath(out)}")
