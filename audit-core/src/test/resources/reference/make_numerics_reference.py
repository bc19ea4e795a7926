"""Recipe for numerics_reference.json (run: python3 make_numerics_reference.py > numerics_reference.json).

Independent values for dp-audit's numerics tests, computed with mpmath at 50 digits (normal CDF, log CDF,
quantiles) and scipy.special.betaincinv (Clopper-Pearson bounds, cross-checked with scipy's betainc and, for
n <= 1e5, with mpmath's betainc).
Generated with Python 3.11.7, scipy 1.17.1, mpmath 1.3.0.
"""
import json
import mpmath as mp
from scipy.special import betainc, betaincinv

mp.mp.dps = 50
out = {"normal": [], "quantile": [], "clopperPearson": []}
for x in [-40, -37.5, -30, -25, -20.5, -20, -19.5, -10, -5, -1.5, -0.1, 0, 0.3, 2, 5, 8.5, 12]:
    x = mp.mpf(x)
    cdf = mp.ncdf(x)
    out["normal"].append({"x": float(x), "cdf": float(cdf), "logCdf": float(mp.log(cdf))})
for p in ["1e-300", "1e-100", "1e-20", "1e-10", "1e-5", "0.025", "0.3", "0.5", "0.7", "0.975", "0.99999"]:
    pp = mp.mpf(float(p))  # the double the Java test passes, not the decimal string
    lp = mp.log(pp)
    lo, hi = mp.mpf(-40), mp.mpf(40)
    for _ in range(200):  # plain bisection on log Phi(z) = log p: slow but certain
        mid = (lo + hi) / 2
        if mp.log(mp.ncdf(mid)) < lp:
            lo = mid
        else:
            hi = mid
    q = (lo + hi) / 2
    out["quantile"].append({"p": float(pp), "x": float(q)})
for k, n, a in [(0, 10, 0.025), (1, 10, 0.025), (5, 10, 0.025), (10, 10, 0.025), (3, 1000000, 0.025),
                (11, 9000000, 0.025), (1117, 9000000, 0.025), (2820, 90000000, 0.025), (450, 1000, 0.001),
                (5, 1000000000, 0.0001), (499999999, 1000000000, 0.025)]:
    lo = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, a))
    hi = 1.0 if k == n else float(betaincinv(k + 1, n - k, 1 - a))
    if k > 0:  # cross-check: mpmath where it converges, scipy's betainc everywhere
        assert abs(betainc(k, n - k + 1, lo) - a) < 1e-9 * a
        if n <= 100000:
            assert abs(float(mp.betainc(k, n - k + 1, 0, lo, regularized=True)) - a) < 1e-9 * a
    out["clopperPearson"].append({"k": k, "n": n, "alpha": a, "lower": lo, "upper": hi})
print(json.dumps(out, indent=1))
