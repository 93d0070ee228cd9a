"""The audit's notebook form: ``audit(y_true, scores={"name": array, ...})`` turned into the long
table the table form reads (one row per model and test row), with every problem of the arrays named
before any work.

The arrays are the test set's labels, each model's scores on the same rows in the same order, and
optionally ``sample_weight`` and ``folds`` (one value per row); every model is scored on every row,
so the models are paired by position (the table's row id is the position).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from prspace.core.errors import InputError

#: the long table's column names (what the audit's messages about the arrays name)
LABEL, MODEL, SCORE, WEIGHT, FOLD, ROW = "y_true", "model", "score", "sample_weight", "fold", "row_id"
#: the table form's column options, which the array form does not take
TABLE_OPTIONS = ("model", "label", "score", "fold", "task", "weight", "repeat", "row", "score_cols", "ignore")


def _vector(name: str, values: Any, n: int | None) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise InputError(f"{name} must be one-dimensional (one value per test row), got shape {arr.shape}; "
                         "pass a 1-D array, list or pandas Series")
    if n is not None and arr.shape[0] != n:
        raise InputError(f"{name} has {arr.shape[0]} values but y_true has {n}; give every array one value per "
                         "test row, in the same order")
    return arr


def _named_scores(scores: Any) -> dict[str, Any]:
    if isinstance(scores, pd.DataFrame):
        return {str(c): scores[c].to_numpy() for c in scores.columns}
    if isinstance(scores, Mapping):
        names = [str(k) for k in scores]
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            raise InputError("the model names (the keys of scores=) must be distinct, non-empty texts; rename them")
        return dict(zip(names, scores.values(), strict=True))
    raise InputError("scores= must map each model's name to its scores, e.g. scores={'logreg': p1, 'forest': p2} "
                     f"(a dict or a pandas DataFrame, one column per model), got {type(scores).__name__}")


def frame_from_arrays(y_true: Any, scores: Any, *, sample_weight: Any = None, folds: Any = None,
                      **table_options: Any) -> tuple[pd.DataFrame, dict[str, str | None]]:
    """The long table of the arrays and the column of each role, for the table form of the audit.

    ``scores``: model name -> scores (larger = more positive), a dict or a DataFrame with one column
    per model.  ``table_options``: the table form's column options, which must be unset here.
    Raises :class:`~prspace.core.errors.InputError` naming the problem and the fix.
    """
    given = sorted(k for k, v in table_options.items() if v is not None)
    if given:
        raise InputError(f"{', '.join(given)}= name columns of a table; with arrays (audit(y_true, scores=...)) "
                         "pass sample_weight= and folds= as arrays, or pass a DataFrame as the first argument")
    y = _vector("y_true", y_true, None)
    n = y.shape[0]
    if n == 0:
        raise InputError("y_true is empty; audit a test set with positives and negatives")
    named = _named_scores(scores)
    if not named:
        raise InputError("scores= holds no model; give each model's scores, e.g. scores={'logreg': p}")
    cols: dict[str, Any] = {MODEL: np.repeat(np.array(list(named), dtype=object), n),
                            LABEL: np.tile(y, len(named)),
                            SCORE: np.concatenate([_vector(f"scores[{k!r}]", v, n) for k, v in named.items()]),
                            ROW: np.tile(np.arange(n), len(named))}
    roles: dict[str, str | None] = {"model": MODEL, "label": LABEL, "score": SCORE, "row": ROW, "fold": "",
                                    "weight": "", "task": "", "repeat": ""}
    if sample_weight is not None:
        cols[WEIGHT] = np.tile(_vector("sample_weight", sample_weight, n), len(named))
        roles["weight"] = WEIGHT
    if folds is not None:
        cols[FOLD] = np.tile(_vector("folds", folds, n), len(named))
        roles["fold"] = FOLD
    return pd.DataFrame(cols), roles


def describe(n: int, names: list[str], *, weighted: bool, folds: bool) -> list[str]:
    """The line that takes the place of the columns' accounting in the reports."""
    extra = "".join([", sample_weight" if weighted else "", ", folds" if folds else ""])
    return [f"arrays: y_true ({n} rows), scores of {len(names)} model(s) ({', '.join(names)}){extra}; "
            "every model scored on every row, paired by position"]
