"""The one decision rule that turns a claim's evidence into a verdict.

Every analysis that bears on a claim of either paper writes *evidence rows* (the schema of
:mod:`prspace.core.evidence`: columns :data:`EVIDENCE_COLUMNS`, one row per claim; build them with
:func:`evidence_row`, re-exported here); this module
and :mod:`prspace.verdicts.interval_rule` (what an interval means, the one scheme and the verdict
words, re-exported here) alone decide what a row means (:func:`decide`) and joins each row to the registry of claims
(:func:`apply_rule`: role, where, quote, paper value and margin come from
:mod:`prspace.core.claims`, never from the row). ``docs/verdicts.md`` states the same rule in
prose; tests re-derive every verdict from its own row.

Kinds of claim and their verdicts:

* ``share`` / ``correlation`` / ``quartile`` / ``equivalence``, and a primary ``direction`` claim:
  **the one scheme** (:func:`scheme_verdict`): Lakens, Scheel & Isager's (2018) four outcomes of an
  equivalence test and a difference test against a value ``v`` (the paper's number, or 0 for "as
  different as" and a claimed direction) and the margin ``m`` (the registry's
  :func:`~prspace.core.claims.decision_margin`; an exploratory row gives it as ``tolerance``). A
  primary row carries its p-values (:data:`P_COLUMNS`) and is decided by them: inconclusive when Holm's
  adjusted ``p_holm`` is above 0.05, else its tests read at ``alpha_used``; any other row by its
  interval ``[lo, hi]`` alone:

  - **equivalent** (within ``v +- m``, not excluding ``v``): ``equivalent: replicates`` /
    ``equivalent: as different, holds`` / ``equivalent: no effect larger than the margin``;
  - **different** (excludes ``v``, not within the margin): ``different: higher here`` / ``lower here``,
    the way "as different as" fails, ``different: holds`` / ``different: contradicted`` for a
    direction; **different, beyond the margin** when wholly beyond ``v +- m``;
  - **different, by less than the margin** (excludes ``v``, within the margin), with which way;
  - **inconclusive** otherwise (includes ``v``, not within the margin), with the way the estimate
    leans, the power at this study's families and the families that would decide with 80% power
    (``families_80``, and over the 95% interval ``families_80_lo`` / ``_hi``).

* ``exact``: a closed form or published table checked against computation; ``estimate`` is the
  largest absolute deviation. **exact** when it is at most ``tolerance``, else **differs**.

* ``direction`` of this project (no margin): a claimed sign (``paper_value`` +1 or -1) of an effect
  with interval. **holds** when the interval excludes 0 on the claimed side, **contradicted** on the
  other side, **cannot be told** when it contains 0.

* ``stable``: a claimed absence of effect within ``tolerance``: **holds** when the interval lies
  within ``+-tolerance``, **differs** when wholly outside, else **cannot be told**.

* ``bound``: ``k`` of ``n`` cases flagged by a calibrated check; ``estimate = k/n`` with the exact
  (Clopper-Pearson) interval, computed here, on ``n_eff`` effective cases when the cases come in
  families (:func:`effective_cases`, Korn & Graubard 1998). **beyond noise** when its lower end exceeds
  ``tolerance`` (the check's nominal false rate, 0.05); **mostly within noise** when its upper end
  is below 0.5; else **cannot be told**.

* ``test``: the p-value of a calibrated test of no difference at level ``tolerance`` (0.05):
  **differs beyond noise** when ``p < alpha``, **within noise** when ``p >= alpha``, **cannot be
  told** without a p-value; **borderline** when ``p`` lies within ``2 x mc_error`` (the p-value's
  Monte Carlo SE, from random permutations) of alpha.

* ``difference``: a difference with interval: **larger** (above 0), **smaller** (below 0), else
  **cannot be told**.

Three guards apply on top, in this order:

1. *Small populations*: a row whose interval comes from a bootstrap over fewer than
   :data:`MIN_FAMILIES` families (``n_families``) is **cannot be told: N families** (a share's
   explanation gives the exact binomial interval over its tasks).
2. *Power*: a ``bound`` or ``test`` row that would say **mostly within noise** / **within noise**
   says **cannot be told: the check has power P here** when its calibrated ``power`` is below
   :data:`MIN_POWER`; without a power the verdict stands and the explanation says power is unknown.
3. *Borderline*: when an interval end lies within ``2 x mc_error`` (:data:`BORDERLINE_MC`; the
   Monte Carlo SE of the ends) of a threshold the verdict uses (paper value, paper value +- margin,
   0, +-margin) and the verdict on the two sides of that threshold differs, the verdict is
   **borderline**; the explanation names the threshold and the two verdicts.

A row with a missing estimate or interval is **cannot be told** (its explanation says what is
missing). Nothing here reads a file: rows in, rows out.

One module of about 480 lines on purpose: every kind and every guard of the one rule in one place,
so that what a verdict means is read here and in :mod:`prspace.verdicts.interval_rule` alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from prspace.core.claims import HOLM_ALPHA, by_construction, claim, decision_margin
from prspace.core.evidence import (
    ALL_EVIDENCE_COLUMNS,
    EVIDENCE_COLUMNS,
    KINDS,
    LEVEL,
    OPTIONAL_EVIDENCE_COLUMNS,
    PAPERS,
    SCHEME_COLUMNS,
    effective_cases,
    evidence_frame,
    evidence_row,
)

# the verdict words and the scheme are re-exported: callers read them as RULE.<word>
from prspace.verdicts.interval_rule import (  # noqa: F401
    AS_DIFFERENT,
    BEYOND,
    BEYOND_NOISE,
    BORDERLINE,
    BY_LESS,
    CANNOT,
    CONTRADICTED,
    DIFFERENT,
    DIFFERS,
    EQUIVALENT,
    EXACT,
    HIGHER,
    HOLDS,
    INCONCLUSIVE,
    LARGER,
    LOWER,
    NO_EFFECT,
    NUMBER_KINDS,
    ORDER_DIFFERS,
    ORDER_WITHIN,
    OUTCOMES,
    P_COLUMNS,
    REPLICATES,
    SMALLER,
    WITHIN_NOISE,
    _f,
    _fmt,
    _interval_verdict,
    _p_mode,
    exact_share_ps,
    scheme_code,
    scheme_verdict,
)

__all__ = ["ALL_EVIDENCE_COLUMNS", "EVIDENCE_COLUMNS", "KINDS", "LEVEL", "OPTIONAL_EVIDENCE_COLUMNS", "PAPERS", "VERDICT_COLUMNS",
           "apply_rule", "clopper_pearson", "decide", "effective_cases", "evidence_frame", "evidence_row"]

#: Deviation (exact), margin (stable), false rate (bound) or level alpha (test) when a row leaves
#: ``tolerance`` empty.
DEFAULT_TOLERANCE: dict[str, float] = {"exact": 1e-9, "stable": 0.02, "bound": 0.05, "test": 0.05}
#: Fewer families than this: a cluster bootstrap's interval is not trusted (**cannot be told: N
#: families**). Below about ten clusters the bootstrap distribution of a mean takes few distinct
#: values and percentile intervals under-cover (Cameron, Gelbach & Miller 2008; MacKinnon & Webb 2017).
MIN_FAMILIES = 10
#: Below this calibrated power a check that finds nothing says **cannot be told**.
MIN_POWER = 0.5
#: An interval end within this many Monte Carlo SEs of a threshold makes the verdict borderline.
BORDERLINE_MC = 2.0
#: The margin's ends belong to it: ``0.24 + 0.10`` is 0.33999999999999997 in float64.
_EPS = 1e-12

VERDICT_COLUMNS = [
    "role", "paper", "claim_id", "claim", "where", "quote", "paper_value", "margin", "estimate", "ci_lo", "ci_hi",
    "level", "mc_error", "n_tasks", "n_families", "power", "verdict", "explanation", "kind", "tolerance", "k", "n", "n_eff",
    "mc_error_lo", "mc_error_hi", "outcome", *SCHEME_COLUMNS, "by_construction",
]


def few_families(n_families: int) -> str:
    """The verdict of a row bootstrapped over too few families."""
    n = int(n_families)
    return f"{CANNOT}: {n} {'family' if n == 1 else 'families'}"


def low_power(power: float) -> str:
    """The verdict of a check that finds nothing with too little power to find anything."""
    return f"{CANNOT}: the check has power {power:.2f} here"


def clopper_pearson(k: int, n: int, level: float = LEVEL, *, n_eff: float | None = None) -> tuple[float, float]:
    """Exact two-sided binomial interval for ``k`` of ``n`` (``scipy.stats.binomtest``); with
    ``n_eff`` (:func:`effective_cases`) the Korn-Graubard interval for cases clustered in families:
    the Clopper-Pearson beta quantiles at ``k* = n_eff k / n`` of ``n_eff``,
    ``[B(a/2; k*, n_eff - k* + 1), B(1 - a/2; k* + 1, n_eff - k*)]`` (Korn & Graubard 1998)."""
    from scipy import stats  # lazy: ~0.5 CPU s a process that never calls it
    if n <= 0:
        return float("nan"), float("nan")
    if n_eff is None or not np.isfinite(n_eff) or n_eff >= n:
        ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="exact")
        return float(ci.low), float(ci.high)
    a, ks = 1.0 - level, n_eff * k / n
    lo = 0.0 if ks <= 0 else float(stats.beta.ppf(a / 2, ks, n_eff - ks + 1))
    hi = 1.0 if ks >= n_eff else float(stats.beta.ppf(1 - a / 2, ks + 1, n_eff - ks))
    return lo, hi


def _thresholds(kind: str, row: Mapping[str, object]) -> list[tuple[str, float]]:
    pv, m, tol = _f(row, "paper_value"), _f(row, "margin"), _f(row, "tolerance")
    if kind == "direction" and np.isfinite(m):
        return [("0", 0.0), ("+margin", m), ("-margin", -m)]
    if kind in NUMBER_KINDS:
        return [("the paper's value", pv), ("paper value + margin", pv + m), ("paper value - margin", pv - m)]
    if kind == "equivalence":
        return [("0", 0.0), ("+margin", m), ("-margin", -m)]
    if kind == "stable":
        return [("+tolerance", tol), ("-tolerance", -tol)]
    return [("0", 0.0)]


#: Each p-value a primary row is decided by, with the column of its Monte Carlo error.
_P_MC = (("p_holm", "p_holm_mc"), ("p_diff", "p_diff_mc"), ("p_equiv", "p_equiv_mc"), ("p_beyond", "p_beyond_mc"))


def _close_calls(row: Mapping[str, object]) -> list[tuple[str, float, float, float]]:
    """``(column, p, the error it is read at, its MC error)`` of each p-value of a row decided by p-values
    that lies within BORDERLINE_MC MC errors of its error (0.05 for ``p_holm``, ``alpha_used`` for the tests)."""
    out = []
    for col, mc_col in _P_MC:
        p, mc = _f(row, col), _f(row, mc_col)
        t = HOLM_ALPHA if col == "p_holm" else _f(row, "alpha_used")
        if np.isfinite(p) and np.isfinite(mc) and mc > 0 and abs(p - t) <= BORDERLINE_MC * mc:
            out.append((col, p, t, mc))
    return out


def _borderline_p(kind: str, row: Mapping[str, object], lo: float, hi: float) -> str | None:
    """The explanation of a borderline verdict of a row decided by p-values, or None: a p-value within
    BORDERLINE_MC x its Monte Carlo error (over the reruns) of the error it is read at (0.05 for the
    Holm-adjusted one, ``alpha_used`` for the tests), where the verdicts on its two sides differ."""
    hits = []
    for col, p, t, mc in _close_calls(row):
        eps = 1e-9 * t
        sides = [scheme_verdict(kind, {**dict(row), col: x}, lo, hi)[0] for x in (t - eps, t + eps)]
        if sides[0] != sides[1]:
            hits.append((abs(p - t) / mc, col, p, t, mc, sides))
    if not hits:
        return None
    _, col, p, t, mc, (a, b) = min(hits, key=lambda h: h[0])
    return (f"{col} {p:.4g} is within {BORDERLINE_MC:g} x its MC error ({BORDERLINE_MC * mc:.2g}) of {t:.4g}: it "
            f"sits between '{a}' and '{b}'")


def _only_beyond_in_doubt(kind: str, row: Mapping[str, object], lo: float, hi: float) -> str | None:
    """A row decided **different** whose only close call is whether it lies wholly beyond the margin
    (``p_beyond`` within BORDERLINE_MC MC errors of its error, every other p-value clear of its own):
    the verdict the seed cannot move, **different** with its way, without "beyond the margin"; None
    when anything else is in doubt (then :func:`_borderline_p` decides)."""
    if [c[0] for c in _close_calls(row)] != ["p_beyond"]:
        return None
    t = _f(row, "alpha_used")
    sides = [scheme_verdict(kind, {**dict(row), "p_beyond": x}, lo, hi)[0] for x in (t * (1 - 1e-9), t * (1 + 1e-9))]
    if not (sides[0].startswith(f"{BEYOND}:") and sides[1].startswith(f"{DIFFERENT}:")
            and sides[0].split(":", 1)[1] == sides[1].split(":", 1)[1]):
        return None
    return sides[1]


def _borderline(kind: str, row: Mapping[str, object], lo: float, hi: float, mc: float) -> str | None:
    """The explanation of a borderline verdict, or None: an end within BORDERLINE_MC x its Monte
    Carlo error (``mc_error_lo`` / ``mc_error_hi``, else ``mc``) of a threshold whose two sides
    give different verdicts (the closest such threshold is named)."""
    hits = []
    # the two sides from the interval alone: where Holm stops at this claim by a hair (its adjusted p read
    # off the grid of levels, in 1.2% steps), the end at the threshold is the close call, not the hold
    row = {**dict(row), "p_holm": np.nan}
    for end, e, col in (("lower end", lo, "mc_error_lo"), ("upper end", hi, "mc_error_hi")):
        m = _f(row, col)
        m = m if np.isfinite(m) else mc
        for name, t in _thresholds(kind, row):
            # <=: an end whose Monte Carlo range just reaches the threshold (a step of a discrete
            # statistic, prspace.stats.intervals.order_statistic_interval) is borderline
            if not (np.isfinite(t) and m > 0 and abs(e - t) <= BORDERLINE_MC * m):
                continue
            eps = 1e-9 * max(1.0, abs(t)) + _EPS
            sides = [_interval_verdict(kind, row, *((x, hi) if end == "lower end" else (lo, x)))[0]
                     for x in (t - eps, t + eps)]
            if sides[0] != sides[1]:
                hits.append((abs(e - t), end, e, name, t, sides))
    if not hits:
        return None
    _, end, e, name, t, (a, b) = min(hits, key=lambda h: h[0])
    return (f"the interval's {end} {e:.4f} is within {BORDERLINE_MC:g} x MC error ({BORDERLINE_MC * mc:.4f}) of "
            f"{name} {t:.4f}: it sits between '{a}' and '{b}'")


def _power_guard(verdict: str, why: str, power: float) -> tuple[str, str]:
    if verdict not in (WITHIN_NOISE, ORDER_WITHIN):
        return verdict, why
    if not np.isfinite(power):
        return verdict, why + "; the check's power here is unknown (no calibrated power in this row)"
    if power < MIN_POWER:
        return low_power(power), (why + f"; but the check's calibrated power at this study's task size is "
                                  f"{power:.2f} < {MIN_POWER:g}: finding nothing is what it does here either way")
    return verdict, why + f"; the check's calibrated power at this study's task size is {power:.2f}"


def decide(row: Mapping[str, object]) -> tuple[str, str, dict[str, float]]:
    """``(verdict, explanation, updates)`` for one row (an evidence row joined to the registry by
    :func:`apply_rule`, or a row of ``verdicts.csv``); ``updates`` fills computed fields (the
    tolerance default; a bound's estimate, level and exact interval; the margin)."""
    kind = str(row["kind"])
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    tol = _f(row, "tolerance")
    if math.isnan(tol):
        tol = DEFAULT_TOLERANCE.get(kind, float("nan"))
    upd: dict[str, float] = {"tolerance": tol}
    row = {**row, "tolerance": tol}
    if kind == "bound":
        return _decide_bound(row, tol, upd)
    if kind == "test":
        return (*_decide_test(row, tol), upd)
    if kind == "exact":
        return (*_decide_exact(row, tol), upd)
    return _decide_interval(kind, row, tol, upd)


def _decide_bound(row: Mapping[str, object], tol: float, upd: dict[str, float]) -> tuple[str, str, dict[str, float]]:
    """A ``bound`` row: ``k`` of ``n`` flagged cases, its exact interval against the false rate ``tol``."""
    k, n, level, power = _f(row, "k"), _f(row, "n"), _f(row, "level"), _f(row, "power")
    if not n > 0:
        return CANNOT, "no case to count (n = 0)", upd
    level = level if np.isfinite(level) else LEVEL
    n_eff = _f(row, "n_eff")
    lo, hi = clopper_pearson(int(k), int(n), level, n_eff=n_eff)
    upd.update(estimate=k / n, ci_lo=lo, ci_hi=hi, level=level)
    iv = f"exact {level:.0%} interval [{_fmt(lo)}, {_fmt(hi)}]"
    if np.isfinite(n_eff) and n_eff < n:
        iv = (f"{level:.0%} interval [{_fmt(lo)}, {_fmt(hi)}] (exact binomial on {n_eff:.1f} effective cases: "
              f"the {int(n)} cases come in families, Korn-Graubard)")
    if lo > tol:
        return BEYOND_NOISE, f"{int(k)} of {int(n)}: {iv} lies above the check's false rate {_fmt(tol)}", upd
    if hi < 0.5:
        return (*_power_guard(WITHIN_NOISE, f"{int(k)} of {int(n)}: at most {_fmt(hi)} of these cases ({iv}) are "
                              "cases the check flags", power), upd)
    return CANNOT, f"{int(k)} of {int(n)}: {iv} decides neither way", upd


def _decide_test(row: Mapping[str, object], tol: float) -> tuple[str, str]:
    """A ``test`` row: its p-value (``estimate``) against alpha ``tol``, with its Monte Carlo error."""
    est, mc, power = _f(row, "estimate"), _f(row, "mc_error"), _f(row, "power")
    if not np.isfinite(est):
        return CANNOT, "no p-value: the test was not run"
    if np.isfinite(mc) and mc > 0 and abs(est - tol) <= BORDERLINE_MC * mc:
        return BORDERLINE, (f"p = {_fmt(est)} is within {BORDERLINE_MC:g} x MC error ({BORDERLINE_MC * mc:.4f}) of "
                            f"alpha {_fmt(tol)}: it sits between '{ORDER_DIFFERS}' and '{ORDER_WITHIN}'")
    if est < tol:
        return ORDER_DIFFERS, f"p = {_fmt(est)} < alpha {_fmt(tol)}: the difference is beyond noise"
    return _power_guard(ORDER_WITHIN, f"p = {_fmt(est)} >= alpha {_fmt(tol)}: no difference beyond noise", power)


def _decide_exact(row: Mapping[str, object], tol: float) -> tuple[str, str]:
    """An ``exact`` row: its largest deviation (``estimate``) against ``tol``."""
    est = _f(row, "estimate")
    if not np.isfinite(est):
        return CANNOT, "no deviation computed"
    if abs(est) <= tol:
        return EXACT, f"largest deviation {_fmt(est)} <= {_fmt(tol)}"
    return DIFFERS, f"largest deviation {_fmt(est)} > {_fmt(tol)}"


def _decide_interval(kind: str, row: Mapping[str, object], tol: float,
                     upd: dict[str, float]) -> tuple[str, str, dict[str, float]]:
    """A row of an interval kind: its margin, the small-population guard, the verdict of its interval
    and the borderline guard."""
    row, refusal = _with_margin(kind, row, tol, upd)
    if refusal is not None:
        return CANNOT, refusal, upd
    est, lo, hi = _f(row, "estimate"), _f(row, "ci_lo"), _f(row, "ci_hi")
    unusable = _unusable(kind, row, est, lo, hi)
    if unusable is not None:
        return (*unusable, upd)
    verdict, why = _interval_verdict(kind, row, lo, hi)
    return (*_borderline_guard(kind, row, lo, hi, verdict, why), upd)


def _with_margin(kind: str, row: Mapping[str, object], tol: float,
                 upd: dict[str, float]) -> tuple[Mapping[str, object], str | None]:
    """The row with its margin (the registry's, else its tolerance) and why it cannot be decided, or None."""
    pv = _f(row, "paper_value")
    if kind in (*NUMBER_KINDS, "equivalence"):
        m = _f(row, "margin")
        m = m if np.isfinite(m) else tol
        upd.update(margin=m, tolerance=m)
        row = {**row, "margin": m, "tolerance": m}
        if not np.isfinite(m):
            return row, "no margin (the registry's, or the row's tolerance)"
        if kind in NUMBER_KINDS and not np.isfinite(pv):
            return row, "no paper value to compare"
    if kind == "direction" and str(row.get("role", "")) == "primary":
        upd.update(margin=_f(row, "margin"))
    if kind == "direction" and pv not in (1.0, -1.0):
        return row, "no claimed direction (paper_value must be +1 or -1)"
    return row, None


def _unusable(kind: str, row: Mapping[str, object], est: float, lo: float, hi: float) -> tuple[str, str] | None:
    """``(verdict, explanation)`` of a row whose interval cannot be read (missing, over too few
    families, without spread), or None."""
    # a row decided by p-values may show an unbounded end (no nominal level reaches it by counting)
    ends_ok = not (np.isnan(lo) or np.isnan(hi)) if _p_mode(row) else bool(np.isfinite(lo) and np.isfinite(hi))
    if not (np.isfinite(est) and ends_ok):
        return CANNOT, "no estimate or interval"
    nf = _f(row, "n_families")
    if np.isfinite(nf) and nf < MIN_FAMILIES:
        return few_families(nf), _few_families_why(kind, row, est, lo, hi, nf)
    if kind in (*NUMBER_KINDS, "equivalence", "direction") and str(row.get("role", "")) == "primary" and lo == hi:
        return (CANNOT, f"every task gives the same value ({_fmt(est)}): the bootstrap over its families has no spread "
                        "to test with (p-values 1, kept in its paper's Holm family); the detail gives the exact "
                        "interval where there is one")
    return None


def _few_families_why(kind: str, row: Mapping[str, object], est: float, lo: float, hi: float, nf: float) -> str:
    """Why an interval over too few families is not trusted; a share adds the exact interval over its tasks."""
    why = (f"the interval [{_fmt(lo)}, {_fmt(hi)}] comes from a bootstrap over {int(nf)} families; below "
           f"{MIN_FAMILIES} families such an interval is not trusted")
    nt, level = _f(row, "n_tasks"), _f(row, "level")
    if kind == "share" and nt > 0:
        cl = level if np.isfinite(level) else LEVEL
        a, b = clopper_pearson(int(round(est * nt)), int(nt), cl)
        why += (f"; treating the {int(nt)} tasks as independent, the exact binomial (Clopper-Pearson) {cl:.2%} "
                f"interval is [{_fmt(a)}, {_fmt(b)}]")
    return why


def _borderline_guard(kind: str, row: Mapping[str, object], lo: float, hi: float, verdict: str,
                      why: str) -> tuple[str, str]:
    """Guard 3 (module docstring): the verdict, or **borderline** when a close call could move it."""
    if _p_mode(row) and (kind in (*NUMBER_KINDS, "equivalence") or kind == "direction"):
        surely = _only_beyond_in_doubt(kind, row, lo, hi)
        if surely is not None:
            mc = _f(row, "p_beyond_mc")
            return (surely, f"different, and whether it lies wholly beyond the margin is a close call (p_beyond "
                            f"{_fmt(_f(row, 'p_beyond'))} within {BORDERLINE_MC:g} x its MC error {mc:.2g} of "
                            f"{_f(row, 'alpha_used'):.4g}): not claimed; {why}")
        border = _borderline_p(kind, row, lo, hi)
        return (BORDERLINE, f"{border}; {why}") if border else (verdict, why)
    mc = _f(row, "mc_error")
    if not np.isfinite(mc):
        return verdict, why + "; Monte Carlo error of the ends not given (borderline not checked)"
    border = _borderline(kind, row, lo, hi, mc)
    if border:
        return BORDERLINE, f"{border}; {why}"
    return verdict, why


def registry_fields(row: Mapping[str, object]) -> dict[str, object]:
    """``role, where, quote, paper_value, margin`` of an evidence row, from the registry.

    A row of a paper (``paper`` a key of :data:`PAPERS` other than ``prspace``) must have its
    ``claim_id`` in :mod:`prspace.core.claims` and may not state a paper value the registry
    does not (raises ``ValueError`` naming the fix); its ``paper_value`` is the registry's number,
    or its claimed direction (+1 / -1) for a direction claim. A row not in the registry is this
    project's (``exploratory``) and keeps its own ``paper_value`` and margin (``tolerance``)."""
    cid, paper = str(row["claim_id"]), str(row["paper"])
    c = claim(cid)
    if c is None:
        if paper != "prspace":
            raise ValueError(f"evidence row {cid!r} is under paper {paper!r} but the registry "
                             "(src/prspace/core/claims.py) has no such claim: quote the paper there, or make the "
                             "row this project's own (paper 'prspace', id 'px.<...>')")
        m = _f(row, "tolerance") if str(row["kind"]) in (*NUMBER_KINDS, "equivalence") else float("nan")
        return {"role": "exploratory", "where": "", "quote": "", "paper_value": _f(row, "paper_value"), "margin": m}
    if c.paper != paper:
        raise ValueError(f"evidence row {cid!r} is under paper {paper!r}; the registry files it under {c.paper!r}")
    pv = c.paper_value if np.isfinite(c.paper_value) else float(c.direction) if c.direction else float("nan")
    given = _f(row, "paper_value")
    if np.isfinite(given) and not (np.isfinite(pv) and abs(given - pv) <= 1e-9):
        raise ValueError(f"evidence row {cid!r} states paper value {given:g}; the registry says "
                         f"{'nothing' if not np.isfinite(pv) else f'{pv:g}'}: take the value from the registry")
    m = decision_margin(cid) if c.role == "primary" else c.margin
    return {"role": c.role, "where": c.where, "quote": c.quote, "paper_value": pv, "margin": m}


def apply_rule(evidence: pd.DataFrame) -> pd.DataFrame:
    """Verdict rows (:data:`VERDICT_COLUMNS`) for evidence rows, joined to the registry
    (:func:`registry_fields`), decided by :func:`decide`; ``explanation`` is the rule's reason
    followed by the row's ``detail`` (what was tested)."""
    out = []
    for _, r in evidence.iterrows():
        row = {**r.to_dict(), **registry_fields(r)}
        verdict, why, upd = decide(row)
        row |= upd
        detail = str(r.get("detail", "") or "")
        row["verdict"] = verdict
        row["outcome"] = next((o for o in (*OUTCOMES, BORDERLINE) if verdict.startswith(o)), "")
        # a claim that follows from Boyd et al.'s Theorem 1 by arithmetic checks the implementation, not a finding
        built = by_construction(str(r["claim_id"])) if row["role"] == "primary" else ""
        row["by_construction"] = bool(built)
        why += (f"; by construction, not a finding: {built} (the row checks the implementation; it stays in its "
                "paper's Holm family)") if built else ""
        row["explanation"] = why + (f". {detail}" if detail and detail != "nan" else "")
        out.append(row)
    return pd.DataFrame(out, columns=VERDICT_COLUMNS)
