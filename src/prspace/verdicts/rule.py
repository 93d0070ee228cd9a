"""The one decision rule that turns a claim's evidence into a verdict.

Every analysis that bears on a claim of either paper writes *evidence rows* (columns
:data:`EVIDENCE_COLUMNS`, one row per claim; build them with :func:`evidence_row`); this module
alone decides what a row means. ``docs/verdicts.md`` states the same rule in prose; a test
re-derives every committed verdict from its own row.

Kinds of claim and their verdicts (``tolerance`` defaults in :data:`DEFAULT_TOLERANCE`):

* ``share`` / ``correlation``: a number the paper reports (``paper_value``), estimated here with a
  95% interval ``[ci_lo, ci_hi]`` (cluster bootstrap over families of tasks).

  - **replicates**: the paper's value is inside the interval and the interval's half-width is at
    most ``tolerance`` (0.10 for shares, 0.03 for correlations): precise enough to tell;
  - **consistent but imprecise**: inside, but wider; the explanation says about how many families
    would make it narrow enough (half-width shrinks as one over the square root of the families);
  - **differs: higher here** / **differs: lower here**: the paper's value is outside the interval.

* ``exact``: a closed form or published table checked against computation; ``estimate`` is the
  largest absolute deviation. **exact** when it is at most ``tolerance``, else **differs**.

* ``direction``: a claimed sign (``paper_value`` +1 or -1) of an effect ``estimate`` with interval.
  **holds** when the interval excludes 0 on the claimed side, **contradicted** when it excludes 0
  on the other side, **cannot be told** when it contains 0.

* ``stable``: a claimed absence of effect within a margin ``tolerance``. **holds** when the whole
  interval lies inside ``[-tolerance, tolerance]``; **differs** when it lies wholly outside it
  (``ci_lo > tolerance`` or ``ci_hi < -tolerance``); else **cannot be told**.

* ``bound``: ``k`` of ``n`` cases flagged by a calibrated check (e.g. disagreements whose two
  preferred models are distinguishable); ``estimate = k/n`` with the exact (Clopper-Pearson) 95%
  interval, computed here. **beyond noise** when the interval's lower end exceeds ``tolerance``
  (the check's nominal false rate, 0.05); **mostly within noise** when its upper end is below 0.5;
  else **cannot be told**. Read a "0 of n" with the check's power, which the row's ``detail``
  gives from the calibration table; what the check flags (separable preferred models, disjoint
  plausible-best sets, ...) is the row's claim and detail.

* ``test``: a calibrated hypothesis test of a null of no difference (e.g. two metrics order the
  learners alike across tasks, :func:`prspace.cd.metric_order_test`); ``estimate`` is its
  p-value and ``tolerance`` its level alpha (default 0.05). **differs beyond noise** when
  ``p < alpha``; **within noise** when ``p >= alpha``: the data do not show a difference, which
  is not evidence of none where the test's power is low (the row's ``detail`` gives the test's
  calibrated false rate and its power on a planted effect); **cannot be told** when there is no
  p-value (the test could not be run; the ``detail`` says why).

* ``difference``: a difference ``estimate`` (e.g. cross-metric minus self-disagreement) with
  interval. **larger** when the interval is above 0, **smaller** when below, else **cannot be
  told**.

A row with a missing estimate or interval is **cannot be told** (its explanation says what is
missing). Nothing here reads a file: rows in, rows out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
from scipy import stats

PAPERS = {"flach-kull-2015": "Flach & Kull (NIPS 2015)", "boyd-2012": "Boyd et al. (ICML 2012)",
          "prspace": "this project (no paper value)"}
KINDS = ("share", "correlation", "exact", "direction", "stable", "bound", "difference", "test")

#: Half-width (share, correlation), deviation (exact), margin (stable), false rate (bound) or
#: level alpha (test) when a row leaves ``tolerance`` empty.
DEFAULT_TOLERANCE: dict[str, float] = {
    "share": 0.10, "correlation": 0.03, "exact": 1e-9, "stable": 0.02, "bound": 0.05,
    "direction": float("nan"), "difference": float("nan"), "test": 0.05,
}
LEVEL = 0.95

EVIDENCE_COLUMNS = [
    "paper", "claim_id", "claim", "kind", "paper_value", "estimate", "ci_lo", "ci_hi",
    "n_tasks", "n_families", "tolerance", "k", "n", "detail", "level", "mc_error", "power",
]
#: Columns an evidence table may lack (read as NaN): the interval's level and Monte Carlo error,
#: and a check's calibrated power at the study's median task size.
OPTIONAL_EVIDENCE_COLUMNS = ("level", "mc_error", "power")
VERDICT_COLUMNS = [
    "paper", "claim_id", "claim", "paper_value", "estimate", "ci_lo", "ci_hi", "n_tasks",
    "n_families", "verdict", "explanation", "kind", "tolerance", "k", "n",
]

REPLICATES = "replicates"
IMPRECISE = "consistent but imprecise"
HIGHER = "differs: higher here"
LOWER = "differs: lower here"
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


def evidence_row(
    *, paper: str, claim_id: str, claim: str, kind: str, estimate: float,
    ci_lo: float = float("nan"), ci_hi: float = float("nan"), paper_value: float = float("nan"),
    n_tasks: float = float("nan"), n_families: float = float("nan"),
    tolerance: float = float("nan"), k: float = float("nan"), n: float = float("nan"), detail: str = "",
    level: float = float("nan"), mc_error: float = float("nan"), power: float = float("nan"),
) -> dict[str, object]:
    """One evidence row (:data:`EVIDENCE_COLUMNS`), checked: a misspelt paper or kind raises."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {paper!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if kind == "bound" and (math.isnan(float(k)) or math.isnan(float(n))):
        raise ValueError(f"{claim_id}: a 'bound' row needs k and n")
    return {"paper": paper, "claim_id": claim_id, "claim": claim, "kind": kind,
            "paper_value": float(paper_value), "estimate": float(estimate), "ci_lo": float(ci_lo),
            "ci_hi": float(ci_hi), "n_tasks": float(n_tasks), "n_families": float(n_families),
            "tolerance": float(tolerance), "k": float(k), "n": float(n), "detail": str(detail),
            "level": float(level), "mc_error": float(mc_error), "power": float(power)}


def evidence_frame(rows: Iterable[Mapping[str, object]]) -> pd.DataFrame:
    """Evidence rows as a DataFrame with exactly :data:`EVIDENCE_COLUMNS`."""
    return pd.DataFrame(list(rows), columns=EVIDENCE_COLUMNS)


def clopper_pearson(k: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """Exact two-sided binomial interval for ``k`` of ``n`` (``scipy.stats.binomtest``)."""
    if n <= 0:
        return float("nan"), float("nan")
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)


def families_needed(n_families: float, half_width: float, target: float) -> int:
    """Families giving half-width ``target``, scaling as ``1/sqrt(families)`` from this run."""
    if not (n_families > 0 and half_width > 0 and target > 0):
        return 0
    return int(math.ceil(n_families * (half_width / target) ** 2))


def _fmt(v: float) -> str:
    return "nan" if v is None or not np.isfinite(v) else f"{v:.3g}"


def decide(row: Mapping[str, object]) -> tuple[str, str, dict[str, float]]:
    """``(verdict, explanation, updates)`` for one evidence row; ``updates`` fills computed
    fields (the tolerance default; a bound's estimate and exact interval)."""
    kind = str(row["kind"])
    tol = float(row.get("tolerance", float("nan")))
    if math.isnan(tol):
        tol = DEFAULT_TOLERANCE[kind]
    upd: dict[str, float] = {"tolerance": tol}
    est, lo, hi = (float(row.get(c, float("nan"))) for c in ("estimate", "ci_lo", "ci_hi"))
    pv = float(row.get("paper_value", float("nan")))
    if kind == "bound":
        k, n = float(row["k"]), float(row["n"])
        if not n > 0:
            return CANNOT, "no case to count (n = 0)", upd
        lo, hi = clopper_pearson(int(k), int(n))
        est = k / n
        upd.update(estimate=est, ci_lo=lo, ci_hi=hi)
        if lo > tol:
            return BEYOND_NOISE, (f"{int(k)} of {int(n)}: exact 95% interval [{_fmt(lo)}, {_fmt(hi)}] lies above "
                                  f"the check's false rate {_fmt(tol)}"), upd
        if hi < 0.5:
            return WITHIN_NOISE, (f"{int(k)} of {int(n)}: at most {_fmt(hi)} of these cases (exact 95% bound) are "
                                  f"cases the check flags; read it with the check's power below: where power is "
                                  f"low, the check cannot flag such cases from these test rows, which is not "
                                  f"evidence that the metrics agree"), upd
        return CANNOT, f"{int(k)} of {int(n)}: exact 95% interval [{_fmt(lo)}, {_fmt(hi)}] decides neither way", upd
    if kind == "test":
        if not np.isfinite(est):
            return CANNOT, "no p-value: the test was not run", upd
        if est < tol:
            return ORDER_DIFFERS, f"p = {_fmt(est)} < alpha {_fmt(tol)}: the difference is beyond noise", upd
        return ORDER_WITHIN, (f"p = {_fmt(est)} >= alpha {_fmt(tol)}: no difference beyond noise; read it with the "
                              f"test's power below: where power is low this is not evidence of no difference"), upd
    if kind == "exact":
        if not np.isfinite(est):
            return CANNOT, "no deviation computed", upd
        if abs(est) <= tol:
            return EXACT, f"largest deviation {_fmt(est)} <= {_fmt(tol)}", upd
        return DIFFERS, f"largest deviation {_fmt(est)} > {_fmt(tol)}", upd
    if not (np.isfinite(est) and np.isfinite(lo) and np.isfinite(hi)):
        return CANNOT, "no estimate or interval", upd
    if kind in ("share", "correlation"):
        if not np.isfinite(pv):
            return CANNOT, "no paper value to compare", upd
        hw = (hi - lo) / 2
        if pv < lo:
            return HIGHER, f"paper's {_fmt(pv)} is below this run's interval [{_fmt(lo)}, {_fmt(hi)}]", upd
        if pv > hi:
            return LOWER, f"paper's {_fmt(pv)} is above this run's interval [{_fmt(lo)}, {_fmt(hi)}]", upd
        if hw <= tol:
            return REPLICATES, f"paper's {_fmt(pv)} is inside [{_fmt(lo)}, {_fmt(hi)}], half-width {_fmt(hw)} <= {_fmt(tol)}", upd
        need = families_needed(float(row.get("n_families", float("nan"))), hw, tol)
        more = f"; about {need} families would make it <= {_fmt(tol)}" if need else ""
        return IMPRECISE, f"paper's {_fmt(pv)} is inside [{_fmt(lo)}, {_fmt(hi)}], half-width {_fmt(hw)} > {_fmt(tol)}{more}", upd
    if kind == "direction":
        if pv not in (1.0, -1.0):
            return CANNOT, "no claimed direction (paper_value must be +1 or -1)", upd
        side = "above" if pv > 0 else "below"
        if (pv > 0 and lo > 0) or (pv < 0 and hi < 0):
            return HOLDS, f"interval [{_fmt(lo)}, {_fmt(hi)}] lies {side} 0, as claimed", upd
        if (pv > 0 and hi < 0) or (pv < 0 and lo > 0):
            return CONTRADICTED, f"interval [{_fmt(lo)}, {_fmt(hi)}] lies on the other side of 0 than claimed", upd
        return CANNOT, f"interval [{_fmt(lo)}, {_fmt(hi)}] contains 0", upd
    if kind == "stable":
        if -tol <= lo and hi <= tol:
            return HOLDS, f"interval [{_fmt(lo)}, {_fmt(hi)}] lies within +-{_fmt(tol)}", upd
        if lo > tol or hi < -tol:
            return DIFFERS, f"interval [{_fmt(lo)}, {_fmt(hi)}] lies outside +-{_fmt(tol)}", upd
        return CANNOT, f"interval [{_fmt(lo)}, {_fmt(hi)}] overlaps the margin +-{_fmt(tol)}", upd
    if kind == "difference":
        if lo > 0:
            return LARGER, f"difference {_fmt(est)}, interval [{_fmt(lo)}, {_fmt(hi)}] above 0", upd
        if hi < 0:
            return SMALLER, f"difference {_fmt(est)}, interval [{_fmt(lo)}, {_fmt(hi)}] below 0", upd
        return CANNOT, f"difference {_fmt(est)}, interval [{_fmt(lo)}, {_fmt(hi)}] contains 0", upd
    raise ValueError(f"unknown kind {kind!r}")


def apply_rule(evidence: pd.DataFrame) -> pd.DataFrame:
    """Verdict rows (:data:`VERDICT_COLUMNS`) for evidence rows; ``explanation`` is the rule's
    reason followed by the row's ``detail`` (what was tested)."""
    out = []
    for _, r in evidence.iterrows():
        verdict, why, upd = decide(r)
        row = {**r.to_dict(), **upd}
        detail = str(r.get("detail", "") or "")
        row["verdict"] = verdict
        row["explanation"] = why + (f". {detail}" if detail and detail != "nan" else "")
        out.append(row)
    return pd.DataFrame(out, columns=VERDICT_COLUMNS)
