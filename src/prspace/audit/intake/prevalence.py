"""``--train-pi``: the positive class's prevalence before any downsampling, as a number or a column of the table
(one number per task), read and checked once for ``prspace audit`` and the API."""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.core.errors import InputError


def parse_train_pi(
    value: str | None, df: pd.DataFrame, data: pd.DataFrame
) -> float | dict[str, float] | None:
    """``--train-pi``: the training prevalence as a number in (0, 1), or the name of a column of
    ``df`` holding it, one number per task (of the prepared ``data``): ``{task: pi}``."""
    if value is None:
        return None
    try:
        pi: float | None = float(value)
    except ValueError:
        pi = None
    if pi is None:
        if value not in df.columns:
            raise InputError(
                f"--train-pi {value!r} is neither a number nor a column of the file; give the training "
                "prevalence as a number in (0, 1) or name the column that holds it"
            )
        col = pd.to_numeric(df[value], errors="coerce").reset_index(drop=True)
        if col.isna().any() or not ((col > 0) & (col < 1)).all():
            raise InputError(
                f"column {value!r} (--train-pi) must hold numbers strictly between 0 and 1 in every row"
            )
        per_task = col.groupby(data["task"]).agg(["min", "max"])
        varying = per_task.index[per_task["max"] - per_task["min"] > 1e-12]
        if len(varying):
            raise InputError(
                f"column {value!r} (--train-pi) varies within task {varying[0]!r}; it must be one number per task"
            )
        return {str(t): float(v) for t, v in per_task["min"].items()}
    if not (0 < pi < 1) or not np.isfinite(pi):
        raise InputError(
            f"--train-pi must lie strictly between 0 and 1, got {value}; give the training prevalence"
        )
    return pi


def _train_pi(train_pi: float | dict[str, float] | None, tasks) -> dict[str, float] | None:
    if isinstance(train_pi, (int, float)):
        if not 0 < float(train_pi) < 1:
            raise InputError(f"--train-pi must lie strictly between 0 and 1, got {float(train_pi):g}; give the "
                             "training prevalence")
        return {t: float(train_pi) for t in tasks}
    return train_pi
