"""The searches of ``prspace power`` (:mod:`prspace.audit.simulation.audit_power`), started from a normal
approximation's guess: the fewest positives (or groups) and the smallest planted difference whose simulated power
reaches the target.

Each power the searches compute is a simulation of up to ``sims`` planned test sets (the expensive step), and they
only ask whether it reaches the target.  A power is taken as ``Phi(delta / se - z)`` (``z`` the two-sided normal
quantile of the test's level, ``se`` the standard error of the difference at the planned size, ``se ~ 1 /
sqrt(size)``), with ``se`` estimated once from the data itself (:func:`size_guess`, :func:`difference_guess`): the
search starts there and gallops away from the guess (steps doubling) until the answer is bracketed, then bisects as
before.  The guess decides only where the search looks, not what it answers: every answer is still a bracket of
sizes (differences) whose simulated powers fall short of and reach the target, at the search's stated precision.

* :func:`smallest_size`: the bracket ``(lo, hi]`` of sizes narrowed to ``hi - lo <= max(1, lo // 20)`` (5%), as
  the doubling search it replaces (:func:`smallest_size` without a guess is that search: doubling from ``hi``, then
  bisection); an answer may move within that precision (its powers are estimates on different test sets at
  each size);
* :func:`smallest_on_grid`: the difference's bisection of ``(0, top]`` in ``steps`` halvings lands on the grid
  ``top j / 2^steps``; the search with a guess brackets the answer on the same grid and returns the same grid
  point wherever the simulated power rises with the difference between the two (the planted test sets are the
  same at every difference, drawn from one seed), with the bisection's own floating-point value
  (:func:`grid_value`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from prspace.stats.distributions import norm


def _ratio(diff: float, se: float, level: float, target: float) -> float:
    """``(z + z_target) se / |diff|``: the planned size's se relative to the data's at which the power is the target
    (NaN without a difference or a finite positive se)."""
    if not (math.isfinite(diff) and math.isfinite(se) and diff != 0 and se > 0):
        return float("nan")
    return float((norm.isf(level / 2) + norm.ppf(target)) * se / abs(diff))


def size_guess(diff: float, se: float, size: float, level: float, target: float) -> float:
    """The size (positives or groups) at which a difference ``diff`` whose standard error is ``se`` at ``size`` is
    detected with power ``target`` at two-sided level ``level``: ``size ((z + z_target) se / diff)^2``."""
    return size * _ratio(diff, se, level, target) ** 2


def difference_guess(se: float, level: float, target: float) -> float:
    """The difference detected with power ``target`` at two-sided level ``level`` when its standard error is ``se``:
    ``(z + z_target) se``."""
    return _ratio(1.0, se, level, target)


def smallest_size(power: Callable[[int], float], target: float, *, lo: int, hi: int, cap: int,
                  say: Callable[[int], None] | None = None, guess: float = float("nan")) -> float:
    """The smallest size whose ``power(size)`` reaches ``target``, to within 5% (``hi - lo <= max(1, lo // 20)``); NaN
    beyond ``cap``.  ``lo``: the floor, taken as not reaching (never computed).  Without a finite ``guess``: doubling
    from ``hi``, then bisection.  With one: from the guess (within ``lo + 1 .. cap``), down (steps of 5%, doubling)
    while the power reaches the target or up until it does, then bisection."""
    say = say or (lambda size: None)
    if math.isfinite(guess):
        g = int(min(cap, max(lo + 1, round(guess))))
        say(g)
        if power(g) >= target:
            hi, step = g, max(1, g // 21)  # one step down from g narrows the bracket to 5% of its lower end
            while hi - step > lo:
                say(hi - step)
                if power(hi - step) < target:
                    lo = hi - step
                    break
                hi, step = hi - step, 2 * step
        else:
            lo, step = g, max(1, g // 20)
            while True:
                if lo >= cap:
                    return float("nan")
                cand = min(lo + step, cap)
                say(cand)
                if power(cand) >= target:
                    hi = cand
                    break
                lo, step = cand, 2 * step
    else:
        say(hi)
        while power(hi) < target:
            if hi >= cap:
                return float("nan")
            lo, hi = hi, min(2 * hi, cap)  # the cap itself is tried before "more than the cap"
            say(hi)
    while hi - lo > max(1, lo // 20):
        mid = (lo + hi) // 2
        say(mid)
        lo, hi = (lo, mid) if power(mid) >= target else (mid, hi)
    return float(hi)


def grid_value(top: float, j: int, steps: int) -> float:
    """The grid point ``j`` of ``(0, top]`` (``top j / 2^steps``) as the bisection of ``(0, top]`` computes it: the
    midpoints ``0.5 (lo + hi)`` on the way to it, so the same float."""
    lo, hi, lo_j, hi_j = 0.0, top, 0, 2**steps
    while hi_j != j:
        mid_j, mid = (lo_j + hi_j) // 2, 0.5 * (lo + hi)
        if mid_j == j:
            return mid
        lo, hi, lo_j, hi_j = (lo, mid, lo_j, mid_j) if j < mid_j else (mid, hi, mid_j, hi_j)
    return hi


def smallest_on_grid(reaches: Callable[[int], bool], steps: int, guess: float = float("nan")) -> int | None:
    """The grid point ``j`` in ``1..2^steps`` that the bisection of ``(0, 2^steps]`` by ``reaches`` ends on (its
    ``hi``: ``reaches(j)`` and not ``reaches(j - 1)``, or ``j = 1``); None if ``reaches(2^steps)`` fails.  Without a
    finite ``guess`` (a grid position, float): the bisection itself, ``2^steps`` first.  With one: from the guess,
    down while it reaches (steps 1, 2, 4, ...) or up until it does (``2^steps`` last), then bisection of the
    bracket: the same point wherever ``reaches`` turns true once along the grid."""
    n = 2**steps
    if not math.isfinite(guess):
        if not reaches(n):
            return None
        lo, hi = 0, n
    else:
        j = int(min(n, max(1, round(guess))))
        if reaches(j):
            lo, hi, step = 0, j, 1
            while hi - step > 0:
                if not reaches(hi - step):
                    lo = hi - step
                    break
                hi, step = hi - step, 2 * step
        else:
            lo, step = j, 1
            while True:
                if lo >= n:
                    return None
                cand = min(lo + step, n)
                if reaches(cand):
                    hi = cand
                    break
                lo, step = cand, 2 * step
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reaches(mid) else (mid, hi)
    return hi
