"""Models scored on nearly the same test rows: pair them on the rows every model shares.

With row ids, a model that lacks a few of the task's rows (it failed on them, or they were
filtered) would make the task "not comparable" and switch every paired test off.
:func:`shared_rows` keeps, per task, only the rows (fold, row id) that every model scored, when

* every model keeps at least :data:`MIN_SHARED` of its rows, and
* the shared rows carry the same label and weight for every model, with both classes;

and says what it dropped, per model.  Otherwise the task is left as it is (models scored on
different test rows stay "not comparable": ``different-test-rows``).  Every number of the task
(metrics, intervals, paired tests) is then on the shared rows.

A row is its row id when every model scores each row id once: then models cross-validated with
different fold assignments on the same rows are the same rows (:func:`own_folds`), and
:func:`pairing_frame` pairs them by row id, folds ignored; the per-fold tables keep each model's
own folds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: a model must keep at least this share of its rows for the task to be paired on the shared rows
MIN_SHARED = 0.5


def shared_rows(data: pd.DataFrame) -> tuple[pd.DataFrame, list[dict]]:
    """``data`` (the canonical frame) restricted to the rows every model of a task shares, and one
    record per task and model of a task that lost rows: ``task, model, n_rows, n_dropped, n_shared,
    n_missing, missing`` (``missing``: up to 5 row ids the model lacks that others have, in file order)."""
    keep = np.ones(len(data), dtype=bool)
    dropped: list[dict] = []
    for task, g in data.groupby("task", sort=True):
        models = sorted(g["model"].unique())
        if len(models) < 2 or g["row"].isna().any():
            continue
        fold_code, _ = pd.factorize(g["fold"], use_na_sentinel=False)
        if _rows_unique(g):  # a row id names one test row whatever fold a model put it in
            fold_code = np.zeros(len(g), dtype=np.int64)
        row_code, row_values = pd.factorize(g["row"])
        code, first = pd.factorize(fold_code.astype(np.int64) * len(row_values) + row_code)
        n_keys = len(first)
        mc, mu = pd.factorize(g["model"])  # each row's model as its place in ``models``
        model = np.array([models.index(m) for m in mu], dtype=np.int64)[mc]
        count = np.bincount(model * n_keys + code, minlength=len(models) * n_keys).reshape(len(models), n_keys)
        if (count > 1).any():
            continue
        has = count > 0
        shared = has.all(axis=0)
        n_rows, n_shared = has.sum(axis=1), int(shared.sum())
        if (n_rows == n_shared).all() or n_shared == 0 or (n_shared < MIN_SHARED * n_rows).any():
            continue
        inside = shared[code]
        frame = pd.DataFrame({"k": code[inside], "y": g["y"].to_numpy()[inside], "w": g["weight"].to_numpy()[inside]})
        spread = frame.groupby("k").agg(["min", "max"])
        if (spread[("y", "min")] != spread[("y", "max")]).any() or (spread[("w", "min")] != spread[("w", "max")]).any():
            continue
        if spread[("y", "min")].all() or not spread[("y", "min")].any():
            continue
        keep[np.flatnonzero((data["task"] == task).to_numpy())[~inside]] = False
        rows = row_values[first % len(row_values)]
        for i, m in enumerate(models):
            lacks = np.flatnonzero(~has[i])  # codes in order of first appearance: file order
            dropped.append({"task": task, "model": m, "n_rows": int(n_rows[i]), "n_dropped": int(n_rows[i]) - n_shared,
                            "n_shared": n_shared, "n_missing": int(lacks.size), "missing": [str(rows[j]) for j in lacks[:5]]})
    return data[keep].reset_index(drop=True), dropped


def _pair_codes(a: pd.Series, b: pd.Series) -> tuple[np.ndarray, int]:
    """One integer per row, equal where both ``a`` and ``b`` are (pandas' factorize: as ``duplicated``
    and ``groupby`` compare keys), without building a key per row; and the number of distinct ``a``."""
    ca, ua = pd.factorize(a, use_na_sentinel=False)
    cb, ub = pd.factorize(b, use_na_sentinel=False)
    return ca.astype(np.int64) * max(len(ub), 1) + cb, len(ua)


def _n_distinct(codes: np.ndarray) -> int:
    return len(pd.factorize(codes)[1])  # a hash table: numpy's unique sorts


def _rows_unique(g: pd.DataFrame) -> bool:
    """Every model of the task ``g`` has row ids, each at most once."""
    if not g["row"].notna().all():
        return False
    key, _ = _pair_codes(g["model"], g["row"])
    return _n_distinct(key) == len(key)


def own_folds(data: pd.DataFrame) -> dict[str, bool]:
    """Per task: True when its models scored the same row ids (each once per model) but put some row in
    different folds: each model was cross-validated with its own fold assignment."""
    out = {}
    for task, g in data.groupby("task", sort=True):
        if g["model"].nunique() < 2 or g["fold"].isna().any() or not _rows_unique(g):
            out[task] = False
            continue
        pairs, n_rows = _pair_codes(g["row"], g["fold"])  # a row in two folds: more (row, fold) pairs than rows
        out[task] = bool(_n_distinct(pairs) > n_rows)
    return out


def pairing_frame(data: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, bool]]:
    """``data`` as the paired resampling reads it (:func:`prspace.audit.intervals.blocks`): in a task
    whose models have their own folds (:func:`own_folds`) the fold is dropped, so that the models are
    paired by row id and resampled within class; and :func:`own_folds`'s answer per task."""
    own = own_folds(data)
    tasks = [t for t, v in own.items() if v]
    if not tasks:
        return data, own
    out = data.copy()
    out.loc[out["task"].isin(tasks), "fold"] = None
    return out, own
