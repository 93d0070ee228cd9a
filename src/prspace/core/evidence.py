"""The evidence schema: what every analysis that bears on a claim writes, one row per claim.

An *evidence row* (columns :data:`EVIDENCE_COLUMNS`, built by :func:`evidence_row`) states a claim's
estimate, its interval and how it was computed; :mod:`prspace.verdicts.rule` alone decides what a row
means and joins it to the claims (:mod:`prspace.core.claims`). The schema lives in ``core`` so that the
analyses (``experiments``) write rows without importing the layer that judges them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

PAPERS = {"flach-kull-2015": "Flach & Kull (NIPS 2015)", "boyd-2012": "Boyd et al. (ICML 2012)",
          "prspace": "this project (no paper value)"}
KINDS = ("share", "correlation", "quartile", "equivalence", "exact", "direction", "stable", "bound", "difference",
         "test")
#: Level of a bound row's exact binomial interval when the row gives none.
LEVEL = 0.95

#: The primary rows' decision columns (see :data:`OPTIONAL_EVIDENCE_COLUMNS`).
SCHEME_COLUMNS = ("ci95_lo", "ci95_hi", "p_decide", "p_holm", "holm_multiplier", "oracle_coverage", "oracle_coverage_plain",
                  "coverage_mc_se", "families_80", "power_here", "p_diff", "p_equiv", "p_beyond", "p_diff_mc",
                  "p_equiv_mc", "p_beyond_mc", "p_holm_mc", "alpha_used", "coverage_n", "false_rate",
                  "false_rate_mc_se", "families_80_lo", "families_80_hi", "families_80_max", "coverage_miss_below",
                  "coverage_miss_above", "coverage_step_below", "coverage_step_above", "procedure_coverage",
                  "procedure_coverage_mc_se", "procedure_coverage_n", "procedure_coverage_inner")
EVIDENCE_COLUMNS = [
    "paper", "claim_id", "claim", "kind", "paper_value", "estimate", "ci_lo", "ci_hi",
    "n_tasks", "n_families", "tolerance", "k", "n", "detail", "level", "mc_error", "power", "n_eff",
    "mc_error_lo", "mc_error_hi",
]
#: The columns the verdict layer reads: the evidence tables' and the primary rows' decision columns.
ALL_EVIDENCE_COLUMNS = [*EVIDENCE_COLUMNS, *SCHEME_COLUMNS]
#: Columns an evidence table may lack (read as NaN): the interval's level and Monte Carlo error,
#: a check's calibrated power at the study's median task size, and a bound's effective number of
#: independent cases (:func:`effective_cases`; NaN: the ``n`` cases are independent), and the
#: Monte Carlo error of each end apart (NaN: ``mc_error`` for both).
#: The primary rows' decision columns (:func:`prspace.verdicts.primary.decide_family`): the
#: per-claim 95% interval, the p-value of deciding and its Holm adjustment (with the multiplier that
#: sets the row's level), the oracle's coverage counted by the double bootstrap at that level (``oracle_coverage``,
#: ``oracle_coverage_plain``: the level corrected on the population itself; plain bootstrap-t and as corrected, with its
#: Monte Carlo SE), the coverage of the procedure the study runs (``procedure_coverage``: each simulated study corrects
#: its own level, :mod:`prspace.stats.nested.procedure`; MC SE, simulated studies, inner resamples), the families
#: that would decide with 80% power and the power at this study's families.
OPTIONAL_EVIDENCE_COLUMNS = ("level", "mc_error", "power", "n_eff", "mc_error_lo", "mc_error_hi", *SCHEME_COLUMNS)


def evidence_row(
    *, paper: str, claim_id: str, claim: str, kind: str, estimate: float,
    ci_lo: float = float("nan"), ci_hi: float = float("nan"), paper_value: float = float("nan"),
    n_tasks: float = float("nan"), n_families: float = float("nan"),
    tolerance: float = float("nan"), k: float = float("nan"), n: float = float("nan"), detail: str = "",
    level: float = float("nan"), mc_error: float = float("nan"), power: float = float("nan"),
    n_eff: float = float("nan"), mc_error_lo: float = float("nan"), mc_error_hi: float = float("nan"),
    **scheme: float,
) -> dict[str, object]:
    """One evidence row (:data:`EVIDENCE_COLUMNS`), checked: a misspelt paper or kind raises."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {paper!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    unknown = sorted(set(scheme) - set(SCHEME_COLUMNS))
    if unknown:
        raise ValueError(f"unknown evidence column(s) {unknown}; the schema has {SCHEME_COLUMNS}")
    if kind == "bound" and (math.isnan(float(k)) or math.isnan(float(n))):
        raise ValueError(f"{claim_id}: a 'bound' row needs k and n")
    return {"paper": paper, "claim_id": claim_id, "claim": claim, "kind": kind,
            "paper_value": float(paper_value), "estimate": float(estimate), "ci_lo": float(ci_lo),
            "ci_hi": float(ci_hi), "n_tasks": float(n_tasks), "n_families": float(n_families),
            "tolerance": float(tolerance), "k": float(k), "n": float(n), "detail": str(detail),
            "level": float(level), "mc_error": float(mc_error), "power": float(power), "n_eff": float(n_eff),
            "mc_error_lo": float(mc_error_lo), "mc_error_hi": float(mc_error_hi),
            **{c: float(scheme.get(c, float("nan"))) for c in SCHEME_COLUMNS}}


def evidence_frame(rows: Iterable[Mapping[str, object]], *, scheme: bool = False) -> pd.DataFrame:
    """Evidence rows as a DataFrame with exactly :data:`EVIDENCE_COLUMNS` (an analysis's table), or
    :data:`ALL_EVIDENCE_COLUMNS` with ``scheme`` (the primary rows with their decision columns)."""
    return pd.DataFrame(list(rows), columns=ALL_EVIDENCE_COLUMNS if scheme else EVIDENCE_COLUMNS)


def effective_cases(flagged: Iterable[float], cases: Iterable[float], level: float = LEVEL) -> float:
    """Korn & Graubard's (1998) effective number of independent cases of a share ``sum(flagged) /
    sum(cases)`` whose cases come in families (``flagged[f]`` of ``cases[f]`` in family ``f``):
    ``n* = p (1 - p) / v`` with the between-family variance of the ratio
    ``v = F / (F - 1) sum_f (k_f - p n_f)^2 / n^2``, times ``(t_{n-1} / t_{F-1})^2`` at ``1 - a/2``
    (few families widen it), and never above ``n``. ``p`` of 0 or 1 leaves no variance to measure:
    then the number of families ``F``, the cases' worth when a family's cases all move together
    (the cautious end; Korn and Graubard keep ``n`` there).
    ``tests/verdicts/test_verdicts.py`` checks the coverage of :func:`prspace.verdicts.rule.clopper_pearson` with it by simulation."""
    from scipy import stats  # lazy: ~0.5 CPU s a process that never calls it
    k = np.asarray(list(flagged), dtype=np.float64)
    c = np.asarray(list(cases), dtype=np.float64)
    keep = c > 0
    k, c = k[keep], c[keep]
    n, fam = float(c.sum()), int(keep.sum())
    if n <= 0:
        return float("nan")
    p = float(k.sum()) / n
    if p <= 0 or p >= 1:
        return float(fam)
    if fam < 2:
        return n
    v = fam / (fam - 1) * float(np.sum((k - p * c) ** 2)) / n**2
    if v <= 0:
        return n
    q = 1.0 - (1.0 - level) / 2
    df_ratio = (stats.t.ppf(q, max(n - 1, 1)) / stats.t.ppf(q, fam - 1)) ** 2
    return float(min(n, p * (1 - p) / v * df_ratio))
