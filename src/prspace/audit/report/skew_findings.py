"""The ``skew-varies-folds`` finding: the folds of a model whose AUPR_MIN spread beyond the tolerance.

:func:`fold_skew_findings` is the check on a per-fold table alone (the public one); its text, per task,
is :func:`fold_skew_parts`, which :func:`prspace.audit.report.findings.skew_varies_folds` registers;
folds stratified up to rounding (:func:`stratified_within_rounding`) are not flagged (Boyd et al.
2012, 4.1). The names are also importable from :mod:`prspace.audit.report.findings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd

from prspace.audit.audit_numbers import compared, fmt
from prspace.audit.report.finding_types import Finding, findings, names
from prspace.experiments import ranking


def stratified_within_rounding(g: pd.DataFrame) -> bool:
    """Every fold's positives lie within 1 of the stratified share ``P n_f / N`` of its model's positives.

    A stratified split deals each class's rows out one by one, so fold f gets ``p_f = P / k + a`` positives
    and ``q_f = Q / k + b`` negatives with ``|a|, |b| < 1``; then ``p_f - P n_f / N = (a Q - b P) / N`` lies
    strictly between -1 and 1.  Folds within that band differ in skew by rounding alone, which no split can
    avoid (e.g. 71 positives in 10 folds of 17 or 18 rows)."""
    n = g["n_pos"].astype(float) + g["n_neg"].astype(float)
    share = g.groupby("model")["n_pos"].transform("sum") / n.groupby(g["model"]).transform("sum")
    return bool((np.abs(g["n_pos"].astype(float) - share * n) < 1.0 + 1e-9).all())


def fold_skew_findings(folds: pd.DataFrame, *, skew_tolerance: float = 0.02,
                       where: Callable[..., str] = lambda task, model=None: "" if model is None else f"model {model}",
                       ) -> list[Finding]:
    """``skew-varies-folds``: per task, the models whose folds' AUPR_MIN spread exceeds the tolerance.

    Folds stratified up to rounding (:func:`stratified_within_rounding`) are not flagged; the
    message says whether averaging AUCNPR instead of AUPR reorders the models (Boyd et al. 2012, 4.1).

    Parameters
    ----------
    folds : pandas.DataFrame
        The per-fold table (:func:`prspace.audit.fold_metrics`; ``n_pos`` and ``n_neg`` for the
        stratification test, which is skipped without them).
    skew_tolerance : float, default 0.02
        A spread of AUPR_MIN over a model's folds above this is flagged.
    where : callable, optional
        ``where(task, model=None)``: where a finding is, in words (:meth:`prspace.audit.Context.where`); default
        ``"model m"``.

    Returns
    -------
    list of Finding
        One ``skew-varies-folds`` warning per task whose folds' skew varies; empty otherwise.

    See Also
    --------
    prspace.audit.find_issues : Every check, this one among them.
    prspace.metrics.aupr_min : The floor AUPR_MIN of a prevalence.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import fold_metrics, fold_skew_findings, prepare, resolve_columns
    >>> df = pd.DataFrame({"y_true": [1, 1, 1, 1, 0, 0] + [1, 0, 0, 0, 0, 0], "fold": [0] * 6 + [1] * 6,
    ...                    "score": [0.9, 0.8, 0.7, 0.3, 0.4, 0.1, 0.9, 0.2, 0.6, 0.4, 0.3, 0.1]})
    >>> data, _ = prepare(df, resolve_columns(df.columns))
    >>> [(f.code, f.severity) for f in fold_skew_findings(fold_metrics(data))]
    [('skew-varies-folds', 'warning')]
    >>> fold_skew_findings(fold_metrics(data), skew_tolerance=0.5)
    []
    """
    return findings("skew-varies-folds", fold_skew_parts(folds, skew_tolerance, where))


def fold_skew_parts(folds: pd.DataFrame, skew_tolerance: float, where: Callable[..., str]) -> Iterator[tuple[str, str]]:
    for task, g in folds.groupby("task", sort=True):
        if "n_pos" in g.columns and stratified_within_rounding(g):
            continue
        spread = g.groupby("model")["aupr_min"].agg(lambda s: s.max() - s.min())
        varying = sorted(spread.index[spread > skew_tolerance])
        if not varying:
            continue
        gm = g[g["model"] == spread.idxmax()]
        means = g.groupby("model")[["aupr", "aucnpr"]].mean().reset_index().assign(task=task)
        flips = ranking.flipped_pairs(means, "aupr", "aucnpr", group="task", model="model")
        consequence = "here averaging AUCNPR instead gives the same order of models"
        if len(flips):
            f = flips.iloc[0]
            a1, a2 = compared(f["aupr_first"], f["aupr_second"])
            c1, c2 = compared(f["aucnpr_first"], f["aucnpr_second"])
            consequence = (
                f"averaging AUCNPR instead reorders the models: {f['first']} beats {f['second']} by mean AUPR "
                f"({a1} vs {a2}) but loses by mean AUCNPR ({c1} vs {c2})"
                + (f", and {len(flips) - 1} more pair(s) swap" if len(flips) > 1 else ""))
        every = len(varying) == spread.shape[0]
        who = "every model's folds" if every else f"the folds of {names(varying)}"
        pi_lo, pi_hi = compared(gm["pi"].min(), gm["pi"].max())
        m_lo, m_hi = compared(gm["aupr_min"].min(), gm["aupr_min"].max())
        yield where(task) if every else where(task, names(varying)), (
            f"{who} differ in skew: pi from {pi_lo} to {pi_hi}, so AUPR_MIN from "
            f"{m_lo} to {m_hi} (spread {fmt(spread.max())} > "
            f"{skew_tolerance:g}); a mean of AUPR over these folds averages scores with different floors (Boyd "
            f"et al. 2012, 4.1); {consequence}. Prefer the pooled AUPR or the mean AUCNPR")
