"""An OpenML task's data with the task's own splits (repeat 0), as a :class:`Dataset` (online;
the ``openml`` client as configured)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from prspace.core.errors import InputError
from prspace.data.dataset import (
    Dataset,
    positive_label,
)
from prspace.data.dataset import package_version as _version

# ------------------------------------------------------------------- OpenML tasks


def _load_openml(task_id: str) -> Dataset:
    """An OpenML classification task with the task's own splits (repeat 0).

    Needs the network (or a warm ``openml`` cache); uses the ``openml`` client as
    configured (``openml.config.server``, ``openml.config.set_root_cache_directory``).
    Lowest priority path: not exercised against openml.org here (see docs/local.md).
    """
    m = re.fullmatch(r"openml-(\d+)", task_id)
    if m is None:
        raise InputError(f"{task_id!r}: an OpenML task id looks like openml-<number>, e.g. openml-59")
    tid = int(m.group(1))
    try:
        import openml

        task = openml.tasks.get_task(tid, download_splits=True, download_data=True)
        X, y = task.get_X_and_y(dataset_format="dataframe")
        n_repeats, n_folds, n_samples = task.get_split_dimensions()
        test_fold = np.full(len(y), -1, dtype=np.int32)
        for k in range(n_folds):
            _, test = task.get_train_test_split_indices(fold=k, repeat=0, sample=n_samples - 1)
            test_fold[np.asarray(test, dtype=np.int64)] = k
    except InputError:
        raise
    except Exception as exc:  # network, server or parsing trouble: one clear line
        raise InputError(
            f"cannot get OpenML task {tid} ({type(exc).__name__}: {str(exc)[:200]}); "
            "check the network or openml.config.server, or use the embedded suite offline"
        ) from None
    if (test_fold < 0).any():
        raise InputError(
            f"OpenML task {tid}: {int((test_fold < 0).sum())} rows are in no test fold of repeat 0; "
            "pick a cross-validation task"
        )
    labels = pd.Series(np.asarray(y)).astype(str)
    if labels.nunique() != 2:
        raise InputError(f"OpenML task {tid} has {labels.nunique()} classes; prspace needs a binary task")
    pos = positive_label(labels)
    X = pd.DataFrame(X).reset_index(drop=True)
    for col in X.columns:  # categories/strings -> object, so the encoder sees categories
        if not pd.api.types.is_numeric_dtype(X[col]) or pd.api.types.is_bool_dtype(X[col]):
            X[col] = X[col].astype(object).where(X[col].notna(), np.nan)
    X.columns = [str(c) for c in X.columns]
    dataset_id = str(getattr(task, "dataset_id", ""))
    return Dataset(
        X=X,
        y=(labels == pos).to_numpy(dtype=bool),
        name=f"OpenML dataset {dataset_id}",
        task_id=task_id,
        positive_class=str(pos),
        provenance=f"OpenML task {tid} via openml {_version('openml')}",
        dataset_id=dataset_id,
        notes="folds: the OpenML task's own splits (repeat 0)",
        folds=test_fold,
        folds_procedure=f"OpenML task {tid} splits, repeat 0 of {n_repeats}, {n_folds} folds",
    )
