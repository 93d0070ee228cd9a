"""The part of the one decision rule that reads an interval (or a primary row's p-values), and the
words of every verdict.

:mod:`prspace.verdicts.rule` states the rule (its module docstring) and applies it: the kinds counted
without an interval (``bound``, ``test``, ``exact``), the three guards and the registry. This module
holds what a row's interval means once the guards let it through (:func:`_interval_verdict`, which
the borderline guard calls with moved ends): **the one scheme** for a claim with a margin, Lakens,
Scheel & Isager's (2018) four outcomes of an equivalence test and a difference test against a value
``v`` (the paper's number, or 0 for "as different as" and a claimed direction) and a margin ``m``
(:func:`scheme_code`), said in the claim's words (:func:`scheme_verdict`); and the ``direction``,
``stable`` and ``difference`` kinds without a margin. Apart from the rule so that each module is read
in one sitting (issue 61); the verdict words are re-exported by the rule.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from prspace.core.claims import HOLM_ALPHA, claim
from prspace.stats import cluster_bootstrap as CB

#: Kinds that compare a paper's number with a margin (``margin`` column).
NUMBER_KINDS = ("share", "correlation", "quartile")

#: The four outcomes of the one scheme (an equivalence test plus a difference test; Lakens, Scheel
#: & Isager 2018), the first word of every primary verdict; after the colon, what it means for the claim.
EQUIVALENT = "equivalent"
DIFFERENT = "different"
BY_LESS = "different, by less than the margin"
BEYOND = "different, beyond the margin"
INCONCLUSIVE = "inconclusive"
#: The outcome a verdict starts with (longest first: a verdict is matched by its first word(s)).
OUTCOMES = (EQUIVALENT, BY_LESS, BEYOND, DIFFERENT, INCONCLUSIVE)
REPLICATES = f"{EQUIVALENT}: replicates"
AS_DIFFERENT = f"{EQUIVALENT}: as different, holds"
NO_EFFECT = f"{EQUIVALENT}: no effect larger than the margin"
HIGHER = f"{DIFFERENT}: higher here"
LOWER = f"{DIFFERENT}: lower here"
BORDERLINE = "borderline"
EXACT = "exact"
DIFFERS = "differs"
HOLDS = "holds"
CONTRADICTED = "contradicted"
BEYOND_NOISE = "beyond noise"
WITHIN_NOISE = "mostly within noise"
ORDER_DIFFERS = "differs beyond noise"
ORDER_WITHIN = "within noise"
LARGER = "larger"
SMALLER = "smaller"
CANNOT = "cannot be told"


def _fmt(v: float) -> str:
    return "nan" if v is None or not np.isfinite(v) else f"{v:.3g}"


def _f(row: Mapping[str, object], col: str) -> float:
    v = row.get(col, float("nan"))
    try:
        return float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return float("nan")


#: "which way" of an "as different as" difference (registry quantity): (below -margin, above +margin).
_WAYS = {"share_gap": ("AUPR and AUPRG are more alike than AUPR and AUROC",
                       "AUPR and AUPRG are less alike than AUPR and AUROC"),
         "correlation_gap": ("AUPR and AUPRG are less alike than AUPR and AUROC",
                             "AUPR and AUPRG are more alike than AUPR and AUROC")}


def _ways(claim_id: str) -> tuple[str, str]:
    c = claim(claim_id)
    return _WAYS.get(c.quantity if c else "", ("the difference lies below -margin", "the difference lies above +margin"))


def _leans(kind: str, row: Mapping[str, object], up: bool) -> str:
    """Which way an estimate above (``up``) or below the compared value leans, in the claim's words."""
    if kind in NUMBER_KINDS:
        return "higher here" if up else "lower here"
    if kind == "equivalence":
        below, above = _ways(str(row.get("claim_id", "")))
        return above if up else below
    claimed = _f(row, "paper_value") > 0
    return "on the claimed side" if up == claimed else "against the claim"


#: The p-value columns a primary row is decided by (:func:`scheme_verdict`); a row without them is
#: decided by its interval alone.
P_COLUMNS = ("p_diff", "p_equiv", "p_beyond", "p_holm", "alpha_used")


def _p_mode(row: Mapping[str, object]) -> bool:
    return all(np.isfinite(_f(row, c)) for c in P_COLUMNS)


def scheme_code(kind: str, row: Mapping[str, object], lo: float, hi: float) -> tuple[int, bool]:
    """``(outcome code, held)``: Lakens, Scheel & Isager's outcome (:func:`prspace.stats.cluster_bootstrap.outcomes`
    codes). A primary row with p-values (:data:`P_COLUMNS`) is decided by them: a claim Holm does not
    decide (``p_holm`` above :data:`~prspace.core.claims.HOLM_ALPHA`) is inconclusive (``held`` when its
    own tests would have decided), a decided one reads its tests at ``alpha_used``
    (:func:`prspace.stats.cluster_bootstrap.outcome_of_ps`). Any other row: its interval against the
    compared value +- margin."""
    v = 0.0 if kind in ("equivalence", "direction") else _f(row, "paper_value")
    if _p_mode(row):
        code = CB.outcome_of_ps(_f(row, "p_diff"), _f(row, "p_equiv"), _f(row, "p_beyond"), _f(row, "alpha_used"))
        if _f(row, "p_holm") > HOLM_ALPHA:
            return CB.INCONCLUSIVE, code != CB.INCONCLUSIVE
        return code, False
    return int(CB.outcomes(np.array([lo]), np.array([hi]), v, _f(row, "margin"))[0]), False


def scheme_verdict(kind: str, row: Mapping[str, object], lo: float, hi: float) -> tuple[str, str]:
    """The one scheme (module docstring): the outcome (:func:`scheme_code`) against the compared value
    ``v`` (the paper's number, or 0) +- margin, in the claim's words, which way a difference goes."""
    v = 0.0 if kind in ("equivalence", "direction") else _f(row, "paper_value")
    m, est = _f(row, "margin"), _f(row, "estimate")
    iv, what = f"[{_fmt(lo)}, {_fmt(hi)}]", ("the paper's " + _fmt(v)) if kind in NUMBER_KINDS else "0"
    code, held = scheme_code(kind, row, lo, hi)
    pmode = _p_mode(row)
    up = est > v if pmode or code not in (CB.DIFFERENT, CB.BEYOND, CB.BY_LESS) else (lo + hi) / 2 > v
    lean = _leans(kind, row, up)
    tests = _tests_said(row, iv, what, m) if pmode else f"the interval {iv}"
    decided = _decided(kind, code, tests, what, m, lean, up)
    if decided is not None:
        return decided
    return f"{INCONCLUSIVE}: leans {_inconclusive_lean(kind, lean)}", _undecided_why(row, tests, what, m, held, pmode)


def _tests_said(row: Mapping[str, object], iv: str, what: str, m: float) -> str:
    """What a row decided by p-values tested: Holm's adjusted p, its tests at ``alpha_used``, its interval."""
    return (f"Holm-adjusted p of deciding {_fmt(_f(row, 'p_holm'))}; read at error {_f(row, 'alpha_used'):.3g}: "
            f"p of a difference from {what} {_fmt(_f(row, 'p_diff'))}, of lying within +- margin {_fmt(m)} "
            f"{_fmt(_f(row, 'p_equiv'))}, of lying wholly beyond it {_fmt(_f(row, 'p_beyond'))}; the per-claim "
            f"{_f(row, 'level'):.0%} interval {iv}")


def _decided(kind: str, code: int, tests: str, what: str, m: float, lean: str, up: bool) -> tuple[str, str] | None:
    """The verdict of an equivalent or different outcome in the claim's words, or None when inconclusive."""
    if code == CB.EQUIVALENT:
        word = {"equivalence": AS_DIFFERENT, "direction": NO_EFFECT}.get(kind, REPLICATES)
        return word, f"{tests}: within {what} +- margin {_fmt(m)}"
    if code == CB.BY_LESS:
        return f"{BY_LESS}: {lean}", f"{tests}: excludes {what} but lies within +- margin {_fmt(m)}"
    if code in (CB.DIFFERENT, CB.BEYOND):
        side = "above" if up else "below"
        if kind == "direction":
            lean = "holds" if lean == "on the claimed side" else "contradicted"
        if code == CB.BEYOND:
            return (f"{BEYOND}: {lean}",
                    f"{tests}: wholly {side} {what} {'+' if up else '-'} margin {_fmt(m)}")
        return f"{DIFFERENT}: {lean}", f"{tests}: excludes {what} ({side}), not within +- margin {_fmt(m)}"
    return None


def _undecided_why(row: Mapping[str, object], tests: str, what: str, m: float, held: bool, pmode: bool) -> str:
    """Why an outcome is inconclusive, with the power to decide and the families that would."""
    if pmode and _f(row, "p_holm") > HOLM_ALPHA:
        why = f"{tests}: Holm does not decide it (adjusted p {_fmt(_f(row, 'p_holm'))} > {HOLM_ALPHA:g})"
        if held:
            why += "; Holm stops before this claim, though its own tests would decide"
    elif pmode:
        why = f"{tests}: at that error it neither excludes {what} nor lies within +- margin {_fmt(m)}"
    else:
        why = f"{tests}: includes {what} and is not within +- margin {_fmt(m)}"
    return why + _families_to_decide(row)


def _families_to_decide(row: Mapping[str, object]) -> str:
    """The power at this study's families and the families that would decide with 80% power, if known."""
    why = ""
    n80, here = _f(row, "families_80"), _f(row, "power_here")
    if np.isfinite(here):
        why += f"; power to decide at this study's {int(_f(row, 'n_families'))} families {here:.2f}"
    if np.isfinite(n80):
        why += f"; about {int(n80)} families would decide with 80% power (simulated from this study's families"
        a, b = _f(row, "families_80_lo"), _f(row, "families_80_hi")
        rng = [f"{int(x)}" if np.isfinite(x) else f"more than {_grid_max(row)}" for x in (a, b)]
        why += f"; {rng[0]} to {rng[1]} with the effect at the 95% interval's ends)" if np.isfinite(a) or np.isfinite(b) else ")"
    elif np.isfinite(here):
        why += f"; more than {_grid_max(row)} families would be needed for 80% power"
    return why


def _inconclusive_lean(kind: str, lean: str) -> str:
    """The way an inconclusive estimate leans, in the words of a direction or an "as different as" claim."""
    if kind == "direction":
        lean = "the claimed way" if lean == "on the claimed side" else "against the claim"
    if kind == "equivalence":
        lean = ("to AUPR-AUPRG more alike than AUPR-AUROC" if "more alike" in lean
                else "to AUPR-AUPRG less alike than AUPR-AUROC")
    return lean


def _grid_max(row: Mapping[str, object]) -> int:
    """The most families the row's power was simulated at (its method's grid)."""
    g = _f(row, "families_80_max")
    return int(g) if np.isfinite(g) else int(CB.POWER_GRID[-1])


def _interval_verdict(kind: str, row: Mapping[str, object], lo: float, hi: float) -> tuple[str, str]:
    """The verdict of an interval kind from its ends alone (the borderline check moves them)."""
    iv = f"[{_fmt(lo)}, {_fmt(hi)}]"
    if kind in (*NUMBER_KINDS, "equivalence") or (kind == "direction" and np.isfinite(_f(row, "margin"))):
        return scheme_verdict(kind, row, lo, hi)
    if kind == "direction":
        return _direction_verdict(_f(row, "paper_value"), lo, hi, iv)
    if kind == "stable":
        return _stable_verdict(_f(row, "tolerance"), lo, hi, iv)
    if kind == "difference":
        return _difference_verdict(_fmt(_f(row, "estimate")), lo, hi, iv)
    raise ValueError(f"unknown kind {kind!r}")


def _direction_verdict(pv: float, lo: float, hi: float, iv: str) -> tuple[str, str]:
    """A claimed sign ``pv`` (+1 / -1) of this project's, without margin, against the interval."""
    side = "above" if pv > 0 else "below"
    if (pv > 0 and lo > 0) or (pv < 0 and hi < 0):
        return HOLDS, f"interval {iv} lies {side} 0, as claimed"
    if (pv > 0 and hi < 0) or (pv < 0 and lo > 0):
        return CONTRADICTED, f"interval {iv} lies on the other side of 0 than claimed"
    return CANNOT, f"interval {iv} contains 0"


def _stable_verdict(tol: float, lo: float, hi: float, iv: str) -> tuple[str, str]:
    """A claimed absence of effect within ``+-tol`` against the interval."""
    if -tol <= lo and hi <= tol:
        return HOLDS, f"interval {iv} lies within +-{_fmt(tol)}"
    if lo > tol or hi < -tol:
        return DIFFERS, f"interval {iv} lies outside +-{_fmt(tol)}"
    return CANNOT, f"interval {iv} overlaps the margin +-{_fmt(tol)}"


def _difference_verdict(est: str, lo: float, hi: float, iv: str) -> tuple[str, str]:
    """A difference (estimate ``est``, formatted) against 0."""
    if lo > 0:
        return LARGER, f"difference {est}, interval {iv} above 0"
    if hi < 0:
        return SMALLER, f"difference {est}, interval {iv} below 0"
    return CANNOT, f"difference {est}, interval {iv} contains 0"


def exact_share_ps(k: int, n: int, value: float, margin: float) -> dict[str, float]:
    """Lakens, Scheel & Isager's p-values for a share of ``k`` of ``n`` independent units (families) against
    ``value`` +- ``margin``, from the exact binomial tails, two-sided as
    :meth:`prspace.stats.sign_flip.Result.decision_ps` makes them (twice the one-sided p, at most 1): the tests
    whose inversion is :func:`prspace.verdicts.rule.clopper_pearson`. A one-sided hypothesis outside [0, 1] (a share below 0 or above
    1) is rejected with p 0 when it is the one "within the margin" needs, kept with p 1 otherwise. For a share
    every task gives alike, where a bootstrap or sign-flip test over families has no spread to test with."""
    from scipy import stats  # lazy: ~0.5 CPU s a process that never calls it

    def ge(p: float) -> float:  # P(X >= k) under share p
        return 1.0 if p <= 0 and k <= 0 else (0.0 if p <= 0 else (1.0 if p >= 1 else float(stats.binom.sf(k - 1, n, p))))

    def le(p: float) -> float:  # P(X <= k) under share p
        return 1.0 if p >= 1 and k >= n else (0.0 if p >= 1 else (1.0 if p <= 0 else float(stats.binom.cdf(k, n, p))))

    lo_m, hi_m = value - margin, value + margin
    diff = min(1.0, 2.0 * min(ge(value), le(value)))
    equiv = min(1.0, 2.0 * max(ge(lo_m) if lo_m > 0 else 0.0, le(hi_m) if hi_m < 1 else 0.0))
    beyond = min(1.0, 2.0 * min(le(lo_m) if lo_m > 0 else 1.0, ge(hi_m) if hi_m < 1 else 1.0))
    return {"diff": diff, "equiv": equiv, "beyond": beyond, "decide": min(diff, equiv)}
