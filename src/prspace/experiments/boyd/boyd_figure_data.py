"""The tables the figures of the Boyd et al. (2012) experiments are drawn from; the figures only lay out.

Each report step of the Boyd experiments (:mod:`prspace.experiments.boyd.boyd_tables`) also writes, at
full precision under the study's ``work/`` folder, the tables its figure needs, each as a pair
(registry figure-data table, rows) in the figure's order (:mod:`prspace.figures.boyd_figures` draws them,
``prspace figure NAME`` saves the figure):

* ``boyd_downsampling`` -- ``boyd_downsampling_levels`` (the summary over tasks of
  :func:`prspace.experiments.boyd.downsampling.table3_summary`), ``boyd_downsampling_axis`` (each training
  ratio in order: ``train_k, ratio_label, aupr_min``, AUCPR_MIN at the downsampled test skew
  1/(1+k), Theorem 2) and ``boyd_downsampling_paper`` (Boyd's Table 3 at our x positions:
  ``metric, position, downsampled, original``);
* ``boyd_fold_skew`` -- ``boyd_fold_skew_lines`` (:func:`prspace.experiments.boyd.fold_skew.fold_skew_summary`);
* ``boyd_aggregation`` -- ``boyd_aggregation_points`` (per task and learner), ``boyd_aggregation_task_means``
  (mean over learners per task, by pi), ``boyd_aggregation_min_curve`` (AUCPR_MIN(pi) over the tasks'
  range of pi) and ``boyd_aggregation_ranks`` (the heat map's cells ``row, col, learner, skew_group,
  metric, rank``: learners by their rank of mean AUPR over all tasks, columns by pi group then metric);

and ``<figure>_text`` (``figure, field, text``): the title, the metric labels (fields ``label:<name>``
in drawing order), and for the aggregation figure its y-axis bottom and the note counting negative
values.  When no task qualified, the tables are empty and the text holds the ``message`` the
figure shows instead.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.core import registry as R
from prspace.core.registry import Figure, FigureData
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.boyd import fold_skew as fs

#: What a figure's tables are: each (registry figure-data table, its rows), in the figure's order.
FigureTables = list[tuple[FigureData, pd.DataFrame]]

#: Columns of a ``<figure>_text`` table.
TEXT_COLUMNS = ["figure", "field", "text"]
#: Lowest metric value the aggregation panel's axis shows; lower values sit on its edge.
AGGREGATION_FLOOR = -0.5
#: Metrics of the aggregation figure's heat map, in column order within a pi group.
HEAT_METRICS = ("aupr", "aucnpr", "auprg", "auroc")


def _text(figure: Figure, fields: list[tuple[str, str]]) -> pd.DataFrame:
    return pd.DataFrame([(figure.name, f, t) for f, t in fields], columns=TEXT_COLUMNS)


def _labels(names) -> list[tuple[str, str]]:
    return [(f"label:{m}", metrics.METRIC_LABELS[m]) for m in names]


def message_tables(figure: Figure, message: str) -> FigureTables:
    """The tables of ``figure`` when no task qualified: empty, and the text's ``message``."""
    return [*((d, pd.DataFrame(columns=["message"])) for d in figure.data), (figure.text, _text(figure, [("message", message)]))]


def _suffix(source: str) -> str:
    return f" -- {source}" if source else ""


# --- section 4.3: downsampling -----------------------------------------------------------------------


def paper_table3_by_position(ks: list[float]) -> pd.DataFrame:
    """Boyd et al.'s Table 3 at our x positions: ``metric, position, downsampled, original``.

    Only the ratios we ran are placed; Boyd's 1:24 row (their task's own ratio) goes to our
    ``original`` position. Metrics: ``aupr`` (their AUCPR) and ``aucnpr``.
    """
    where = {k: i for i, k in enumerate(ks)}
    rows = []
    for k, pr_d, npr_d, pr_o, npr_o in ds.BOYD_TABLE3:
        key = ds.ORIGINAL if k == ds.BOYD_TABLE3_ORIGINAL_K else float(k)
        if key in where:
            rows.append(("aupr", float(where[key]), pr_d, pr_o))
            rows.append(("aucnpr", float(where[key]), npr_d, npr_o))
    out = pd.DataFrame(rows, columns=["metric", "position", "downsampled", "original"])
    return out.sort_values("metric", kind="stable", key=lambda s: s.map({"aupr": 0, "aucnpr": 1})).reset_index(drop=True)


def downsampling_tables(summary: pd.DataFrame, *, source: str = "") -> FigureTables:
    """The tables of the downsampling figure from :func:`prspace.experiments.boyd.downsampling.table3_summary`."""
    all_ = summary[summary["learner"] == "all learners"]
    ks = [float(k) for k in all_["train_k"]]
    pis = np.array([1 / (1 + k) if k != ds.ORIGINAL else np.nan for k in ks])
    lo = np.full(len(ks), np.nan)
    ok = np.isfinite(pis)
    lo[ok] = np.asarray(metrics.aupr_min(pis[ok]), dtype=np.float64)
    axis = pd.DataFrame({"train_k": ks, "ratio_label": [ds.ratio_label(k) for k in ks], "aupr_min": lo})
    n_learners = sum(1 for lrn in pd.unique(summary["learner"]) if lrn != "all learners")
    n_tasks = int(all_["n_tasks"].max()) if len(all_) else 0
    title = (f"Downsampling (after Boyd et al. 2012, Table 3): {n_tasks} tasks, {n_learners} learners"
             + _suffix(source) + "; 'original' = each task's own ratio (Boyd's: 1:24)")
    fig = R.FIGURE_BOYD_DOWNSAMPLING
    return [(R.BOYD_DOWNSAMPLING_LEVELS, summary), (R.BOYD_DOWNSAMPLING_AXIS, axis),
            (R.BOYD_DOWNSAMPLING_PAPER, paper_table3_by_position(ks)),
            (fig.text, _text(fig, [("title", title), *_labels(ds.METRICS)]))]


# --- section 4.1: fold skew --------------------------------------------------------------------------


def fold_skew_tables(summary: pd.DataFrame, *, source: str = "") -> FigureTables:
    """The tables of the fold-skew figure from :func:`prspace.experiments.boyd.fold_skew.fold_skew_summary`."""
    n_tasks = int(summary["n_tasks"].max()) if len(summary) else 0
    title = f"Fold skew (after Boyd et al. 2012, section 4.1): {n_tasks} tasks" + _suffix(source)
    labels = [(f"label:{a}", fs.AGGREGATE_LABELS[a]) for a in fs.AGGREGATES]
    fig = R.FIGURE_BOYD_FOLD_SKEW
    return [(R.BOYD_FOLD_SKEW_LINES, summary), (fig.text, _text(fig, [("title", title), *labels]))]


# --- section 4.2: aggregation over tasks -------------------------------------------------------------


def aggregation_bottom(per_task: pd.DataFrame) -> float:
    """The aggregation panel's y-axis bottom: just below the lowest AUPR / AUCNPR / AUPRG value
    (at most -0.02), but not below :data:`AGGREGATION_FLOOR`; lower values sit on the edge."""
    shown = per_task[["aupr", "aucnpr", "auprg"]].to_numpy(np.float64)
    low = float(np.nanmin(shown)) if shown.size else 0.0
    return max(min(-0.02, low - 0.03), AGGREGATION_FLOOR)


def aggregation_notes(per_task: pd.DataFrame, bottom: float) -> str:
    """What the aggregation panel says about values below 0 and below its axis ``bottom``."""
    parts = []
    for m in ("aupr", "aucnpr", "auprg"):
        v = per_task[m].to_numpy(np.float64)
        neg, out = int((v < 0).sum()), int((v < bottom).sum())
        if neg:
            parts.append(f"{neg} {metrics.METRIC_LABELS[m]} < 0" + (
                f" ({out} below {bottom:g}, down to {np.nanmin(v):.2f}: triangles on the edge)" if out else ""))
    return ("of " + str(len(per_task)) + " learner x task values: " + "; ".join(parts)) if parts else ""


def rank_cells(groups: pd.DataFrame) -> pd.DataFrame:
    """The heat map of learners' ranks (``skew_group, learner, metric, rank`` of
    :func:`prspace.experiments.boyd.aggregation.skew_group_means`) as cells ``row, col, learner,
    skew_group, metric, rank``: columns by pi group (``all tasks`` last) then
    :data:`HEAT_METRICS`, rows by the rank of mean AUPR over all tasks."""
    if groups.empty:  # no learner on every task: no heat map
        return pd.DataFrame(columns=["row", "col", "learner", "skew_group", "metric", "rank"])
    order = [g for g in sorted(pd.unique(groups["skew_group"])) if g != "all tasks"] + ["all tasks"]
    piv = groups.pivot_table(index="learner", columns=["skew_group", "metric"], values="rank")
    cols = [(g, m) for g in order for m in HEAT_METRICS]
    piv = piv.reindex(columns=pd.MultiIndex.from_tuples(cols)).sort_values(("all tasks", "aupr"))
    data = piv.to_numpy(dtype=np.float64)
    rows, cs = np.meshgrid(np.arange(len(piv)), np.arange(len(cols)), indexing="ij")
    return pd.DataFrame({"row": rows.ravel(), "col": cs.ravel(),
                         "learner": np.asarray(piv.index, dtype=object)[rows.ravel()],
                         "skew_group": [cols[j][0] for j in cs.ravel()], "metric": [cols[j][1] for j in cs.ravel()],
                         "rank": data.ravel()})


def aggregation_tables(per_task: pd.DataFrame, groups: pd.DataFrame, *, source: str = "") -> FigureTables:
    """The tables of the aggregation figure from :func:`prspace.experiments.boyd.aggregation.per_task_table`
    and :func:`~prspace.experiments.boyd.aggregation.skew_group_means`."""
    means = (per_task.groupby(["task_id", "pi"], sort=False)[list(HEAT_METRICS)].mean().reset_index()
             .sort_values("pi"))
    lo_pi, hi_pi = max(per_task["pi"].min() * 0.8, 1e-3), min(per_task["pi"].max() * 1.2, 0.999)
    pi = np.geomspace(lo_pi, hi_pi, 200)
    curve = pd.DataFrame({"pi": pi, "aupr_min": np.asarray(metrics.aupr_min(pi), dtype=np.float64)})
    bottom = aggregation_bottom(per_task)
    n_learners = len(pd.unique(groups["learner"]))
    title = (f"Aggregation over tasks (after Boyd et al. 2012, Table 2): {per_task['task_id'].nunique()} tasks, "
             + (f"{n_learners} learners" if n_learners else "no learner on every task") + _suffix(source))
    text = [("title", title), ("notes", aggregation_notes(per_task, bottom)), ("bottom", repr(bottom)),
            ("n_learners", str(n_learners)), *_labels(HEAT_METRICS)]
    fig = R.FIGURE_BOYD_AGGREGATION
    return [(R.BOYD_AGGREGATION_POINTS, per_task), (R.BOYD_AGGREGATION_TASK_MEANS, means),
            (R.BOYD_AGGREGATION_MIN_CURVE, curve), (R.BOYD_AGGREGATION_RANKS, rank_cells(groups)),
            (fig.text, _text(fig, text))]
