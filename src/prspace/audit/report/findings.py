"""The audit's findings: one function per check, registered in :data:`CHECKS`.

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

One module of about 470 lines on purpose: it is the registry of checks, each a short function
registered under its code, and one file lists every check the report can raise, in the order
above, beside the table in ``docs/audit.md``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.audit.inference.tables import ESTIMATOR_LABELS, _metrics, groups, unit_tie_counts
from prspace.audit.inference.uncertainty import headline_interval, noise
from prspace.audit.report.audit_numbers import compared, count, difference, fmt, percents
from prspace.audit.report.tools import tools_by_estimator
from prspace.experiments import ranking

SEVERITIES = ("error", "warning", "note")


@dataclasses.dataclass(frozen=True)
class Finding:
    """One thing the audit noticed: ``severity`` is error, warning or note."""

    code: str
    severity: str
    where: str
    message: str


@dataclasses.dataclass
class Context:
    """What the checks read: the canonical data and the tables, computed once."""

    data: pd.DataFrame
    pooled: pd.DataFrame
    folds: pd.DataFrame
    estimators: pd.DataFrame
    comparable: dict[str, bool]
    duplicates: dict[str, object]
    train_pi: dict[str, float] | None = None
    comparisons: pd.DataFrame | None = None
    skew_tolerance: float = 0.02
    downsample_ratio: float = 1.5
    tol: float = 1e-9
    paired: dict[str, bool] | None = None
    dropped: list[dict] | None = None
    own_folds: dict[str, bool] | None = None
    intervals: pd.DataFrame | None = None
    #: columns not used that split every model's rows into the same few groups: column -> its values
    groupings: dict[str, list[str]] | None = None
    #: columns not used whose values repeat within every task and model (a patient id?)
    group_candidates: list[str] | None = None

    @property
    def multi_task(self) -> bool:
        return self.pooled["task"].nunique() > 1

    @property
    def usable_folds(self) -> pd.DataFrame:
        return self.folds[~self.folds["one_class"].astype(bool)] if len(self.folds) else self.folds

    def where(self, task: str, model: str | None = None, fold: str | None = None) -> str:
        parts = [f"task {task}"] if self.multi_task else []
        if model is not None:
            parts.append(f"model {model}")
        if fold is not None:
            parts.append(f"fold {fold}")
        return ", ".join(parts)


def names(models: Sequence[str]) -> str:
    models = [str(m) for m in models]
    if len(models) <= 1:
        return "".join(models)
    return ", ".join(models[:-1]) + " and " + models[-1]


CHECKS: dict[str, Callable[[Context], list[Finding]]] = {}
#: Each registered code's severity.
SEVERITY: dict[str, str] = {}


def findings(code: str, parts: Iterable[tuple[str, str]]) -> list[Finding]:
    """One :class:`Finding` of ``code`` (at its registered severity) per ``(where, message)``."""
    return [Finding(code, SEVERITY[code], where, message) for where, message in parts]


def check(code: str, severity: str, *, per_task: bool = False):
    """Register a check under its finding code and severity: the check yields ``(where, message)``
    pairs, the registry makes them :class:`Finding` s. ``per_task``: the check is called once per task
    as ``fn(ctx, task, rows)`` with the task's pooled rows, tasks in sorted order."""

    def register(fn: Callable[..., Iterable[tuple[str, str]]]) -> Callable[[Context], list[Finding]]:
        @functools.wraps(fn)
        def run(ctx: Context) -> list[Finding]:
            if per_task:
                return findings(code, (part for task, g in ctx.pooled.groupby("task", sort=True)
                                       for part in fn(ctx, task, g)))
            return findings(code, fn(ctx))

        SEVERITY[code] = severity
        CHECKS[code] = run
        return run

    return register


@check("aupr-below-min", "error")
def aupr_below_min(ctx: Context) -> Iterator[tuple[str, str]]:
    rows = [(r, None) for r in ctx.pooled.to_dict("records")]
    rows += [(r, r["fold"]) for r in ctx.usable_folds.to_dict("records")]
    for r, fold in rows:
        for value, floor, name in ((r["aupr"], r["aupr_min"], "AUPR"), (r["average_precision"], r["ap_min"], "AP")):
            if value < floor - ctx.tol:
                yield ctx.where(r["task"], r["model"], fold), (
                    f"{name} = {value:.4f} is below its minimum {floor:.4f} for pi = {r['pi']:.4f}, which no ranking "
                    "can reach: the labels, scores or weights are not what they should be (check the label "
                    "encoding, --pos-label and the row alignment of scores and labels)")


#: ``constant-scores``: one score holding at least this share of the positives and of the negatives
NEAR_CONSTANT = 0.9


def inverted_models(pooled: pd.DataFrame, intervals: pd.DataFrame | None) -> list[dict]:
    """Models whose AUROC interval lies below 0.5: the interval the tables show
    (:func:`prspace.audit.inference.uncertainty.headline_interval`), else DeLong's (logit, then plain); one record
    per model: ``task, model, auroc, lo, hi``."""
    if intervals is None or not len(intervals):
        return []
    out = []
    auroc = intervals[intervals["metric"] == "auroc"]
    for r in pooled.to_dict("records"):
        ci = headline_interval(intervals, r["task"], r["model"], "auroc")
        if ci is None:
            sub = auroc[(auroc["task"] == r["task"]) & (auroc["model"] == r["model"])
                        & auroc["method"].isin(("DeLong (logit)", "DeLong"))].sort_values("method", ascending=False)
            sub = sub[np.isfinite(sub["hi"].to_numpy(np.float64))]
            ci = (float(sub["lo"].iloc[0]), float(sub["hi"].iloc[0])) if len(sub) else None
        if ci is not None and ci[1] < 0.5:
            out.append({"task": r["task"], "model": r["model"], "auroc": float(r["auroc"]), "lo": ci[0], "hi": ci[1]})
    return out


def constant_models(data: pd.DataFrame) -> list[dict]:
    """Models that rank (almost) nothing: one score for every row, or one score holding at least
    :data:`NEAR_CONSTANT` of the positives and of the negatives; one record per model: ``task, model,
    value`` (the most common score), ``n_values``, ``share_pos``, ``share_neg``, ``n_rows``."""
    out = []
    s_all, y_all = data["score"].to_numpy(), data["y"].to_numpy(bool)
    for (task, model), idx in groups(data, "task", "model"):
        s, y = s_all[idx], y_all[idx]
        values, counts = np.unique(s, return_counts=True)
        top = int(np.argmax(counts))
        at = s == values[top]  # the rows of the most common score
        share_pos, share_neg = float(at[y].mean()), float(at[~y].mean())
        if len(values) == 1 or min(share_pos, share_neg) >= NEAR_CONSTANT:
            out.append({"task": task, "model": model, "value": float(values[top]), "n_values": len(values),
                        "share_pos": share_pos, "share_neg": share_neg, "n_rows": len(s)})
    return out


@check("inverted-scores", "warning")
def inverted_scores(ctx: Context) -> Iterator[tuple[str, str]]:
    for r in inverted_models(ctx.pooled, ctx.intervals):
        lo, hi = difference(r["auroc"], r["lo"], r["hi"])[1:]
        yield ctx.where(r["task"], r["model"]), (
            f"AUROC = {fmt(r['auroc'])} with its interval [{lo}, {hi}] below 0.5: the scores rank the negatives "
            "first, so they look inverted (did you pass predict_proba[:, 0], the other class's probability, or a "
            "distance where larger means 'more negative'?); pass the positive class's score (predict_proba[:, 1], "
            "or minus the score); every metric of this model measures the inverted ranking")


@check("constant-scores", "warning")
def constant_scores(ctx: Context) -> Iterator[tuple[str, str]]:
    for r in constant_models(ctx.data):
        if r["n_values"] == 1:
            what = (f"every one of its {count(r['n_rows'])} rows has the score {r['value']:g}: it ranks nothing "
                    "(AUROC 0.5, AP = pi by construction)")
        else:
            p, n = percents(r["share_pos"], r["share_neg"])
            what = (f"the score {r['value']:g} holds {p} of the positives and {n} of the negatives (of "
                    f"{r['n_values']} distinct scores): it ranks almost nothing, and its curves rest on the few "
                    "other rows")
        yield ctx.where(r["task"], r["model"]), (
            f"near-constant or constant scores: {what}; check that the score column holds the model's scores "
            "(a probability or decision value, not a label, a rounded value or a fold's prior)")


@check("pooled-groups", "warning")
def pooled_groups(ctx: Context) -> Iterator[tuple[str, str]]:
    for name, values in (ctx.groupings or {}).items():
        shown = ", ".join(repr(v) for v in values[:5]) + (", ..." if len(values) > 5 else "")
        yield "", (
            f"column {name!r} splits every model's rows into the same {len(values)} groups ({shown}), as a dataset "
            f"or source label does; they are audited as one task, pooled: pass --task-col {name} to audit each "
            f"group as its own task, or --ignore-col {name} to pool them knowingly")


@check("group-column", "warning")
def group_column(ctx: Context) -> Iterator[tuple[str, str]]:
    for name in ctx.group_candidates or []:
        n = ctx.data.groupby(["task", "model"]).size().min()
        yield "", (
            f"column {name!r} repeats its values within every task and model (a patient, subject or site id?); "
            f"rows that share a value are resampled here as if independent ({n} rows each), which makes "
            f"the intervals too narrow and the paired tests too eager when they are correlated: pass "
            f"--group-col {name} to resample its groups whole, or --ignore-col {name} if its rows are independent")


@check("different-test-rows", "warning", per_task=True)
def different_test_rows(ctx: Context, task: str, g: pd.DataFrame) -> Iterator[tuple[str, str]]:
    if ctx.comparable.get(task, True):
        return
    parts = [f"{r['model']} on {count(r['n_rows'])} rows (pi = {r['pi']:.3f})" for r in g.to_dict("records")]
    yield ctx.where(task), (
        f"the models were not scored on the same test rows ({'; '.join(parts)}), so their metrics are not "
        "comparable: AUPR and its floor AUPR_MIN depend on the test set's skew, and any difference between "
        "the metrics' rankings may come from the data, not the models; no paired test is possible. "
        f"Score every model on the same test rows{_same_rows_hint(ctx, task, g)}")


def _same_rows_hint(ctx: Context, task: str, g: pd.DataFrame) -> str:
    """Without row ids, models with the same counts of rows and positives may be the same rows in other
    folds or another order: a row id column would pair them (``own-folds``)."""
    rows = ctx.data[ctx.data["task"] == task]
    if rows["row"].notna().all() or g["n_rows"].nunique() > 1 or g["n_pos"].nunique() > 1:
        return ""
    return ("; if they are the same rows in other folds or another order, add a column that identifies the "
            "test rows and pass it with --row-col: models on the same row ids are paired whatever their folds")


@check("rows-dropped", "warning")
def rows_dropped(ctx: Context) -> Iterator[tuple[str, str]]:
    for task in sorted({d["task"] for d in ctx.dropped or []}):
        rows = [d for d in ctx.dropped or [] if d["task"] == task]
        n_shared = rows[0]["n_shared"]
        lost = [d for d in rows if d["n_dropped"]]
        lacking = [d for d in rows if d["n_missing"]]
        parts = [f"{d['model']} lacks {d['n_missing']} (row id(s) {', '.join(d['missing'])}"
                 f"{', ...' if d['n_missing'] > len(d['missing']) else ''})" for d in lacking]
        gone = "; ".join(f"{d['n_dropped']} of {d['model']}'s {d['n_rows']}" for d in lost)
        yield ctx.where(task), (
            f"the models were not all scored on the same rows: {'; '.join(parts)}; so the task is audited on the "
            f"{n_shared} rows every model scored, and these rows were dropped: {gone}. Every metric, interval and "
            "paired test of the task is on the shared rows; score every model on every row to audit them all")


@check("own-folds", "note", per_task=True)
def own_folds(ctx: Context, task: str, g: pd.DataFrame) -> Iterator[tuple[str, str]]:
    if not (ctx.own_folds or {}).get(task):
        return
    rows = ctx.data[ctx.data["task"] == task]
    n_rows = rows.groupby("model").size()
    n_folds = rows.groupby("model")["fold"].nunique()
    yield ctx.where(task), (
        f"the models were cross-validated with different fold assignments on the same {count(n_rows.iloc[0])} row "
        f"ids and labels ({'; '.join(f'{m}: {count(n_folds[m])} folds' for m in n_folds.index)}), so they are "
        "paired by row id, the folds ignored for the pairing (the bootstrap and jackknife resample within class); "
        "the per-fold tables use each model's own folds, which differ between models")


@check("unpaired-rows", "note", per_task=True)
def unpaired_rows(ctx: Context, task: str, g: pd.DataFrame) -> Iterator[tuple[str, str]]:
    if len(g) > 1 and ctx.comparable.get(task, True) and not (ctx.paired or {}).get(task, True):
        yield ctx.where(task), (
            "the models' test rows have the same folds and classes but cannot be paired (no row id column, "
            "and the rows are in different orders), so the paired tests were skipped and each disagreement "
            "is reported without its noise floor: name the row id column with --row-col")


@check("duplicate-rows", "warning")
def duplicate_rows(ctx: Context) -> Iterator[tuple[str, str]]:
    d = ctx.duplicates
    if not d.get("n"):
        return
    yield f"model {names(d['models'])}", (
        f"{d['n']} of {d['total']} rows are exact copies of earlier rows ({d['how']}; first: data row "
        f"{d['first']}); every copy counts again in every metric and narrows every interval. If the file "
        "was concatenated to itself, drop the copies")


@check("hard-scores", "warning")
def hard_scores(ctx: Context) -> Iterator[tuple[str, str]]:
    score = ctx.data["score"].to_numpy()
    for (task, model), idx in groups(ctx.data, "task", "model"):
        values = np.unique(score[idx])
        if len(values) == 2:  # one value: constant-scores
            shown = " and ".join(f"{v:g}" for v in values)
            yield ctx.where(task, model), (
                f"the scores take only the value(s) {shown}: hard predictions, not scores, so the ROC, PR and PRG "
                "curves have a single operating point and every area measures that one threshold; pass the "
                "model's predicted probability or decision value instead")


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
    """``skew-varies-folds``: per task, the models whose folds' AUPR_MIN spread exceeds the tolerance,
    unless the folds are stratified up to rounding (:func:`stratified_within_rounding`)."""
    return findings("skew-varies-folds", _fold_skew(folds, skew_tolerance, where))


def _fold_skew(folds: pd.DataFrame, skew_tolerance: float, where: Callable[..., str]) -> Iterator[tuple[str, str]]:
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


@check("skew-varies-folds", "warning")
def skew_varies_folds(ctx: Context) -> Iterator[tuple[str, str]]:
    if len(ctx.folds):
        yield from _fold_skew(ctx.usable_folds, ctx.skew_tolerance, ctx.where)


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
    """Every registered check, errors first, then warnings, then notes."""
    out = [f for fn in CHECKS.values() for f in fn(ctx)]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(out, key=lambda f: order[f.severity])
