"""What a given AUROC allows: the range of AUPR, AP and AUPRG at a fixed AUROC and class skew.

Mihelich, Castagnos and Dognin (ICML 2024, "Interplay of ROC and Precision-Recall AUCs:
Theoretical Limits and Practical Implications in Binary Classification") bound the AUPR of a
ranking by its AUROC and the positive rate pi, and use the bound to tell when a higher AUROC
of one model forces a higher AUPR. The bounds here are derived and verified in this project
(``tests/stats/test_auroc_bounds.py``; ``docs/analysis.md``, "What a given AUROC allows").

Finite sample, no tied scores. A ranking of ``P`` positives and ``N`` negatives is the
non-decreasing sequence ``m_1 <= ... <= m_P`` (``m_k`` = negatives ranked above the k-th
positive, ``0 <= m_k <= N``); its AUROC is ``1 - M / (P N)`` with ``M = sum_k m_k`` the number
of mis-ordered pairs. Every metric here is a sum of one term per positive that depends only on
``(k, m_k)``, because moves over negatives add no area:

* AP (``prspace.metrics.average_precision``): ``phi_k(m) = k / (k + m) / P``;
* AUPR, Davis-Goadrich interpolation (``prspace.metrics.aupr``): the exact area of the step
  from ``(k - 1, m)`` to ``(k, m)``, ``phi_k(m) = (1 - m log((k + m) / (k - 1 + m))) / P``
  (``1 / P`` when ``k - 1 + m = 0``);
* AUPRG (``prspace.metrics.auprg``): the PRG trapezoid of that step over recall gain >= 0
  (recall gain ``1 - (P/N)(P - tp)/tp``, precision gain ``1 - (P/N) fp / tp``; the step
  crossing recall gain 0 starts there, as in Flach and Kull's reference code).

So the extremes at a given ``M`` are a separable optimisation over monotone integer sequences,
solved exactly by dynamic programming over ``(k, m_k, sum so far)`` for all ``M`` at once
(:func:`exact_extremes`, cost ``O(P N * P N)``). The DP equals exhaustive enumeration of all
rankings for every ``P + N <= 12`` and every ``M`` (the test). What the extremes look like:
the maximum AP is a block of positives on top, all negatives, then the rest, with some
positives inside the negatives at one level (``m = (0^a, c^b, (c+1)^d, N^rest)``; ROC
``(0,0)->(0,t)->(c,t)->(c,s)->(1,s)->(1,1)``); the simpler conjecture with a single positive
inside the negatives fails (P=4, N=6, M=22). The minimum is not "all negatives first": it
interleaves, with gaps between positives growing down the ranking, then a pooled block of
positives.

Continuous limit (``P, N -> infinity`` at ``pi = P / (P + N)``): the ROC curve as FPR ``f(r)``
of TPR ``r``, non-decreasing in [0, 1], ``int f = 1 - AUROC``:

* AP and AUPR both tend to ``int pi r / (pi r + (1 - pi) f(r)) dr`` (convex in f). The maximum
  is the step ``f = 1[r >= AUROC]`` (checked over all extreme points, f taking at most one value
  inside (0, 1)): ``hi = 1 + (1 - pi) / pi * log(1 - pi (1 - AUROC))``; at AUROC 0 this is
  Boyd et al.'s ``aupr_min(pi)``. The minimum solves the KKT conditions: ``f = a sqrt(r) - b r``
  (``b = pi / (1 - pi)``) up to a point, then constant (the pooled block), clipped to [0, 1];
  found by a search over that family.
* AUPRG tends to ``1 - pi / (1 - pi) * int_pi^1 f(r) / r^3 dr`` (precision gain is
  ``1 - FPR / TPR``), linear in f: both extremes lie on the extreme points above. The minimum
  puts FPR ``u / (1 - pi)`` on TPR in ``[pi, 1]`` (``u = 1 - AUROC``):
  ``lo = 1 - u (1 + pi) / (2 pi (1 - pi))`` while ``u <= 1 - pi``, else the worst ranking's
  ``1 - (1 + pi) / (2 pi)``; the maximum is a 1-d search (FPR ``c`` below a TPR ``s``, 1 above).

:func:`aupr_range` uses the exact DP when ``P`` and ``N`` are whole numbers and the DP is small
(``P N (P N) <= EXACT_BUDGET``), else the continuous limit (``method`` says which). A model with
tied scores can have a non-integer ``M``; the range is then the union of the exact ranges at
``floor(M)`` and ``ceil(M)`` (tie-free rankings; tied rankings are not enumerated).

Decision rule (:func:`order_can_flip`): for two models on the same rows with AUROC ``a >= b``,
``AUPR_a - AUPR_b`` lies in ``[lo_a - hi_b, hi_a - lo_b]``; their AUPR order "can flip" (model b
can have the higher AUPR) iff ``hi_b > lo_a``; else the AUROC gap alone forces the order.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from prspace.metrics import aupr_min

__all__ = ["METRICS", "EXACT_BUDGET", "FlipBound", "contributions", "flip_rows", "exact_extremes", "continuum_range",
           "aupr_range", "range_with_method", "order_can_flip", "largest_flip_gap"]

#: The metrics bounded: ``"aupr"`` (Davis-Goadrich), ``"ap"`` (average precision), ``"auprg"``.
METRICS = ("aupr", "ap", "auprg")
#: Largest ``P * N * (P * N + 1)`` solved by the exact dynamic programme (else the continuous limit).
EXACT_BUDGET = 4.0e7
_TOL = 1e-9


def _check_metric(metric: str) -> str:
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    return metric


def contributions(metric: str, n_pos: int, n_neg: int) -> np.ndarray:
    """``phi[k - 1, m]``: what the k-th positive adds to ``metric`` when ``m`` negatives rank above it.

    A tie-free ranking with ``m_1 <= ... <= m_P`` has ``metric = sum_k phi[k - 1, m_k]`` (module
    docstring).
    """
    _check_metric(metric)
    p, n = int(n_pos), int(n_neg)
    k = np.arange(1, p + 1, dtype=np.float64)[:, None]
    m = np.arange(0, n + 1, dtype=np.float64)[None, :]
    if metric == "ap":
        return (k / (k + m)) / p
    if metric == "aupr":
        with np.errstate(divide="ignore", invalid="ignore"):
            area = 1.0 - m * np.log((k + m) / (k - 1.0 + m))
        area = np.where(m == 0, 1.0, area)
        return area / p
    # AUPRG: the PRG trapezoid of the step (k - 1, m) -> (k, m) over recall gain >= 0
    r = p / n
    tpa, tpb = k - 1.0, k
    with np.errstate(divide="ignore", invalid="ignore"):
        rga = np.where(tpa > 0, 1.0 - r * (p - tpa) / np.where(tpa > 0, tpa, 1.0), -np.inf)
        rgb = 1.0 - r * (p - tpb) / tpb
        pga = 1.0 - r * m / np.where(tpa > 0, tpa, 1.0)
        pgb = 1.0 - r * m / tpb
    tp_star = p * p / (p + n)
    pg_star = 1.0 - r * m / tp_star
    start_rg = np.where(rga >= 0, rga, 0.0)
    start_pg = np.where(rga >= 0, pga, pg_star)
    area = np.where(rgb > 0, (rgb - start_rg) * (start_pg + pgb) / 2.0, 0.0)
    return np.broadcast_to(area, (p, n + 1)).astype(np.float64)


@functools.lru_cache(maxsize=64)
def _exact_cached(metric: str, n_pos: int, n_neg: int) -> tuple[np.ndarray, np.ndarray]:
    phi = contributions(metric, n_pos, n_neg)
    p, n = n_pos, n_neg
    total = p * n
    out = []
    for sign in (1.0, -1.0):  # minimum, then maximum (as the minimum of -phi)
        v = np.full((n + 1, total + 1), np.inf)
        v[0, 0] = 0.0
        for kk in range(p):
            w = np.minimum.accumulate(v, axis=0)  # m_{k-1} <= m_k
            new = np.full_like(v, np.inf)
            for m in range(n + 1):
                new[m, m:] = sign * phi[kk, m] + w[m, : total + 1 - m]
            v = new
        out.append(sign * v.min(axis=0))
    lo, hi = out
    return lo, hi


def exact_extremes(n_pos: int, n_neg: int, metric: str = "aupr") -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)``: the least and greatest ``metric`` over tie-free rankings, for ``M = 0 .. P N``.

    ``lo[M]`` / ``hi[M]`` belong to AUROC ``1 - M / (P N)``; exact (dynamic programme over the
    monotone sequence ``m_k``; module docstring). Raises ``ValueError`` if the programme is
    larger than :data:`EXACT_BUDGET` allows.
    """
    _check_metric(metric)
    p, n = int(n_pos), int(n_neg)
    if p < 1 or n < 1 or p != n_pos or n != n_neg:
        raise ValueError(f"n_pos and n_neg must be whole numbers >= 1, got {n_pos!r} and {n_neg!r}")
    if p * n * (p * n + 1) > EXACT_BUDGET:
        raise ValueError(f"the exact programme for n_pos={p}, n_neg={n} is too large; use the continuous limit")
    lo, hi = _exact_cached(metric, p, n)
    return lo.copy(), hi.copy()


# ---------------------------------------------------------------------------------------------
# continuous limit
# ---------------------------------------------------------------------------------------------

def _pr_block(pi: float, c: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``int_a^b pi r / (pi r + (1 - pi) c) dr`` for constant FPR ``c`` (arrays broadcast)."""
    q = (1.0 - pi) * c
    with np.errstate(divide="ignore", invalid="ignore"):
        val = (b - a) - (q / pi) * np.log((pi * b + q) / (pi * a + q))
    return np.where((q <= 0) | (b <= a), b - a, val)


def _inv_sq(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``int_a^b r^-3 dr``."""
    return 0.5 * (1.0 / a**2 - 1.0 / b**2)


def _extreme_points(u: float, n: int = 401) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The monotone FPR functions ``f = c 1[t <= r < s] + 1[r >= s]`` with ``int f = u``, on a grid."""
    s = np.linspace(1.0 - u, 1.0, n)[:, None]
    frac = np.linspace(0.0, 1.0, n)[None, :]
    t = frac * np.minimum(s, 1.0 - u)  # c = (u - (1 - s)) / (s - t) <= 1  <=>  t <= 1 - u
    width = s - t
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(width > 0, (u - (1.0 - s)) / width, 0.0)
    c = np.clip(c, 0.0, 1.0)
    return np.broadcast_to(t, c.shape).ravel(), np.broadcast_to(s, c.shape).ravel(), c.ravel()


def _auprg_extreme_values(pi: float, u: float) -> np.ndarray:
    """AUPRG (continuum) of every extreme point on the grid of :func:`_extreme_points` (the tests' oracle)."""
    t, s, c = _extreme_points(u)
    lo_t, lo_s = np.maximum(t, pi), np.maximum(s, pi)
    integral = c * _inv_sq(lo_t, lo_s) + _inv_sq(lo_s, np.ones_like(lo_s))
    return 1.0 - pi / (1.0 - pi) * integral


def _auprg_hi(pi: float, u: float) -> float:
    """Greatest continuum AUPRG: over ``f = c 1[r < s] + 1[r >= s]``, ``c = (u - (1 - s)) / s`` (the
    extreme points with ``t = 0``, where the grid search puts every maximum), searched on a grid
    in ``s`` refined once around the best cell."""
    if u <= 0:
        return 1.0
    a, b = 1.0 - u, 1.0
    best = -np.inf
    for _ in range(3):
        s = np.linspace(a, b, 2049)
        c = np.clip((u - (1.0 - s)) / np.maximum(s, 1e-300), 0.0, 1.0)
        hi_s = np.maximum(s, pi)
        v = 1.0 - pi / (1.0 - pi) * (c * _inv_sq(np.full_like(s, pi), hi_s) + _inv_sq(hi_s, np.ones_like(s)))
        i = int(np.argmax(v))
        best = max(best, float(v[i]))
        step = (b - a) / 2048
        a, b = max(1.0 - u, s[i] - step), min(1.0, s[i] + step)
    return best


def _auprg_lo(pi: float, u: float) -> float:
    """Least continuum AUPRG, closed form: FPR ``u / (1 - pi)`` on ``[pi, 1]``, or the worst ranking once
    ``u > 1 - pi``. Proof: FPR below TPR ``pi`` costs nothing and the weight ``r^-3`` falls, so a
    non-decreasing f does most harm when constant on ``[pi, 1]`` (Chebyshev's sum inequality)."""
    if u >= 1.0 - pi:
        return 1.0 - (1.0 + pi) / (2.0 * pi)
    return 1.0 - u * (1.0 + pi) / (2.0 * pi * (1.0 - pi))


@functools.lru_cache(maxsize=4096)
def _pr_min_continuum(pi: float, u: float, n_grid: int = 2000, n_rho: int = 200) -> float:
    """Least ``int pi r / (pi r + (1 - pi) f)`` over monotone f with ``int f = u`` (KKT family)."""
    if u <= 0:
        return 1.0
    if u >= 1:
        return float(aupr_min(pi))
    r = (np.arange(n_grid) + 0.5) / n_grid
    b = pi / (1.0 - pi)
    rho = np.linspace(1.0 / n_rho, 1.0, n_rho)[:, None]
    rr = np.minimum(r[None, :], rho)
    base = np.sqrt(rr)
    lo_a, hi_a = np.zeros((n_rho, 1)), np.full((n_rho, 1), 1.0 + b + 1.0 / math.sqrt(1.0 / n_rho) + 10.0)
    for _ in range(60):  # int f increases with a: bisection for int f = u
        a = 0.5 * (lo_a + hi_a)
        f = np.clip(a * base - b * rr, 0.0, 1.0)
        big = f.mean(axis=1, keepdims=True) > u
        hi_a = np.where(big, a, hi_a)
        lo_a = np.where(big, lo_a, a)
    f = np.clip(hi_a * base - b * rr, 0.0, 1.0)
    ok = np.abs(f.mean(axis=1) - u) < 1e-6
    vals = (pi * r / (pi * r + (1.0 - pi) * f)).mean(axis=1)
    return float(vals[ok].min()) if ok.any() else float("nan")


def continuum_range(auroc: float, pi: float, metric: str = "aupr") -> tuple[float, float]:
    """``(lo, hi)`` of ``metric`` at ``auroc`` in the continuous limit at positive rate ``pi``.

    AP and AUPR share the limit; ``hi = 1 + (1 - pi) / pi log(1 - pi (1 - auroc))`` in closed
    form; the other three values are searches over the families of the module docstring.
    """
    _check_metric(metric)
    if not 0 < pi < 1:
        raise ValueError(f"pi must lie strictly between 0 and 1, got {pi!r}")
    a = float(np.clip(auroc, 0.0, 1.0))
    u = 1.0 - a
    if metric == "auprg":
        return (1.0, 1.0) if u <= 0 else (_auprg_lo(pi, u), _auprg_hi(pi, u))
    hi = _continuum_hi(a, pi, metric)
    return min(_pr_min_continuum(round(pi, 15), round(u, 15)), hi), hi


def _continuum_hi(auroc: float, pi: float, metric: str) -> float:
    u = 1.0 - auroc
    if metric == "auprg":
        return _auprg_hi(pi, u)
    return 1.0 + (1.0 - pi) / pi * math.log(1.0 - pi * u)


def _whole(x: float) -> int | None:
    r = round(float(x))
    return r if abs(float(x) - r) <= 1e-9 * max(1.0, abs(float(x))) and r >= 1 else None


def _exact_ok(n_pos: float, n_neg: float) -> tuple[int, int] | None:
    p, n = _whole(n_pos), _whole(n_neg)
    if p is None or n is None or p * n * (p * n + 1) > EXACT_BUDGET:
        return None
    return p, n


def _check_counts(auroc: float, n_pos: float, n_neg: float) -> None:
    if not (np.isfinite(auroc) and -_TOL <= auroc <= 1 + _TOL):
        raise ValueError(f"auroc must lie in [0, 1], got {auroc!r}")
    if not (n_pos > 0 and n_neg > 0):
        raise ValueError(f"n_pos and n_neg must be positive, got {n_pos!r} and {n_neg!r}")


def range_with_method(auroc: float, n_pos: float, n_neg: float, metric: str, method: str = "auto"
                      ) -> tuple[float, float, str]:
    """:func:`aupr_range` and how it was computed: ``(lo, hi, "exact" | "continuum")``."""
    _check_metric(metric)
    _check_counts(auroc, n_pos, n_neg)
    if method not in ("auto", "exact", "continuum"):
        raise ValueError(f"method must be 'auto', 'exact' or 'continuum', got {method!r}")
    pn = _exact_ok(n_pos, n_neg) if method != "continuum" else None
    if method == "exact" and pn is None:
        raise ValueError(f"no exact range for n_pos={n_pos!r}, n_neg={n_neg!r} (not whole, or too large)")
    if pn is None:
        lo, hi = continuum_range(auroc, n_pos / (n_pos + n_neg), metric)
        return lo, hi, "continuum"
    p, n = pn
    lo_t, hi_t = _exact_cached(metric, p, n)
    mis = (1.0 - float(np.clip(auroc, 0.0, 1.0))) * p * n
    near = round(mis)
    ms = [near] if abs(mis - near) <= 1e-7 * max(1.0, mis) else [math.floor(mis), math.ceil(mis)]
    return float(min(lo_t[m] for m in ms)), float(max(hi_t[m] for m in ms)), "exact"


def aupr_range(auroc: float, n_pos: float, n_neg: float, *, metric: str = "aupr", method: str = "auto"
               ) -> tuple[float, float]:
    """``(lo, hi)``: the least and greatest ``metric`` (``"aupr"``, ``"ap"``, ``"auprg"``) of a ranking of
    ``n_pos`` positives and ``n_neg`` negatives whose AUROC is ``auroc``.

    ``method="auto"``: exact (:func:`exact_extremes`) for whole counts with a small programme,
    else the continuous limit at ``pi = n_pos / (n_pos + n_neg)`` (:func:`continuum_range`).
    """
    lo, hi, _ = range_with_method(auroc, n_pos, n_neg, metric, method)
    return lo, hi


@dataclasses.dataclass(frozen=True)
class FlipBound:
    """The answer of :func:`order_can_flip` for models a and b on the same rows."""

    can_flip: bool
    diff_lo: float  #: least possible ``metric_a - metric_b`` given the two AUROCs
    diff_hi: float  #: greatest possible ``metric_a - metric_b``
    range_a: tuple[float, float]
    range_b: tuple[float, float]
    method: str


def order_can_flip(auroc_a: float, auroc_b: float, n_pos: float, n_neg: float, metric: str = "aupr", *,
                   method: str = "auto") -> FlipBound:
    """Can model b have the higher ``metric`` although model a has the higher AUROC?

    With ``(lo_a, hi_a)`` and ``(lo_b, hi_b)`` from :func:`aupr_range`, ``metric_a - metric_b``
    lies in ``[lo_a - hi_b, hi_a - lo_b]`` and the order can flip iff ``hi_b > lo_a`` (strictly;
    ``lo_a - hi_b < 0``). Symmetric use: pass the higher-AUROC model as ``a``.
    """
    lo_a, hi_a, meth = range_with_method(auroc_a, n_pos, n_neg, metric, method)
    lo_b, hi_b, _ = range_with_method(auroc_b, n_pos, n_neg, metric, method)
    return FlipBound(bool(hi_b > lo_a + 1e-12), lo_a - hi_b, hi_a - lo_b, (lo_a, hi_a), (lo_b, hi_b), meth)


def largest_flip_gap(auroc_a: float, n_pos: float, n_neg: float, metric: str = "aupr", *,
                     method: str = "auto", lo_a: float | None = None) -> float:
    """The largest AUROC gap ``auroc_a - auroc_b`` at which model b can still have the higher ``metric``.

    ``hi`` increases with AUROC, so this is ``auroc_a - inf{b : hi(b) > lo(auroc_a)}``; exact over
    the achievable AUROCs ``1 - M / (P N)`` when the exact programme is used, else by bisection.
    ``lo_a``: model a's least value if already computed (:func:`range_with_method`).
    """
    lo, _, meth = range_with_method(auroc_a, n_pos, n_neg, metric, method) if lo_a is None else (
        lo_a, None, "exact" if method != "continuum" and _exact_ok(n_pos, n_neg) else "continuum")
    lo_a = lo
    if meth == "exact":
        p, n = _exact_ok(n_pos, n_neg)  # type: ignore[misc]
        _, hi_t = _exact_cached(metric, p, n)
        ok = np.flatnonzero(hi_t > lo_a + 1e-12)  # M values whose best exceeds a's worst
        if not ok.size:
            return 0.0
        return max(0.0, float(auroc_a - (1.0 - ok.max() / (p * n))))
    pi = n_pos / (n_pos + n_neg)
    if _continuum_hi(0.0, pi, metric) > lo_a + 1e-12:
        return float(auroc_a)
    lo, hi = 0.0, float(auroc_a)  # hi(lo) <= lo_a < hi(hi) (or equality at auroc_a)
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if _continuum_hi(mid, pi, metric) > lo_a + 1e-12:
            hi = mid
        else:
            lo = mid
    return max(0.0, float(auroc_a - hi))


def flip_rows(aurocs: Sequence[float], pairs: Iterable[tuple[int, int]], n_pos: float, n_neg: float,
              metric: str = "aupr", *, every_gap: bool = True) -> list[dict[str, Any]]:
    """:func:`order_can_flip` and :func:`largest_flip_gap` of each pair ``(i, j)`` of models with AUROCs
    ``aurocs`` on the same ``n_pos`` positives and ``n_neg`` negatives (``i`` the model with the
    higher AUROC): ``diff_lo``, ``diff_hi`` (the range of ``metric_i - metric_j``), ``can_flip``
    (``hi_j > lo_i``), ``max_flip_gap``, ``method``.  Every model's range is computed once, and its
    largest flip gap once: for every pair, or (``every_gap`` False) from its first pair that can flip
    on, NaN before."""
    ranges = [range_with_method(float(a), n_pos, n_neg, metric) for a in aurocs]
    gaps: dict[int, float] = {}
    rows = []
    for i, j in pairs:
        lo_a, hi_a, method = ranges[i]
        lo_b, hi_b, _ = ranges[j]
        can = bool(hi_b > lo_a + 1e-12)
        if (can or every_gap) and i not in gaps:
            gaps[i] = largest_flip_gap(float(aurocs[i]), n_pos, n_neg, metric, lo_a=lo_a)
        rows.append({"diff_lo": lo_a - hi_b, "diff_hi": hi_a - lo_b, "can_flip": can,
                     "max_flip_gap": gaps.get(i, float("nan")), "method": method})
    return rows
