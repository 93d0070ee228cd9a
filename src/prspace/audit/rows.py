"""Models scored on nearly the same test rows: pair them on the rows every model shares.

With row ids, a model that lacks a few of the task's rows (it failed on them, or they were
filtered) would make the task "not comparable" and switch every paired test off.
:func:`shared_rows` keeps, per task, only the rows (fold, row id) that every model scored, when

* every model keeps at least :data:`MIN_SHARED` of its rows, and
* the shared rows carry the same label and weight for every model, with both classes;

and says what it dropped, per model.  Otherwise the task is left as it is (models scored on
different test rows stay "not comparable": ``different-test-rows``).  Every number of the task
(metrics, intervals, paired tests) is then on the shared rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: a model must keep at least this share of its rows for the task to be paired on the shared rows
MIN_SHARED = 0.5


def _keys(g: pd.DataFrame) -> pd.Series:
    return g["fold"].map(str) + "\x00" + g["row"].map(str)


def shared_rows(data: pd.DataFrame) -> tuple[pd.DataFrame, list[dict]]:
    """``data`` (the canonical frame) restricted to the rows every model of a task shares, and one
    record per task and model that lost rows: ``task, model, n_rows, n_dropped, n_shared, missing``
    (``missing``: up to 5 row ids the model lacks that others have)."""
    keep = np.ones(len(data), dtype=bool)
    dropped: list[dict] = []
    for task, g in data.groupby("task", sort=True):
        models = sorted(g["model"].unique())
        if len(models) < 2 or g["row"].isna().any():
            continue
        key = _keys(g)
        if key.groupby(g["model"]).apply(lambda k: k.duplicated().any()).any():
            continue
        sets = {m: set(key[g["model"] == m]) for m in models}
        shared = set.intersection(*sets.values())
        if all(len(s) == len(shared) for s in sets.values()):
            continue
        if not shared or any(len(shared) < MIN_SHARED * len(s) for s in sets.values()):
            continue
        inside = key.isin(shared).to_numpy()
        sub = g[inside].assign(_k=key[inside])
        agree = sub.groupby("_k").agg(y=("y", "nunique"), w=("weight", "nunique"))
        if (agree["y"] > 1).any() or (agree["w"] > 1).any():
            continue
        first = sub[sub["model"] == models[0]]
        if first["y"].all() or not first["y"].any():
            continue
        keep[np.flatnonzero((data["task"] == task).to_numpy())[~inside]] = False
        order = pd.unique(key)  # file order
        for m in models:
            lacks = [k for k in order if k not in sets[m]]
            dropped.append({"task": task, "model": m, "n_rows": len(sets[m]), "n_dropped": len(sets[m]) - len(shared),
                            "n_shared": len(shared), "n_missing": len(lacks),
                            "missing": [k.split("\x00", 1)[1] for k in lacks[:5]]})
    return data[keep].reset_index(drop=True), dropped
