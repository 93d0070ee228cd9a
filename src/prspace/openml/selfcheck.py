"""Self-check against OpenML's own evaluation engine: our AUROC of a run's predictions vs the server's.

Every OpenML run description carries the server's ``area_under_roc_curve``, computed by the
evaluation engine (openml/EvaluationEngine, ``EvaluateBatchPredictions.java``) from the same
predictions file: a *global* Weka ``Evaluation`` receives every prediction of every repeat and
fold (so the overall value is **pooled** over all test folds and all repeats, not a fold mean),
and one ``Evaluation`` per (repeat, fold) gives the per-fold values (``<oml:evaluation
repeat="R" fold="F">``).  The value is Weka's ``weightedAreaUnderROC`` (``io/Output.java``): the
class-size weighted mean of the one-vs-rest AUCs, which for a binary task whose two
confidences sum to one equals the AUC of either class.  The server prints 6 decimals.

We compare like with like: per (repeat, fold), our AUROC of that test fold; overall, our AUROC
of all rows of all repeats pooled, compared only when the predictions hold every repeat of the
task (the paper's protocol keeps repeat 0, so on a 10 x 10-fold task only the folds of repeat 0
are compared).  A value is a disagreement when ``|difference| > TOLERANCE`` (1e-4; printing to
6 decimals alone accounts for at most 5e-7).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from prspace.core.contracts import ok_predictions
from prspace.metrics import auroc

TOLERANCE = 1e-4
CHECK_COLUMNS = [
    "task_id", "model_id", "run_id", "flow_id", "scope", "repeat", "fold",
    "server_auroc", "our_auroc", "abs_diff", "agrees", "likely_cause",
]


def _cause(scope: str, server: float, ours: float, fold_means: float | None, folds_agree: bool | None) -> str:
    if abs(server - (1.0 - ours)) <= TOLERANCE:
        return ("the server's value is 1 - ours: it scored the other class's confidence "
                "(confidence columns or labels swapped in the file the server evaluated)")
    if scope == "overall" and fold_means is not None and abs(server - fold_means) <= TOLERANCE:
        return "the server's overall value equals the mean of the fold values, not the pooled AUROC"
    if scope == "overall" and folds_agree:
        return ("every fold agrees but the overall value does not: the server's overall evaluation is "
                "stale or was computed on other rows; the per-fold values are the check")
    return ("the predictions file differs from what the server evaluated (file replaced after the "
            "evaluation, or a stale server evaluation); check the run on OpenML")


def compare_task(
    predictions: pd.DataFrame, runs: list[dict[str, Any]], *, task_repeats: int | None
) -> pd.DataFrame:
    """One row per compared value (columns :data:`CHECK_COLUMNS`) for one task.

    ``predictions``: the task's predictions (:mod:`prspace.core.schema`); ``runs``: the status
    JSON's run details (``run_id``, ``flow_id``, ``server_auroc``, ``server_fold_auroc`` keyed
    ``"repeat:fold"``); ``task_repeats``: the task's number of CV repeats (the overall value is
    compared only when the predictions hold all of them).
    """
    rows: list[dict[str, Any]] = []
    kept_repeats = set(pd.unique(predictions["repeat"]).tolist())
    pooled_ok = task_repeats is not None and len(kept_repeats) == task_repeats
    for run in runs:
        mid = f"run-{run['run_id']}"
        g = predictions[predictions["model_id"] == mid]
        if g.empty:
            continue
        base = {"task_id": str(g["task_id"].iloc[0]), "model_id": mid, "run_id": int(run["run_id"]),
                "flow_id": str(run["flow_id"])}
        fold_rows = []
        ours_by_fold = {}
        for (r, f), gf in g.groupby(["repeat", "fold"], sort=True):
            y = gf["y_true"].to_numpy()
            ours_by_fold[(int(r), int(f))] = auroc(y, gf["score"].to_numpy()) if 0 < y.sum() < len(y) else np.nan
        for key, server in (run.get("server_fold_auroc") or {}).items():
            r, f = (int(x) for x in str(key).split(":"))
            if server is None or (r, f) not in ours_by_fold or not np.isfinite(ours_by_fold[(r, f)]):
                continue
            ours = ours_by_fold[(r, f)]
            fold_rows.append(dict(base, scope="fold", repeat=r, fold=f, server_auroc=float(server), our_auroc=ours))
        folds_agree = all(abs(x["server_auroc"] - x["our_auroc"]) <= TOLERANCE for x in fold_rows) if fold_rows else None
        fold_mean = float(np.nanmean(list(ours_by_fold.values()))) if ours_by_fold else None
        for x in fold_rows:
            d = abs(x["server_auroc"] - x["our_auroc"])
            x.update(abs_diff=d, agrees=d <= TOLERANCE,
                     likely_cause="" if d <= TOLERANCE else _cause("fold", x["server_auroc"], x["our_auroc"], None, None))
        rows += fold_rows
        server = run.get("server_auroc")
        if server is not None and pooled_ok:
            ours = auroc(g["y_true"].to_numpy(), g["score"].to_numpy())
            d = abs(float(server) - ours)
            rows.append(dict(base, scope="overall", repeat=-1, fold=-1, server_auroc=float(server), our_auroc=ours,
                             abs_diff=d, agrees=d <= TOLERANCE,
                             likely_cause="" if d <= TOLERANCE else _cause("overall", float(server), ours,
                                                                          fold_mean, folds_agree)))
    return pd.DataFrame(rows, columns=CHECK_COLUMNS)


def stack_checks(parts: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """The tasks' check tables (:func:`compare_task`) as one, sorted by task, model, scope, repeat
    and fold; with no compared value, an empty table with :data:`CHECK_COLUMNS`."""
    parts = [p for p in parts if len(p)]
    checks = pd.concat(parts or [pd.DataFrame(columns=CHECK_COLUMNS)], ignore_index=True)
    return checks.sort_values(["task_id", "model_id", "scope", "repeat", "fold"], ignore_index=True)


def check_statuses(status_paths: Iterable[str | os.PathLike[str]]) -> pd.DataFrame:
    """The self-check of a study: :func:`compare_task` on every ``ok`` task status (its
    predictions file, the run details and the task's repeats it records), stacked by
    :func:`stack_checks`; skipped tasks are left out."""
    return stack_checks([compare_task(df, st.get("runs") or [], task_repeats=st.get("task_repeats"))
                         for st, df, _ in ok_predictions(status_paths, progress="self-check")])


def summarize(checks: pd.DataFrame) -> pd.DataFrame:
    """The agreement in a few lines: ``statistic, value`` rows (runs compared, max and median
    |difference| overall and per fold, and every run differing by more than :data:`TOLERANCE`)."""
    out: list[tuple[str, Any]] = [
        ("runs compared", int(checks["model_id"].nunique()) if len(checks) else 0),
        ("tasks compared", int(checks["task_id"].nunique()) if len(checks) else 0),
    ]
    for scope, label in (("overall", "overall (pooled over all folds and repeats)"), ("fold", "per fold")):
        sub = checks[checks["scope"] == scope]
        out.append((f"values compared, {label}", len(sub)))
        if len(sub):
            out.append((f"max |difference|, {label}", float(sub["abs_diff"].max())))
            out.append((f"median |difference|, {label}", float(sub["abs_diff"].median())))
    bad = checks[~checks["agrees"].astype(bool)]
    out.append((f"runs differing by more than {TOLERANCE:g}", int(bad["model_id"].nunique()) if len(bad) else 0))
    for (task, mid), g in bad.groupby(["task_id", "model_id"], sort=True):
        worst = g.sort_values("abs_diff", ascending=False).iloc[0]
        where = "overall" if worst["scope"] == "overall" else f"repeat {worst['repeat']} fold {worst['fold']}"
        out.append((f"{task} {mid}", f"{len(g)} value(s) differ, worst {where}: server {worst['server_auroc']:.6f} "
                                     f"vs ours {worst['our_auroc']:.6f}; likely cause: {worst['likely_cause']}"))
    return pd.DataFrame(out, columns=["statistic", "value"])
