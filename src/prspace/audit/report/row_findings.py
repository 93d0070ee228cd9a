"""The audit's findings about the rows and the scores (registered in
:data:`prspace.audit.report.finding_types.CHECKS`, in the order of :mod:`prspace.audit.report.findings`'s list):
``aupr-below-min``, ``inverted-scores``, ``constant-scores``, ``pooled-groups``, ``group-column``,
``different-test-rows``, ``rows-dropped``, ``own-folds``, ``unpaired-rows``, ``duplicate-rows`` and
``hard-scores``; what fires each is in the docstring of :mod:`prspace.audit.report.findings`.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from prspace.audit.audit_numbers import count, difference, fmt, percents
from prspace.audit.inference.tables import groups
from prspace.audit.inference.uncertainty import headline_interval
from prspace.audit.report.finding_types import Context, check, names


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
