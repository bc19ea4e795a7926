#!/usr/bin/env python3
"""Reference noise levels for the calibration sweep (CalibrationSweepTest), computed with mpmath at 60 digits.

For the Poisson-subsampled Gaussian (sampling rate q, noise standard deviation sigma, sensitivity 1, mu = 1/sigma)
the privacy profile is the larger of its two hockey-stick divergences, each a sum of normal tails at the threshold
where the privacy loss crosses epsilon (an explicit root, unlike dp-audit's implementation):

  remove: L(x) = log(1 - q + q e^(mu x - mu^2/2)) > eps  <=>  x > x1 = (log((e^eps - 1 + q)/q) + mu^2/2)/mu
          delta_r = (1-q) S(x1) + q S(x1 - mu) - e^eps S(x1)                 (S the normal survival function)
  add:    -L(x) > eps  <=>  x < x2 = (log((e^-eps - 1 + q)/q) + mu^2/2)/mu   (only when e^-eps > 1 - q)
          delta_a = C(x2) - e^eps ((1-q) C(x2) + q C(x2 - mu))              (C the normal cdf)

The reference sigma is the root of max(delta_r, delta_a) = delta in log sigma (bisection, 200 steps). Usage:
  python3 scripts/calibration-references.py > mechanisms/src/test/resources/calibration/poisson-gaussian-sigma.csv
"""
import mpmath as mp

mp.mp.dps = 60


def S(x):
    return mp.ncdf(-x)


def delta(eps, q, mu):
    eps, q, mu = mp.mpf(eps), mp.mpf(q), mp.mpf(mu)
    x1 = (mp.log((mp.e ** eps - 1 + q) / q) + mu ** 2 / 2) / mu
    dr = (1 - q) * S(x1) + q * S(x1 - mu) - mp.e ** eps * S(x1)
    da = mp.mpf(0)
    if mp.e ** (-eps) > 1 - q:
        x2 = (mp.log((mp.e ** (-eps) - 1 + q) / q) + mu ** 2 / 2) / mu
        da = mp.ncdf(x2) - mp.e ** eps * ((1 - q) * mp.ncdf(x2) + q * mp.ncdf(x2 - mu))
    return max(dr, da, mp.mpf(0))


def sigma_for(eps, d, q):
    lo, hi = mp.mpf("1e-6"), mp.mpf("1e6")   # delta decreases in sigma
    d = mp.mpf(d)
    for _ in range(200):
        mid = mp.sqrt(lo * hi)
        if delta(eps, q, 1 / mid) > d:
            lo = mid
        else:
            hi = mid
    return hi


print("q,epsilon,delta,sigma")
for q in ("1", "0.5", "0.01", "1e-6"):
    for d in ("1e-5", "1e-15"):
        for eps in ("0.1", "1", "10", "50", "100", "300", "700", "709", "710", "1000"):
            s = sigma_for(eps, d, q)
            if mp.mpf("1e-5") < s < mp.mpf("1e5"):
                print(f"{q},{eps},{d},{mp.nstr(s, 25)}")
