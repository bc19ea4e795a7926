"""Recipe for random_participation_reference.json (python3 make_random_participation_reference.py > ...).

An implementation of seed 000's bounds and of the exact profiles of its three adversary configurations, written
independently of dp-audit's Java code (numpy 2.4, scipy 1.17, Python 3.11):
- Theorem 4.1 (Eqs. 5-7): Eq. 7 solved by scanning log(first term) - log(second term) on a grid and brentq;
- WCS (Thm 5.2), OLS (Thm 5.1, corrected), CS (Cor 5.3, corrected to rate pq), OLS as printed;
- exact profiles: 1-D mixtures (aligned, zero) by locating all sign changes of p - e^eps q on a 40001-point grid and
  summing normal CDF differences; orthogonal by the closed-form inner integral and a 6001-point trapezoid in v;
- a direct trapezoid quadrature of the integrand of Eq. (28), for the closed form of Eq. (6).
"""
import json
import numpy as np
from scipy import stats, optimize, special
from scipy.special import logsumexp

N = stats.norm


def binw(d, q):
    return np.array([special.comb(d, i) * q ** i * (1 - q) ** (d - i) for i in range(d + 1)])


def dG(eps, mu):
    return N.cdf(mu / 2 - eps / mu) - np.exp(eps) * N.cdf(-mu / 2 - eps / mu)


def consts(eps, p, q):
    ep = np.log1p(np.expm1(eps) / (p * q)); a = np.exp(ep); beta = np.exp(eps - ep)
    c1 = (1 - beta) * (1 - p) / (1 - p * q); c2 = p * (1 - q) / (1 - p * q) * (1 - beta) + beta
    return a, c1, c2


def thm41(eps, p, q, d, C=1.0, s=1.0):
    a, c1, c2 = consts(eps, p, q)
    w = binw(d, q); i = np.arange(d + 1); keep = w > 1e-40; w = w[keep]; i = i[keep]; lw = np.log(w)

    def g(z):
        lp = logsumexp(lw + N.logpdf(z, (i + 1) * C, s))
        lq = np.logaddexp(np.log(a * c2) + logsumexp(lw + N.logpdf(z, i * C, s)), np.log(a * c1) + N.logpdf(z, 0, s))
        return lp - lq
    hi = (i.max() + 1) * C + 40 * s + s * s * max(0.0, np.log(a * (c1 + c2))) / C
    zs = np.linspace(-40 * s, hi, 20001); gv = np.array([g(z) for z in zs])
    idx = np.where((gv[:-1] <= 0) & (gv[1:] > 0))[0]
    z = optimize.brentq(g, zs[idx[-1]], zs[idx[-1] + 1], xtol=1e-14)
    sf = lambda m: N.sf(z, m, s)
    return p * q * (np.sum(w * (sf((i + 1) * C) - a * c2 * sf(i * C))) - a * c1 * sf(0))


def eq28_quadrature(eps, p, q, d, C=1.0, s=1.0):
    a, c1, c2 = consts(eps, p, q)
    w = binw(d, q); i = np.arange(d + 1)
    z = np.linspace(-30 * s, (d + 1) * C + 30 * s, 400001)
    f = (w[None, :] * (N.pdf(z[:, None], (i + 1) * C, s) - a * c2 * N.pdf(z[:, None], i * C, s))).sum(1) \
        - a * c1 * N.pdf(z, 0, s)
    return p * q * np.trapezoid(np.maximum(f, 0), z)


def wcs(eps, p, q, C=1.0, s=1.0):
    ep = np.log1p(np.expm1(eps) / (p * q)); beta = np.exp(eps - ep)
    return p * q * dG(ep + np.log(beta + (1 - beta) * p * (1 - q) / (1 - p * q)), C / s)


def ols(eps, q, C=1.0, s=1.0):
    return q * dG(np.log1p(np.expm1(eps) / q), C / s)


def ols_printed(eps, q, C=1.0, s=1.0):
    return q * dG(1 + np.log(np.expm1(eps) / q), C / s)


def hs1d(wp, mp, wq, mq, eps, lo, hi, s):
    g = lambda y: np.sum(wp * N.pdf(y, mp, s)) - np.exp(eps) * np.sum(wq * N.pdf(y, mq, s))
    ys = np.linspace(lo, hi, 40001); gv = np.array([g(y) for y in ys])
    roots = [optimize.brentq(g, ys[k], ys[k + 1]) for k in range(len(ys) - 1) if (gv[k] > 0) != (gv[k + 1] > 0)]
    pts = [-np.inf] + roots + [np.inf]; val = 0.0
    for k in range(len(pts) - 1):
        A, B = pts[k], pts[k + 1]
        mid = (max(A, lo) + min(B, hi)) / 2
        if g(mid) > 0:
            val += np.sum(wp * (N.cdf(B, mp, s) - N.cdf(A, mp, s))) - np.exp(eps) * np.sum(wq * (N.cdf(B, mq, s) - N.cdf(A, mq, s)))
    return val


def exact_aligned(eps, p, q, d, C=1.0, s=1.0):
    w = binw(d, q); i = np.arange(d + 1)
    wp = np.concatenate([[1 - p], p * w * (1 - q), p * w * q]); mp = np.concatenate([[0], i * C, (i + 1) * C])
    wq = np.concatenate([[1 - p], p * w]); mq = np.concatenate([[0], i * C])
    lo, hi = -12 * s, (d + 1) * C + 12 * s
    return max(hs1d(wp, mp, wq, mq, eps, lo, hi, s), hs1d(wq, mq, wp, mp, eps, lo, hi, s))


def exact_orth(eps, p, q, d, C=1.0, s=1.0):
    w = binw(d, q); i = np.arange(d + 1); mu = C / s
    yv = np.linspace(-12 * s, d * C + 12 * s, 6001); h = yv[1] - yv[0]
    mix = (w[None, :] * N.pdf(yv[:, None], i[None, :] * C, s)).sum(1)
    A = (1 - p) * N.pdf(yv, 0, s) + p * (1 - q) * mix; B = p * q * mix; G = (1 - p) * N.pdf(yv, 0, s) + p * mix
    e = np.exp(eps)
    with np.errstate(all='ignore'):
        a = A - e * G; t = (np.log(-a / B) + mu * mu / 2) / mu
        r = np.where(a >= 0, a + B, a * N.sf(t) + B * N.sf(t - mu))
        a2 = G - e * A; t2 = (np.log(a2 / (e * B)) + mu * mu / 2) / mu
        ad = np.where(a2 <= 0, 0.0, a2 * N.cdf(t2) - e * B * N.cdf(t2 - mu))
    return max(np.trapezoid(np.nan_to_num(r), dx=h), np.trapezoid(np.nan_to_num(ad), dx=h))


rows = []
for (p, q, d, s) in [(0.1, 0.1, 1, 1.0), (0.1, 0.1, 10, 1.0), (0.1, 0.1, 100, 1.0), (0.001, 0.1, 30, 2.0), (0.3, 0.5, 5, 0.7)]:
    for eps in [0.05, 0.2, 0.8]:
        rows.append({"p": p, "q": q, "d": d, "sigma": s, "epsilon": eps,
                     "thm41": thm41(eps, p, q, d, 1.0, s), "eq28": eq28_quadrature(eps, p, q, d, 1.0, s),
                     "wcs": wcs(eps, p, q, 1.0, s), "ols": ols(eps, q, 1.0, s), "cs": ols(eps, p * q, 1.0, s),
                     "olsPrinted": ols_printed(eps, q, 1.0, s),
                     "exactAligned": exact_aligned(eps, p, q, d, 1.0, s), "exactOrthogonal": exact_orth(eps, p, q, d, 1.0, s)})
print(json.dumps({"rows": rows}, indent=1))
