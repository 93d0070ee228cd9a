"""The tables the study's figures are drawn from (``prspace step figure_data``); the figures only lay out.

One analysis step computes, for Flach & Kull (2015) Figures 4 and 5, everything the drawing
functions of :mod:`prspace.figures` need, as tables:

* ``fig4_rank_counts``: Figure 4 (left), models per (AUPR rank, AUPRG rank) over all tasks but the
  saturated ones, long format ``metric_x, metric_y, rank_x, rank_y, models`` with every cell of the
  square (zeros too);
* ``fig4_scatter``: Figure 4 (right), ``task_id, label, model_id, x, y, highlight`` (0, or the
  number of the circled model) for every model
  of the tasks :func:`prspace.experiments.fk.figure_selection.figure_selection` chose;
* ``fig5_curve_points`` and ``fig5_curve_areas``: Figure 5, the ROC, PR and PRG points and areas of
  the two models of the flip (:func:`prspace.experiments.fk.curve_points.points_table`);
* ``fig5_curve_bands`` (:func:`band_table`): Figure 5, the bootstrap bands (pointwise and
  simultaneous, :mod:`prspace.stats.bands`) of the PR and PRG curves of the same two models;
* ``figure_text``: ``figure, field, text``: each figure's title, note, source and axis labels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from prspace.core import registry as R
from prspace.experiments.fk import figure_selection as S
from prspace.experiments.fk.curve_points import Curve, points_table
from prspace.metrics import METRIC_LABELS
from prspace.stats.bands import curve_bands

#: Columns of ``figure_text``.
TEXT_COLUMNS = ["figure", "field", "text"]


def rank_count_table(ranks: pd.DataFrame, metric_x: str = "aupr", metric_y: str = "auprg", *,
                     exclude: Sequence[str] = ()) -> tuple[pd.DataFrame, str]:
    """Figure 4 (left): models per (rank by ``metric_x``, rank by ``metric_y``), and the heading.

    ``exclude``: tasks left out -- the saturated ones
    (:func:`prspace.experiments.fk.figure_selection.saturated_tasks`), whose models tied at a perfect
    score all sit on one averaged rank and would fill an off-diagonal cell with ties, not
    disagreements; the heading says how many were left out.  Average ranks of tied models (x.5)
    are rounded half up to an integer rank.  Returns the long table (every cell of the square,
    zeros too; ``rank_x`` slowest) and the heading.
    """
    n_all = ranks["task_id"].nunique() if "task_id" in ranks else 0
    if len(exclude) and "task_id" in ranks:
        ranks = ranks[~ranks["task_id"].astype(str).isin({str(t) for t in exclude})]
    xy = ranks[[metric_x, metric_y]].dropna().to_numpy(np.float64)
    r = np.floor(xy + 0.5).astype(int)
    size = int(r.max()) if r.size else 1
    counts = np.zeros((size, size), dtype=int)
    np.add.at(counts, (r[:, 1] - 1, r[:, 0] - 1), 1)
    rx, ry = np.meshgrid(np.arange(1, size + 1), np.arange(1, size + 1), indexing="ij")
    table = pd.DataFrame({"metric_x": metric_x, "metric_y": metric_y, "rank_x": rx.ravel(), "rank_y": ry.ravel(),
                          "models": counts[ry.ravel() - 1, rx.ravel() - 1]})
    n_tasks = ranks["task_id"].nunique() if "task_id" in ranks else 0
    left_out = (f"; {n_all - n_tasks} saturated task(s) left out (models tied at AUROC = AUPR = AUPRG = 1)"
                if n_all > n_tasks else "")
    return table, f"{len(ranks)} models in {n_tasks} tasks{left_out}"


def scatter_table(metrics: pd.DataFrame, tasks: Sequence[str], *, labels: Sequence[str] | None = None,
                  metric_x: str = "aupr", metric_y: str = "auprg",
                  highlight: Sequence[tuple[str, str]] = ()) -> pd.DataFrame:
    """Figure 4 (right): ``task_id, label, model_id, x, y, highlight`` for every model of ``tasks``
    (in that order); ``highlight`` lists the ``(task_id, model_id)`` pairs to circle, and the
    column numbers them 1, 2, ... in that order (0: not circled)."""
    labels = list(labels) if labels is not None else list(tasks)
    marked = {(str(t), str(m)): k for k, (t, m) in enumerate(highlight, start=1)}
    parts = []
    for task, label in zip(tasks, labels, strict=True):
        sub = metrics[metrics["task_id"] == task]
        parts.append(pd.DataFrame({
            "task_id": str(task), "label": label, "model_id": sub["model_id"].astype(str).to_numpy(),
            "x": sub[metric_x].to_numpy(np.float64), "y": sub[metric_y].to_numpy(np.float64),
            "highlight": [marked.get((str(task), str(m)), 0) for m in sub["model_id"]]}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=["task_id", "label", "model_id", "x", "y", "highlight"])


def model_label(metrics: pd.DataFrame, task: str, model: str, width: int = 24) -> str:
    """Short legend label: the model id (a local learner's name), or an OpenML run's flow name."""
    row = metrics[(metrics["task_id"] == task) & (metrics["model_id"] == model)].iloc[0]
    if str(row["flow_id"]) == model:  # local learner: the id is the name
        return model
    name = str(row["flow_name"])
    name = name if len(name) <= width else name[: width - 1] + "…"
    return f"{name}\n{model}"


@dataclass(frozen=True)
class FigureData:
    """Every table of :func:`figure_data` (module docstring), and the selection table."""

    selection: pd.DataFrame
    saturated: list[str]
    rank_counts: pd.DataFrame
    scatter: pd.DataFrame
    curve_points: pd.DataFrame
    curve_areas: pd.DataFrame
    text: pd.DataFrame
    curve_bands: pd.DataFrame | None = None  #: :func:`band_table` of Figure 5 (None: no bands asked for)


def figure_data(metrics: pd.DataFrame, ranks: pd.DataFrame, per_task: pd.DataFrame, tasks: pd.DataFrame | None,
                load_predictions: Callable[[str], tuple[pd.DataFrame, Any]], *, source: str = "",
                band_resamples: int = 0, band_level: float = 0.95, seed: int = 0) -> FigureData:
    """The tables of Figures 4 and 5 for a study, as
    :func:`prspace.experiments.fk.figure_selection.figure_selection` chose what to draw.

    ``load_predictions(task)``: the predictions of a task and their info (dataset name, n, pi;
    :func:`prspace.core.schema.read_predictions`), called for the Figure 5 task only.
    ``band_resamples`` > 0: also the bands of Figure 5's PR and PRG curves (:func:`band_table`,
    at ``band_level``, bootstrap seeded by ``seed``).
    """
    sel = S.figure_selection(metrics, per_task, tasks)
    counts, heading = rank_count_table(ranks, "aupr", "auprg", exclude=sel.saturated)
    scatter = scatter_table(metrics, sel.scatter_tasks, labels=sel.scatter_labels, highlight=sel.highlight)
    task = sel.curves_task
    df, info = load_predictions(task)
    curves, folds = [], []
    for m in sel.curves_models:
        g = df[(df["model_id"] == m) & (df["repeat"] == df["repeat"].min())]
        curves.append(Curve(model_label(metrics, task, m), g["y_true"].to_numpy(bool), g["score"].to_numpy(float)))
        folds.append(g["fold"].to_numpy())
    points, areas = points_table(curves)
    bands = (band_table(curves, folds, n_resamples=band_resamples, level=band_level, seed=seed)
             if band_resamples else None)
    left, right, fig5 = (f.name for f in (R.FIGURE_FIG4_RANK_HEATMAP, R.FIGURE_FIG4_AUPRG_VS_AUPR, R.FIGURE_FIG5_CURVES))
    text = [
        (left, "heading", heading), (left, "source", source),
        (left, "xlabel", METRIC_LABELS["aupr"]), (left, "ylabel", METRIC_LABELS["auprg"]),
        (right, "note", sel.note), (right, "source", source),
        (right, "xlabel", METRIC_LABELS["aupr"]), (right, "ylabel", METRIC_LABELS["auprg"]),
        (fig5, "title", f"{task} ({info.dataset_name}), n = {info.n}, pi = {info.pi:.3f}"),
        (fig5, "note", f"{S.paper_flip_note()} {sel.curves_note}" + (f" Source: {source}" if source else "")),
    ]
    return FigureData(sel.table(metrics, per_task), sel.saturated, counts, scatter, points, areas,
                      pd.DataFrame(text, columns=TEXT_COLUMNS), bands)


#: Columns of ``fig5_curve_bands`` (:func:`band_table`).
BAND_COLUMNS = ["curve", "label", "kind", "x", "grid", "estimate", "lo", "hi", "sim_lo", "sim_hi", "level",
                "n_resamples"]
#: The curves Figure 5 draws bands of.
BAND_KINDS = ("pr", "prg")


def band_table(curves: Sequence[Curve], strata: Sequence[np.ndarray] | None = None, *, n_resamples: int = 1000,
               level: float = 0.95, seed: int = 0, kinds: Sequence[str] = BAND_KINDS) -> pd.DataFrame:
    """Figure 5's bands: for each curve (numbered as in :func:`points_table`) and each of ``kinds``
    (``"roc"``, ``"pr"``, ``"prg"``), the pointwise and simultaneous bootstrap bands of
    :func:`prspace.stats.bands.curve_bands` on its default grid (the procedure, interpolation and grid
    are stated there and in ``docs/audit.md``, "Curve bands"): ``curve, label, kind, x, grid,
    estimate, lo, hi, sim_lo, sim_hi, level, n_resamples``, one row per grid point.

    ``strata``: per curve, a label per row (the fold), crossed with the class in the stratified
    bootstrap (the studies' scheme, kept so their numbers do not move; the audit's bands resample
    within class only, :mod:`prspace.audit.inference.audit_bands`); ``n_resamples`` and ``level`` as in ``curve_bands``; one random
    stream seeded by ``seed`` serves the curves in order, so the table is reproducible.
    """
    rng = np.random.default_rng(seed)
    parts = []
    for i, c in enumerate(curves):
        per = curve_bands(c.y_true, c.y_score, sample_weight=c.weight,
                          strata=None if strata is None else strata[i], curves=tuple(kinds),
                          n_boot=n_resamples, level=level, rng=rng)
        for kind in kinds:
            parts.append(per[kind].rows(curve=i, label=c.label, kind=kind))
    if not parts:
        return pd.DataFrame(columns=BAND_COLUMNS)
    return pd.concat(parts, ignore_index=True)[BAND_COLUMNS]

