"""The audit's tables, each computed once: metrics pooled and per fold, AUPR estimators, ranks.

Pooled metrics merge all folds of a task (Boyd et al. 2012, section 4.1: "ideally ...
calculated on a single, merged data set"); the fold table and its summary (mean,
standard deviation, minimum, maximum over folds) sit beside them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.audit.inference.audit_blocks import hashed_tie_groups
from prspace.audit.intake import keys
from prspace.audit.intake.inputs import where_text
from prspace.core.errors import InputError
from prspace.experiments import ranking
from prspace.metrics.names import AUDIT_LABELS, AUPR_ESTIMATOR_LABELS, REPORTED_METRICS

#: Metrics reported and ranked, in display order (keys of ``all_metrics``).
RANKED = REPORTED_METRICS
LABELS = AUDIT_LABELS
#: The AUPR estimators' display names (:data:`prspace.metrics.AUPR_ESTIMATORS`).
ESTIMATOR_LABELS = AUPR_ESTIMATOR_LABELS


def _metrics(y: np.ndarray, score: np.ndarray, weight: np.ndarray, where: str) -> dict[str, float]:
    try:
        m = M.all_metrics(y, score, sample_weight=weight)
    except ValueError as exc:  # the metrics module's own validation, with our context
        raise InputError(f"{where}: {exc}") from None
    out = {k: float(m[k]) for k in (*RANKED, "pi", "n_pos", "n_neg")}
    out["aupr_min"] = float(M.aupr_min(out["pi"]))
    return out


def _ap_min(y: np.ndarray, weight: np.ndarray) -> float:
    """AP_MIN (Boyd et al. 2012, Theorem 3) for unit weights; NaN (no check) with other weights."""
    if not np.all(weight == 1.0):
        return float("nan")
    return float(M.ap_min(int(y.sum()), int((~y).sum())))


def _columns(data: pd.DataFrame, *keys: str) -> pd.DataFrame:
    """The group keys and the columns the metrics read: the groups are cut from these alone, not from
    every column (the row ids' texts)."""
    return data[[*keys, "y", "score", "weight"]]


def groups(data: pd.DataFrame, *cols: str) -> Iterator[tuple[tuple, np.ndarray]]:
    """``data.groupby(list(cols), sort=True)``'s groups as (key, positions of its rows, in order), in its
    order, cut from the key columns' codes (:func:`prspace.audit.intake.keys.factorize`) instead of copying rows."""
    if not len(data):
        return
    if any(keys.any_na(data[c]) for c in cols):  # groupby leaves such rows out: its own grouping
        for key, g in pd.Series(np.arange(len(data))).groupby([data[c].to_numpy() for c in cols], sort=True):
            yield key, g.to_numpy()
        return
    order, cuts, values = keys.remember("groups", [data[c] for c in cols], lambda: _grouping(data, cols))
    for idx in np.split(order, cuts):
        yield tuple(u[code[idx[0]]] for u, code in values), idx


def _grouping(data: pd.DataFrame, cols: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, list[tuple]]:
    """The rows ordered by group (groupby's order: the sorted values of each key in turn), stable within a
    group; where each group starts; and per key column its values and every row's code."""
    combined, values, n = np.zeros(len(data), dtype=np.int64), [], 1
    for c in cols:  # the key made in place, each column's ranks in its codes' small type (no int64 temporaries)
        code, uniques = keys.factorize(data[c])
        u = np.asarray(uniques, dtype=object)
        rank = np.empty(len(u), dtype=np.int64)
        rank[np.argsort(u, kind="stable")] = np.arange(len(u))
        combined *= len(u)
        combined += keys.narrow(rank, len(u))[code]
        values.append((u, code))
        n *= len(u)
    small = combined.astype(np.uint16) if n <= 2**16 else combined  # few groups: a radix sort
    del combined
    order = np.argsort(small, kind="stable")  # rows in order within each group
    ordered = small[order]
    cuts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1  # where the key changes: np.diff's nonzeros
    del small, ordered
    return (order.astype(np.int32) if len(order) < 2**31 else order), cuts, values  # positions: 4 bytes a row


class Ties:
    """Every row's tie group within its (task, model) (0 = its highest score; :func:`hashed_tie_groups`), made
    once for :func:`pooled_metrics`, :func:`fold_metrics` and :func:`estimator_table` (:func:`tie_codes`): a
    group's metrics then come from its class counts per tie group (``np.bincount``) instead of a sort of its
    scores each.  Only for unit weights, whose counts are whole numbers: their running sums are exact, so the
    metrics equal the sorted path's bit for bit; a (task, model) with untied scores is not coded (``coded``)."""

    def __init__(self, code: np.ndarray, width: dict[tuple, int]) -> None:
        self.code, self.width = code, width  # int16 codes (-1: not coded); (task, model) -> its tie groups

    def counts(self, key: tuple, idx: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Positives and negatives per tie group (highest score first) of the rows ``idx`` of (task, model)
        ``key`` (``y``: their classes), or None when that model is not coded."""
        width = self.width.get(key)
        if width is None:
            return None
        code = self.code[idx]
        n = np.bincount(code, minlength=width)
        p = np.bincount(code[y], minlength=width)
        return p, n - p


def unit_tie_counts(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """One model's positives and negatives per tie group (highest score first) when every weight is 1 and its
    scores are tied (:func:`hashed_tie_groups`), else None: the counts a sort of its scores would give."""
    if not len(s) or not bool(np.all(w == 1.0)):
        return None
    g = hashed_tie_groups(s)
    if g is None:
        return None
    n = np.bincount(g)
    p = np.bincount(g[y], minlength=n.size)
    return p, n - p


def tie_codes(data: pd.DataFrame) -> Ties | None:
    """The :class:`Ties` of the canonical frame, or None unless every weight is 1."""
    w = data["weight"].to_numpy()
    if not len(data) or not bool(np.all(w == 1.0)):
        return None
    s_all = data["score"].to_numpy()
    code = np.full(len(data), -1, dtype=np.int16)
    width: dict[tuple, int] = {}
    for key, idx in groups(data, "task", "model"):
        g = hashed_tie_groups(s_all[idx])
        if g is not None and len(g):
            code[idx] = g
            width[key] = int(g.max()) + 1
    return Ties(code, width) if width else None


def _counted(counts: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray] | None:
    """Counts with both classes (the others go the sorted path, whose validation says what is wrong)."""
    if counts is None or not (counts[0].any() and counts[1].any()):
        return None
    return counts


def _metrics_of_counts(tp: np.ndarray, fp: np.ndarray) -> dict[str, float]:
    """:func:`_metrics` of unit-weight rows from their class counts per tie group (the same numbers)."""
    m = M.metrics_from_group_counts(tp, fp)
    out = {k: float(m[k]) for k in (*RANKED, "pi", "n_pos", "n_neg")}
    out["aupr_min"] = float(M.aupr_min(out["pi"]))
    out["ap_min"] = float(M.ap_min(int(tp.sum()), int(fp.sum())))
    return out


def pooled_metrics(data: pd.DataFrame, ties: Ties | None = None) -> pd.DataFrame:
    """One row per (task, model): the metrics on all its test rows (folds merged).

    Pooled, as Boyd et al. (2012, section 4.1) recommend: the folds' scores ranked together.

    Parameters
    ----------
    data : pandas.DataFrame
        The canonical frame (:func:`prspace.audit.prepare`).
    ties : Ties, optional
        Every row's tie group (:func:`tie_codes`), for unit weights: the metrics from the class counts
        per tie group, the same numbers without a sort per model; None: each model's scores sorted.

    Returns
    -------
    pandas.DataFrame
        Columns ``task``, ``model``, the metrics of :data:`RANKED`, ``pi``, ``n_pos``, ``n_neg``,
        ``aupr_min``, ``ap_min`` (NaN with weights other than 1) and ``n_rows``; sorted by task and model.

    Raises
    ------
    prspace.core.errors.InputError
        A model's metrics cannot be computed (a task and model without both classes), naming where.

    See Also
    --------
    fold_metrics : The same per fold.
    prspace.metrics.all_metrics : The metrics of one model.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import pooled_metrics, prepare, resolve_columns
    >>> df = pd.DataFrame({"model": ["a"] * 8, "y_true": [1, 0, 1, 0, 1, 0, 0, 0], "fold": [0] * 4 + [1] * 4,
    ...                    "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7]})
    >>> data, _ = prepare(df, resolve_columns(df.columns))
    >>> pooled_metrics(data)[["model", "auroc", "n_pos", "n_neg", "n_rows"]].round(3).to_dict("records")
    [{'model': 'a', 'auroc': 0.667, 'n_pos': 3.0, 'n_neg': 5.0, 'n_rows': 8}]
    """
    rows = []
    multi = data["task"].nunique() > 1
    y_all, s_all, w_all = data["y"].to_numpy(), data["score"].to_numpy(), data["weight"].to_numpy()
    for (task, model), idx in groups(data, "task", "model"):
        counts = _counted(ties.counts((task, model), idx, y_all[idx]) if ties is not None else None)
        if counts is not None:
            row = {"task": task, "model": model, **_metrics_of_counts(*counts)}
        else:
            y, s, w = y_all[idx], s_all[idx], w_all[idx]
            row = {"task": task, "model": model, **_metrics(y, s, w, where_text(task, model, multi))}
            row["ap_min"] = _ap_min(y, w)
        row["n_rows"] = len(idx)
        rows.append(row)
    return pd.DataFrame(rows)


def fold_metrics(data: pd.DataFrame, ties: Ties | None = None) -> pd.DataFrame:
    """One row per (task, model, fold): the metrics on the fold's test rows.

    ``one_class`` marks folds with a single class, which have no metrics (their class counts and
    ``pi`` only).

    Parameters
    ----------
    data : pandas.DataFrame
        The canonical frame (:func:`prspace.audit.prepare`).
    ties : Ties, optional
        Every row's tie group (:func:`tie_codes`), as :func:`pooled_metrics` takes it.

    Returns
    -------
    pandas.DataFrame
        Columns ``task``, ``model``, ``fold``, ``one_class``, the metrics of :data:`RANKED`, ``pi``,
        ``n_pos``, ``n_neg``, ``aupr_min`` and ``ap_min``; sorted by task, model and fold; no rows
        when the frame has no folds.

    Raises
    ------
    prspace.core.errors.InputError
        A fold's metrics cannot be computed, naming the task, model and fold.

    See Also
    --------
    pooled_metrics : The metrics with the folds merged.
    fold_summary : Their mean, spread and range over folds.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import fold_metrics, prepare, resolve_columns
    >>> df = pd.DataFrame({"model": ["a"] * 8, "y_true": [1, 0, 1, 0, 1, 0, 0, 0], "fold": [0] * 4 + [1] * 4,
    ...                    "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7]})
    >>> data, _ = prepare(df, resolve_columns(df.columns))
    >>> folds = fold_metrics(data)
    >>> folds[["fold", "one_class", "auroc", "aupr_min"]].round(3).to_dict("records")
    [{'fold': '0', 'one_class': False, 'auroc': 1.0, 'aupr_min': 0.307}, {'fold': '1', 'one_class': False, 'auroc': 0.333, 'aupr_min': 0.137}]
    """
    rows = []
    if keys.any_na(data["fold"]) and data["fold"].isna().all():
        return pd.DataFrame(
            columns=["task", "model", "fold", *RANKED, "pi", "aupr_min", "ap_min", "one_class"]
        )
    multi = data["task"].nunique() > 1
    y_all, s_all, w_all = data["y"].to_numpy(), data["score"].to_numpy(), data["weight"].to_numpy()
    for (task, model, fold), idx in groups(data, "task", "model", "fold"):
        row: dict[str, object] = {"task": task, "model": model, "fold": fold}
        counts = _counted(ties.counts((task, model), idx, y_all[idx]) if ties is not None else None)
        if counts is not None:  # both classes with unit weights
            row["one_class"] = False
            row |= _metrics_of_counts(*counts)
            rows.append(row)
            continue
        y, s, w = y_all[idx], s_all[idx], w_all[idx]
        one_class = not (w[y].sum() > 0 and w[~y].sum() > 0)
        row["one_class"] = one_class
        if not one_class:
            row |= _metrics(y, s, w, f"{where_text(task, model, multi)}, fold {fold!r}")
            row["ap_min"] = _ap_min(y, w)
        else:  # no metrics, but its class counts are known
            total = float(w.sum())
            row |= {"n_pos": float(w[y].sum()), "n_neg": float(w[~y].sum()),
                    "pi": float(w[y].sum()) / total if total > 0 else float("nan")}
        rows.append(row)
    return pd.DataFrame(rows)


def fold_summary(folds: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation (ddof=1), minimum and maximum over folds per (task, model).

    Folds with a single class (``one_class``) are left out.

    Parameters
    ----------
    folds : pandas.DataFrame
        The per-fold table (:func:`fold_metrics`).

    Returns
    -------
    pandas.DataFrame
        Columns ``task``, ``model``, ``n_folds`` and, per metric of :data:`RANKED`, ``pi`` and
        ``aupr_min``, its ``_mean``, ``_sd``, ``_min`` and ``_max``; empty without a usable fold.

    See Also
    --------
    fold_metrics : The table summarized.
    pooled_metrics : The metrics with the folds merged.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import fold_metrics, fold_summary, prepare, resolve_columns
    >>> df = pd.DataFrame({"model": ["a"] * 8, "y_true": [1, 0, 1, 0, 1, 0, 0, 0], "fold": [0] * 4 + [1] * 4,
    ...                    "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7]})
    >>> data, _ = prepare(df, resolve_columns(df.columns))
    >>> summary = fold_summary(fold_metrics(data))
    >>> summary[["model", "n_folds", "auroc_mean", "auroc_min", "auroc_max"]].round(3).to_dict("records")
    [{'model': 'a', 'n_folds': 2, 'auroc_mean': 0.667, 'auroc_min': 0.333, 'auroc_max': 1.0}]
    """
    usable = folds[~folds["one_class"].astype(bool)] if len(folds) else folds
    if usable.empty:
        return pd.DataFrame()
    g = usable.groupby(["task", "model"], sort=True)
    parts = {"n_folds": g.size()}
    for m in (*RANKED, "pi", "aupr_min"):
        col = g[m]
        parts[f"{m}_mean"] = col.mean()
        parts[f"{m}_sd"] = col.std(ddof=1)
        parts[f"{m}_min"] = col.min()
        parts[f"{m}_max"] = col.max()
    return pd.DataFrame(parts).reset_index()


def estimator_table(data: pd.DataFrame, ties: Ties | None = None) -> pd.DataFrame:
    """One row per (task, model): every AUPR estimator of :func:`prspace.metrics.aupr_estimators`;
    ``ties``: :func:`tie_codes`."""
    rows = []
    y, s, w = data["y"].to_numpy(), data["score"].to_numpy(), data["weight"].to_numpy()
    for (task, model), idx in groups(data, "task", "model"):
        counts = _counted(ties.counts((task, model), idx, y[idx]) if ties is not None else None)
        if counts is not None:
            est = M.aupr_estimators_from_group_counts(*counts)
        else:
            est = M.aupr_estimators(y[idx], s[idx], sample_weight=w[idx])
        rows.append({"task": task, "model": model, **est})
    return pd.DataFrame(rows)


def rank_table(pooled: pd.DataFrame) -> pd.DataFrame:
    """Ranks (1 = best, ties averaged) of the models within each task under each metric."""
    return ranking.rank_models(pooled, RANKED, group="task", model="model")


def task_metric_rows(table: pd.DataFrame | None, task: str, metrics: Iterable[str]) -> Iterator[tuple[str, pd.DataFrame]]:
    """Per metric of ``metrics``, the rows of ``table`` on ``task`` (columns ``task``, ``metric``): the
    loop of the report's per-metric lines; nothing when ``table`` is None or empty."""
    if table is None or not len(table):
        return
    t = table[table["task"] == task]
    for metric in metrics:
        yield metric, t[t["metric"] == metric]
