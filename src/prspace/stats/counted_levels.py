"""The level correction by counting of :mod:`prspace.stats.cluster_bootstrap`: from the positions ``u`` of the
simulated studies' truths among their inner resamples, the nominal tails whose counted miss rate is the target
(:func:`counted_tails`), the miss rates of any tails (:func:`counted_miss`) and each end's miss with the next
countable level (:func:`end_counts`). Order statistics and counts only: nothing is fitted.

:class:`DecisionPs` reads the decisions' p-values off a result's counted one-sided p-values, the same way for the
bootstrap (:class:`prspace.stats.cluster_bootstrap.Result`) and the sign-flip test
(:class:`prspace.stats.sign_flip.Result`)."""

from __future__ import annotations

import numpy as np

__all__ = ["DecisionPs", "counted_miss", "counted_tails", "end_counts"]


def counted_tails(u: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nominal tails ``(a_lo, a_hi)`` ``(K, A)`` at which the *counted* miss rates over the outer
    samples ``u`` ``(K, n)`` are the targets ``a`` ``(A,)``: ``a_lo`` the largest ``x`` with
    ``#{u < x} <= a n`` (the upper end misses above; the ``floor(a n)``-th order statistic of ``u``),
    ``a_hi`` the same for ``1 - u`` (the lower end misses below). No curve is fitted and nothing is
    extrapolated: a tail the outer samples cannot resolve (more than ``a n`` of them beyond every
    inner resample) gets ``x = 0``, an interval end at the edge of the resamples. The correction goes
    both ways: a tail that misses more often than ``a`` is widened, one that misses less is narrowed
    to its level (Beran 1987; Hall 1992 sec. 3.11, the calibrated double bootstrap)."""
    u = np.asarray(u, dtype=np.float64)
    a = np.atleast_1d(np.asarray(a, dtype=np.float64))
    K, n = u.shape
    j = np.floor(a * n).astype(np.int64)
    us = np.sort(u, axis=1)
    vs = np.sort(1.0 - u, axis=1)
    jj = np.clip(j, 0, n - 1)
    lo = np.where(j[None, :] < n, us[:, jj], 1.0)
    hi = np.where(j[None, :] < n, vs[:, jj], 1.0)
    return lo, hi


def counted_miss(u: np.ndarray, a_lo: np.ndarray, a_hi: np.ndarray) -> np.ndarray:
    """The counted miss rate (both ends) ``(K, A)`` over outer samples ``u`` ``(K, n)`` of intervals at
    nominal tails ``a_lo`` (upper end) and ``a_hi`` (lower end) ``(K, A)``."""
    return ((u[:, None, :] < a_lo[:, :, None]).mean(axis=2)
            + (u[:, None, :] > 1.0 - a_hi[:, :, None]).mean(axis=2))


def end_counts(u_cal: np.ndarray, u_count: np.ndarray, a_lo: float, a_hi: float) -> np.ndarray:
    """``[miss_below, miss_above, step_below, step_above]``: over the counting half's outer samples
    ``u_count`` ``(n,)``, the share whose truth lies below the lower end (``u > 1 - a_hi``) and above the
    upper end (``u < a_lo``) of the interval at the tails :func:`counted_tails` set on ``u_cal``, and the
    same shares one countable step narrower at that end: the tail moved to the next position of ``u_cal``
    beyond it (the next value of ``1 - u_cal`` above ``a_hi``, of ``u_cal`` above ``a_lo``; NaN where
    there is none). A tail that misses less than its target although the next countable level misses no
    more than the target could have been narrower; one whose next level misses more is as near its
    target as ``u``'s steps let it be counted."""
    nxt_lo = u_cal[u_cal > a_lo]
    nxt_hi = (1.0 - u_cal)[(1.0 - u_cal) > a_hi]
    lo2 = float(nxt_lo.min()) if nxt_lo.size else np.nan
    hi2 = float(nxt_hi.min()) if nxt_hi.size else np.nan
    return np.array([np.mean(u_count > 1.0 - a_hi), np.mean(u_count < a_lo),
                     np.mean(u_count > 1.0 - hi2) if hi2 == hi2 else np.nan,
                     np.mean(u_count < lo2) if lo2 == lo2 else np.nan])


class DecisionPs:
    """The decisions' p-values of a result whose ``tail_p(k, c)`` gives the counted one-sided p-values
    ``(p_up, p_low)`` at ``c``, each ``(1 + R,)``: pooled over the ``R`` reruns, then with each rerun left out."""

    def tail_p(self, k: int, c: float) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - the result's own
        raise NotImplementedError

    def decision_ps(self, k: int, value: float, margin: float) -> dict[str, tuple[float, np.ndarray]]:
        """The two-sided p-values of Lakens, Scheel & Isager's (2018) tests against ``value +- margin``,
        read off the counted-corrected intervals (an interval at error ``alpha`` does it exactly when
        ``p <= alpha``, up to the Monte Carlo p-value's + 1): ``diff`` (excludes ``value``), ``equiv`` (lies
        within the margin: both one-sided tests at the margin's ends), ``beyond`` (lies wholly beyond the
        margin), ``decide`` (= min(diff, equiv): any outcome but inconclusive). Each ``(pooled p, the same
        with each rerun left out)``: the second gives its MC error
        (:func:`prspace.stats.cluster_bootstrap.jackknife_se`)."""
        up_v, low_v = self.tail_p(k, value)
        up_p, low_p = self.tail_p(k, value + margin)
        up_m, low_m = self.tail_p(k, value - margin)
        diff = np.minimum(1.0, 2.0 * np.minimum(up_v, low_v))
        equiv = np.minimum(1.0, 2.0 * np.maximum(low_m, up_p))
        beyond = np.minimum(1.0, 2.0 * np.minimum(low_p, up_m))
        decide = np.minimum(diff, equiv)
        return {name: (float(x[0]), x[1:]) for name, x in
                (("diff", diff), ("equiv", equiv), ("beyond", beyond), ("decide", decide))}
