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

from prspace.audit.intake import keys
from prspace.core.errors import InputError

#: a model must keep at least this share of its rows for the task to be paired on the shared rows
MIN_SHARED = 0.5


def task_groups(data: pd.DataFrame):
    """``data.groupby("task", sort=True)``'s (task, rows) pairs; with one task, the frame itself (not a copy
    of every row)."""
    tasks = pd.unique(data["task"])
    if len(tasks) == 1:
        return [(tasks[0], data)]
    if not keys.active():
        return data.groupby("task", sort=True)
    # inside an audit run the same frames each time (their key codes are remembered, :mod:`prspace.audit.intake.keys`)
    return keys.remember("task_groups", [data[c] for c in data.columns],
                         lambda: list(data.groupby("task", sort=True)))


def shared_rows(data: pd.DataFrame) -> tuple[pd.DataFrame, list[dict]]:
    """``data`` (the canonical frame) restricted to the rows every model of a task shares, and one
    record per task and model of a task that lost rows: ``task, model, n_rows, n_dropped, n_shared,
    n_missing, missing`` (``missing``: up to 5 row ids the model lacks that others have, in file order)."""
    keep = np.ones(len(data), dtype=bool)
    dropped: list[dict] = []
    for task, g in task_groups(data):
        models = sorted(g["model"].unique())
        if len(models) < 2 or keys.any_na(g["row"]):
            continue
        row_code, row_values = keys.factorize(g["row"])
        mc, mu = keys.factorize(g["model"])  # each row's model as its place in ``models``
        model = np.array([models.index(m) for m in mu], dtype=np.int64)[mc]
        # the key: the row id when every model has each row id once (it names one test row whatever fold a
        # model put it in), else (fold, row id); codes in order of first appearance either way
        code, n_keys = row_code, len(row_values)
        count = np.bincount(model * n_keys + code, minlength=len(models) * n_keys).reshape(len(models), n_keys)
        first = np.arange(n_keys)
        if (count > 1).any():
            fold_code, _ = keys.factorize(g["fold"], use_na_sentinel=False)
            code, first = pd.factorize(fold_code.astype(np.int64) * len(row_values) + row_code)
            n_keys = len(first)
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
    if keep.all() and data.index.equals(pd.RangeIndex(len(data))):
        return data, dropped  # nothing dropped: no copy of every row
    return data[keep].reset_index(drop=True), dropped


def n_distinct(codes: np.ndarray, n: int) -> int:
    """The number of distinct values among ``codes``, each in ``[0, n)``."""
    if n <= 16 * len(codes) + 2**20:  # a mark per possible value (at most 16 bytes a code)
        seen = np.zeros(n, dtype=bool)
        seen[codes] = True
        return int(np.count_nonzero(seen))
    return len(pd.factorize(codes)[1])  # a hash table: numpy's unique sorts


def own_folds(data: pd.DataFrame) -> dict[str, bool]:
    """Per task: True when its models scored the same row ids (each once per model) but put some row in
    different folds: each model was cross-validated with its own fold assignment."""
    out = {}
    for task, g in task_groups(data):
        model_code, model_values = keys.factorize(g["model"])
        if len(model_values) < 2 or keys.any_na(g["fold"]) or keys.any_na(g["row"]):
            out[task] = False
            continue
        row_code, row_values = keys.factorize(g["row"])
        n_keys = len(model_values) * len(row_values)
        if n_distinct(model_code.astype(np.int64) * len(row_values) + row_code, n_keys) < len(g):  # a row id twice
            out[task] = False
            continue
        fold_code, folds = keys.factorize(g["fold"], use_na_sentinel=False)
        pairs = row_code.astype(np.int64) * max(len(folds), 1) + fold_code  # a row in two folds: more pairs than rows
        out[task] = bool(n_distinct(pairs, len(row_values) * max(len(folds), 1)) > len(row_values))
    return out


def pairing_frame(data: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, bool]]:
    """``data`` as the paired resampling reads it (:func:`prspace.audit.inference.audit_blocks.blocks`): in a task
    whose models have their own folds (:func:`own_folds`) the fold is dropped, so that the models are
    paired by row id and resampled within class; and :func:`own_folds`'s answer per task."""
    own = own_folds(data)
    tasks = [t for t, v in own.items() if v]
    if not tasks:
        return data, own
    out = data.copy()
    out.loc[out["task"].isin(tasks), "fold"] = None
    return out, own


def check_row_ids_once(data: pd.DataFrame, row_col: str | None = None) -> None:
    """A row id a model scores in two folds (of one repeat) is an error naming the model, the id and the folds.

    A model has one score per test row: the same id in two of its folds is a row scored twice (a fold
    assignment gone wrong, or repeats of a cross-validation without ``--repeat-col``), and pairing by row id
    would drop it from every model as a row they "lack".  Ids that restart in every fold (fold-local ids: most
    ids of the model occur in several folds) are left to the (fold, row id) pairing of :func:`shared_rows`.
    Checked on the canonical frame before any work (:func:`prspace.audit.audit_result.read_frame`)."""
    if keys.any_na(data["row"]):
        return
    for task, g in task_groups(data):
        row_code, row_values = keys.factorize(g["row"])
        model_code, model_values = keys.factorize(g["model"])
        n_rows = len(row_values)
        pair = model_code.astype(np.int64) * n_rows + row_code
        count = np.bincount(pair, minlength=len(model_values) * n_rows).reshape(len(model_values), n_rows)
        twice = count > 1
        if not twice.any():
            continue
        seen = (count > 0).sum(axis=1)
        for m in np.flatnonzero(twice.any(axis=1)):
            if twice[m].sum() >= 0.5 * seen[m]:  # fold-local ids: (fold, row id) names a row
                continue
            first = int(np.flatnonzero(twice[m][row_code] & (model_code == m))[0])
            rid = row_code[first]
            folds = g["fold"].to_numpy()[(model_code == m) & (row_code == rid)]
            where = f" of task {task!r}" if data["task"].nunique() > 1 else ""
            col = f" (column {row_col!r})" if row_col else ""
            fold_text = ", ".join(dict.fromkeys(map(str, folds)))
            raise InputError(
                f"model {str(model_values[m])!r}{where} scores row id {str(row_values[rid])!r}{col} in {len(folds)} "
                f"folds ({fold_text}); a model has one score per test row: drop the extra rows"
                + ("" if int(twice[m].sum()) == 1 else f" ({int(twice[m].sum())} row ids repeat in this model)")
                + ", or name the repeat column with --repeat-col if the file holds several cross-validation repeats")
