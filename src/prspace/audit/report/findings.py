"""The audit's findings: one function per check, registered in :data:`CHECKS`; :func:`find_issues` runs them.

Each check takes the :class:`Context` (the canonical data and the tables computed once)
and yields ``(where, message)`` pairs; :func:`check` registers it under its code and severity
and makes each pair a :class:`Finding`.  Per-model findings always name the model in
``where``.  Codes, severities and what fires them (``docs/audit.md`` has the table):

``aupr-below-min`` (error)
    AUPR < AUPR_MIN(pi), or (unit weights) AP < AP_MIN (Boyd et al. 2012, Theorems 2, 3),
    pooled or in a fold: no ranking can do this.
``inverted-scores`` (warning, first in the headline)
    A model's AUROC interval (the one the tables show; else DeLong's) lies below 0.5: its scores
    rank the negatives first, as ``predict_proba[:, 0]`` does.
``constant-scores`` (warning, in the headline)
    A model gives every row the same score, or one score holds at least :data:`NEAR_CONSTANT` of the
    positives and of the negatives: it ranks (almost) nothing.
``pooled-groups`` (warning, in the headline)
    A column not used splits every model's rows into the same few groups (a dataset or source
    label: :func:`prspace.audit.intake.columns.grouping_columns`): the groups are audited as one task.
``different-test-rows`` (warning, in the headline)
    Models of one task were scored on different test rows (counts, labels, folds or row
    ids differ), so their metrics and AUPR floors are not comparable and no paired test
    is possible.
``rows-dropped`` (warning)
    With row ids, some models lack a few rows the others have: the task is audited on the shared
    rows (:func:`prspace.audit.intake.rows.shared_rows`); says which rows and models.
``unpaired-rows`` (note)
    The models' rows have the same composition but no row ids pair them: no paired tests.
``own-folds`` (note)
    The models scored the same row ids with different fold assignments: paired by row id (folds
    ignored for the pairing); the per-fold tables use each model's own folds.
``duplicate-rows`` (warning)
    The same model, row id and fold occur twice, or every row of the file has an exact copy
    (a file concatenated to itself): duplicates count twice in every metric.
``hard-scores`` (warning)
    A model's scores take two values: hard 0/1 predictions, one operating point.
``skew-varies-folds`` / ``skew-varies-tasks`` (warning)
    The AUPR_MIN of the folds (of each named model) or of the tasks spread more than
    ``skew_tolerance`` (Boyd et al. 2012, 4.1-4.2); says whether averaging AUCNPR reorders.
    Folds stratified up to rounding are not flagged.
``worse-than-random`` (warning)
    AUPRG < 0 pooled or averaged over folds (Flach & Kull 2015, Figure 4).
``below-always-positive`` (warning)
    max_t F1(t) <= 2 pi / (1 + pi): never above the PRG minor diagonal (Flach & Kull 2015, 3.1).
``downsampled-test`` (warning)
    With ``train_pi``: test odds >= ``downsample_ratio`` x training odds (Boyd et al. 2012,
    4.3); quotes each model's AUPR re-weighted to ``train_pi``.
``estimators-disagree`` (note)
    The AUPR estimators of :func:`prspace.metrics.aupr_estimators` order the models differently.
``estimators-spread`` (note)
    One model's AUPR estimators differ by more than :data:`ESTIMATOR_SPREAD` on the same
    scores; says which two and the ties behind it.
``majority-positive`` (note)
    The positive class is the majority (pi > 0.5): allowed, and said.
``balanced-test``, ``fold-one-class`` (note)
    A test set exactly balanced without ``train_pi``; a fold holding one class.

The registry (:class:`Finding`, :class:`Context`, :func:`check`, :data:`CHECKS`) is
:mod:`prspace.audit.report.finding_types`; the checks of the rows and the scores (``aupr-below-min`` to
``hard-scores``) are :mod:`prspace.audit.report.row_findings`, imported first so that they register
first; the others are here, in the order above, beside the table in ``docs/audit.md`` (the text of
``skew-varies-folds`` is :mod:`prspace.audit.report.skew_findings`'s).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.audit.audit_numbers import compared, fmt
from prspace.audit.inference.tables import ESTIMATOR_LABELS, _metrics, groups, unit_tie_counts
from prspace.audit.inference.uncertainty import noise
from prspace.audit.report.finding_types import (
    CHECKS,
    SEVERITIES,
    SEVERITY,
    Context,
    Finding,
    check,
    findings,
    names,
)
from prspace.audit.report.row_findings import (  # registers the first checks
    constant_models,
    inverted_models,
)
from prspace.audit.report.skew_findings import (
    fold_skew_findings,
    fold_skew_parts,
    stratified_within_rounding,
)
from prspace.audit.report.tools import tools_by_estimator
from prspace.experiments import ranking

__all__ = ["CHECKS", "SEVERITIES", "SEVERITY", "Context", "Finding", "check", "constant_models", "find_issues",
           "findings", "fold_skew_findings", "inverted_models", "names", "stratified_within_rounding"]



@check("skew-varies-folds", "warning")
def skew_varies_folds(ctx: Context) -> Iterator[tuple[str, str]]:
    if len(ctx.folds):
        yield from fold_skew_parts(ctx.usable_folds, ctx.skew_tolerance, ctx.where)


@check("skew-varies-tasks", "warning")
def skew_varies_tasks(ctx: Context) -> Iterator[tuple[str, str]]:
    pooled = ctx.pooled
    per_task = pooled.groupby("task")[["pi", "aupr_min"]].mean()
    spread = float(per_task["aupr_min"].max() - per_task["aupr_min"].min())
    if not ctx.multi_task or spread <= ctx.skew_tolerance:
        return
    everywhere = pooled.groupby("model")["task"].nunique()
    sub = pooled[pooled["model"].isin(everywhere.index[everywhere == pooled["task"].nunique()])]
    consequence = ""
    if sub["model"].nunique() > 1:
        learners = ranking.learner_ranking_across_tasks(sub, ("aupr", "aucnpr"), group="task", learner="model")
        agree = ranking.learner_order_agreement(learners, ("aupr", "aucnpr"), learner="model").iloc[0]
        consequence = "; here averaging AUCNPR instead gives the same order of models"
        if agree["top1_differs"] or agree["spearman"] < 1 - 1e-12:
            consequence = ("; averaging AUCNPR instead reorders the models "
                           f"(best by mean AUPR: {agree['best_a']}; by mean AUCNPR: {agree['best_b']})")
    yield "across tasks", (
        f"the tasks' skews differ: pi from {per_task['pi'].min():.3f} to {per_task['pi'].max():.3f}, AUPR_MIN from "
        f"{per_task['aupr_min'].min():.3f} to {per_task['aupr_min'].max():.3f} (spread {spread:.3f} > "
        f"{ctx.skew_tolerance:g}); a mean of AUPR over tasks averages scores with different floors (Boyd et al. "
        f"2012, 4.2){consequence}. Prefer the mean AUCNPR")


@check("fold-one-class", "note")
def fold_one_class(ctx: Context) -> Iterator[tuple[str, str]]:
    if not len(ctx.folds):
        return
    one = ctx.folds[ctx.folds["one_class"].astype(bool)]
    for (task, model), g in one.groupby(["task", "model"], sort=True):
        yield ctx.where(task, model), (
            f"fold(s) {names([str(f) for f in g['fold']])} hold one class only: no AUPR of their own, left out of "
            "the fold means (their rows still count in the pooled metrics)")


@check("worse-than-random", "warning")
def worse_than_random(ctx: Context) -> Iterator[tuple[str, str]]:
    usable = ctx.usable_folds
    fold_means = usable.groupby(["task", "model"])["auprg"].mean() if "auprg" in usable.columns else {}
    for r in ctx.pooled.to_dict("records"):
        fold_mean = float(fold_means.get((r["task"], r["model"]), math.nan)) if len(fold_means) else math.nan
        which = []
        if r["auprg"] < 0:
            which.append(f"AUPRG = {r['auprg']:.3f} on the pooled test rows")
        if fold_mean < 0:
            which.append(f"AUPRG = {fold_mean:.3f} averaged over folds")
            if r["auprg"] >= 0:
                which[-1] += f" (pooled: {r['auprg']:.3f}; single folds with few positives swing widely)"
        if which:
            yield ctx.where(r["task"], r["model"]), (
                f"{' and '.join(which)}, below 0: in PRG space the model does worse than a random classifier, "
                "whose AUPRG is 0 (Flach & Kull 2015); check that higher scores mean 'more positive'")


def best_f1(y: np.ndarray, score: np.ndarray, weight: np.ndarray) -> float:
    """The best F1 over all thresholds, from the metrics module's PR points (unit weights and tied scores: from
    the class counts per tie group, the same points as :func:`prspace.metrics.pr_curve`'s)."""
    counts = unit_tie_counts(y, score, weight)
    if counts is not None and counts[0].any() and counts[1].any():
        keep = (counts[0] + counts[1]) > 0
        tps, fps = np.cumsum(counts[0][keep]).astype(np.float64), np.cumsum(counts[1][keep]).astype(np.float64)
        p = np.empty(tps.size + 1)
        p[1:] = tps / (tps + fps)
        p[0] = p[1]  # pr_curve's first-point rule
        r = np.r_[0.0, tps] / tps[-1]
    else:
        curve = M.pr_curve(y, score, sample_weight=weight)
        p, r = np.asarray(curve.precision), np.asarray(curve.recall)
    ok = (p + r) > 0
    return float(np.max(2 * p[ok] * r[ok] / (p[ok] + r[ok]))) if ok.any() else 0.0


@check("below-always-positive", "warning")
def below_always_positive(ctx: Context) -> Iterator[tuple[str, str]]:
    pis = ctx.pooled.set_index(["task", "model"])["pi"]
    y, s, w = ctx.data["y"].to_numpy(), ctx.data["score"].to_numpy(), ctx.data["weight"].to_numpy()
    for (task, model), idx in groups(ctx.data, "task", "model"):
        pi = float(pis.loc[(task, model)])
        best, baseline = best_f1(y[idx], s[idx], w[idx]), 2 * pi / (1 + pi)
        if best <= baseline * (1 + 1e-12):
            yield ctx.where(task, model), (
                f"no threshold beats the always-positive classifier: best F1 {best:.3f} <= {baseline:.3f} "
                "(= 2pi/(1+pi)); its PRG curve never rises above the minor diagonal, the baseline of PRG space "
                "(Flach & Kull 2015, 3.1). Predicting every example positive is at least as good")


@check("balanced-test", "note", per_task=True)
def balanced_test(ctx: Context, task: str, g: pd.DataFrame) -> Iterator[tuple[str, str]]:
    n_pos, n_neg = float(g["n_pos"].iloc[0]), float(g["n_neg"].iloc[0])
    if (ctx.train_pi or {}).get(task) is None and abs(n_pos - n_neg) <= 1e-9 * max(n_pos, 1.0) \
            and n_pos + n_neg >= 10:
        yield ctx.where(task), (
            "the test set is exactly balanced (as many positives as negatives); if it was downsampled, its "
            "AUPR overstates AUPR at the real skew: pass the real prevalence with --train-pi to see by how much")


@check("downsampled-test", "warning", per_task=True)
def downsampled_test(ctx: Context, task: str, g: pd.DataFrame) -> Iterator[tuple[str, str]]:
    pi, tp = float(g["pi"].iloc[0]), (ctx.train_pi or {}).get(task)
    if tp is None or (pi / (1 - pi)) / (tp / (1 - tp)) < ctx.downsample_ratio:
        return
    parts = []
    for model, gm in ctx.data[ctx.data["task"] == task].groupby("model", sort=True):
        y, s, w = gm["y"].to_numpy(), gm["score"].to_numpy(), gm["weight"].to_numpy()
        m_pi = float(w[y].sum() / w.sum())
        factor = (m_pi / (1 - m_pi)) / (tp / (1 - tp))  # negatives weighted up to reach train_pi
        rew = _metrics(y, s, np.where(y, w, w * factor), ctx.where(task, model))
        before, after = compared(float(g.loc[g["model"] == model, "aupr"].iloc[0]), rew["aupr"])
        parts.append(f"{model} {before} -> {after}")
    ratio = (pi / (1 - pi)) / (tp / (1 - tp))
    yield ctx.where(task), (
        f"the test set (pi = {pi:.3f}) is more balanced than the training data (pi = {tp:.3f}; odds ratio "
        f"{ratio:.1f} >= {ctx.downsample_ratio:g}); AUPR on it is optimistic for the real skew (Boyd et al. "
        f"2012, 4.3). AUPR re-weighted to pi = {tp:.3f}, assuming the test negatives are a uniform random "
        f"subsample: {'; '.join(parts)}")


@check("estimators-disagree", "note")
def estimators_disagree(ctx: Context) -> Iterator[tuple[str, str]]:
    cols = list(M.AUPR_ESTIMATORS)
    for task, g in ctx.estimators.groupby("task", sort=True):
        if len(g) < 2:
            continue
        ranks = ranking.rank_models(g, cols, group="task", model="model").set_index("model")
        best = {c: sorted(ranks.index[ranks[c] == ranks[c].min()]) for c in cols}
        orders = {tuple(ranks[c].sort_values(kind="stable").index) for c in cols}
        if len(orders) == 1:
            continue
        if len({tuple(v) for v in best.values()}) == 1:
            picks = f"all pick {names(best[cols[0]])} as best, the rest differs"
        else:
            picks = "best by " + "; ".join(f"{ESTIMATOR_LABELS[c]}: {names(best[c])}" for c in cols)
        flips = ranking.flipped_pairs(g, "step", "hyperbolic", group="task", model="model")
        extra = ""
        if len(flips):
            first, second = flips.iloc[0]["first"], flips.iloc[0]["second"]
            extra = (f"; e.g. {first} beats {second} by step AP but loses by the hyperbolic AUPR ("
                     f"{noise(ctx.comparisons, task, 'average_precision', first, second)}; "
                     f"{noise(ctx.comparisons, task, 'aupr', second, first)})")
        yield ctx.where(task), (
            f"the AUPR estimators order the models differently ({picks}){extra}; which \"AUPRC\" a "
            "tool computes changes the ranking (see the estimators table)")


@check("majority-positive", "note", per_task=True)
def majority_positive(ctx: Context, task: str, g: pd.DataFrame) -> Iterator[tuple[str, str]]:
    pi = float(g["pi"].iloc[0])
    if pi > 0.5:
        yield ctx.where(task), (
            f"the positive class is the majority (pi = {fmt(pi)}): the audit computes every metric with it as "
            f"the positive class, as asked, but AUPR's floor AUPR_MIN is then {fmt(float(g['aupr_min'].iloc[0]))} "
            "and AUPR says little about the rare class; if the class of interest is the other one, pass it "
            "with --pos-label")


#: ``estimators-spread`` fires when a model's AUPR estimators differ by more than this (AUPR units).
ESTIMATOR_SPREAD = 0.05


@check("estimators-spread", "note")
def estimators_spread(ctx: Context) -> Iterator[tuple[str, str]]:
    """One model's AUPR estimators far apart on the same scores: ties (or few points) between which the
    estimators interpolate differently (a step, a straight line, a hyperbola, the line from (0, 1))."""
    cols = list(M.AUPR_ESTIMATORS)
    for r in ctx.estimators.to_dict("records"):
        values = {c: float(r[c]) for c in cols}
        hi, lo = max(values, key=values.get), min(values, key=values.get)
        spread = values[hi] - values[lo]
        if not spread > ESTIMATOR_SPREAD:
            continue
        g = ctx.data[(ctx.data["task"] == r["task"]) & (ctx.data["model"] == r["model"])]
        sizes = g.groupby("score").size()
        largest = int(sizes.max())
        v_lo, v_hi = compared(values[lo], values[hi])
        tools = tools_by_estimator()
        ties = (f"its {len(g)} rows take {len(sizes)} distinct scores and the largest tie group holds {largest} "
                f"rows ({largest / len(g):.0%})")
        why = ("the estimators differ in how they cross a group of tied scores (a step, a straight line, a "
               "hyperbola, or a line from (0, 1)), and " + ties) if largest > 1 else (
               "with few positives the curve has few points between which the estimators interpolate "
               f"differently ({ties})")
        yield ctx.where(r["task"], r["model"]), (
            f"the AUPR estimators spread by {fmt(spread)} on the same scores, from {ESTIMATOR_LABELS[lo]} {v_lo}"
            f"{tools.get(lo, '')} to {ESTIMATOR_LABELS[hi]} {v_hi}{tools.get(hi, '')} (> {ESTIMATOR_SPREAD:g}): {why}; "
            "say which estimator a reported "
            "\"AUPRC\" is (see the estimators table)")


def find_issues(ctx: Context) -> list[Finding]:
    """Run every registered check: the findings, errors first, then warnings, then notes.

    The checks are those of :data:`CHECKS`, in the order they were registered (that of the module
    docstring) within each severity.

    Parameters
    ----------
    ctx : Context
        The canonical data and the tables every check reads.

    Returns
    -------
    list of Finding
        Every finding, sorted by severity (:data:`SEVERITIES`).

    See Also
    --------
    Context : What the checks read.
    fold_skew_findings : One of the checks, on a per-fold table alone.
    prspace.audit.audit : The audit, whose result holds its findings.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import Context, find_issues, fold_metrics, pooled_metrics, prepare, resolve_columns
    >>> from prspace.audit.inference.tables import estimator_table
    >>> df = pd.DataFrame({"model": ["a"] * 6 + ["b"] * 6, "y_true": [1, 0, 1, 0, 0, 0] * 2,
    ...                    "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.1, 0.9, 0.2, 0.8, 0.7, 0.6]})
    >>> data, _ = prepare(df, resolve_columns(df.columns))
    >>> ctx = Context(data, pooled_metrics(data), fold_metrics(data), estimator_table(data), {"all": True}, {"n": 0})
    >>> [(f.severity, f.code, f.where) for f in find_issues(ctx)][:3]
    [('warning', 'worse-than-random', 'model b'), ('warning', 'below-always-positive', 'model b'), ('note', 'estimators-spread', 'model a')]
    """
    out = [f for fn in CHECKS.values() for f in fn(ctx)]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(out, key=lambda f: order[f.severity])
