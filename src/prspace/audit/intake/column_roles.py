"""Which input column holds what: :class:`Columns`, picked by :func:`resolve_columns`.

The roles' default names (:data:`DEFAULT_COLUMNS`) follow the predictions schema of
:mod:`prspace.core.schema`; :func:`prspace.audit.intake.inputs.prepare` reads the table through the
columns picked. The names are also importable from :mod:`prspace.audit.intake.inputs`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from prspace.core.errors import InputError

DEFAULT_COLUMNS = {
    "model": ("model", "model_id"),
    "label": ("y_true", "label", "y", "target"),
    "score": ("score", "y_score"),
    "fold": ("fold",),
    "task": ("task_id", "task", "dataset", "dataset_id", "dataset_name", "task_name", "data"),
    "weight": ("weight", "sample_weight"),
    "repeat": ("repeat",),
    "row": ("row_id", "row"),
}


@dataclasses.dataclass(frozen=True)
class Columns:
    """Which input column holds what (``None``: absent).

    :func:`resolve_columns` makes one from a table's column names; :func:`prspace.audit.prepare` reads the table
    through it.

    Parameters
    ----------
    model : str or None
        The column naming each row's model; None: the whole table is one model.
    label : str
        The column of the true labels (two values).
    score : str
        The column of the scores (larger = more positive).
    fold, task, weight, repeat, row : str, optional
        The columns of the cross-validation fold, the task (dataset), the sample weight, the
        cross-validation repeat and the test row's id; None: absent.

    See Also
    --------
    resolve_columns : The columns picked from a table's column names.
    prspace.audit.prepare : The table read through them.

    Examples
    --------
    >>> from prspace.audit import Columns
    >>> cols = Columns(model="model", label="y_true", score="score", row="row_id")
    >>> cols.fold is None, cols.row
    (True, 'row_id')
    """

    model: str | None
    label: str
    score: str
    fold: str | None = None
    task: str | None = None
    weight: str | None = None
    repeat: str | None = None
    row: str | None = None


def resolve_columns(
    available: Sequence[str],
    *,
    model: str | None = None,
    label: str | None = None,
    score: str | None = None,
    fold: str | None = None,
    task: str | None = None,
    weight: str | None = None,
    repeat: str | None = None,
    row: str | None = None,
) -> Columns:
    """Pick the input columns: those named, else the first default name present.

    Defaults (:data:`DEFAULT_COLUMNS`) follow the predictions schema of
    :mod:`prspace.core.schema`.  Without a model column the whole file is one model;
    fold, task, weight and repeat are optional; an explicitly named column must exist.
    An empty string switches an optional column off.

    Parameters
    ----------
    available : sequence of str
        The table's column names.
    model, label, score, fold, task, weight, repeat, row : str, optional
        The column holding each role (the command line's ``--model-col`` ... ``--row-col``); None:
        the first of the role's default names present; ``""``: none (not for ``label`` and ``score``).

    Returns
    -------
    Columns
        The column of each role, None where the role is absent.

    Raises
    ------
    prspace.core.errors.InputError
        A named column the table lacks, no label or score column found, or one column given two roles.

    See Also
    --------
    prspace.audit.prepare : The table read through the columns picked.
    prspace.audit.audit : The audit, which picks its columns so.

    Examples
    --------
    >>> from prspace.audit import resolve_columns
    >>> resolve_columns(["model", "y_true", "score", "row_id"])
    Columns(model='model', label='y_true', score='score', fold=None, task=None, weight=None, repeat=None, row='row_id')
    >>> resolve_columns(["label", "p", "id"], score="p", row="id").score
    'p'
    """
    cols = [str(c) for c in available]
    listing = ", ".join(repr(c) for c in cols)
    given = {
        "model": model,
        "label": label,
        "score": score,
        "fold": fold,
        "task": task,
        "weight": weight,
        "repeat": repeat,
        "row": row,
    }
    chosen: dict[str, str | None] = {}
    for role, name in given.items():
        if name == "" and role in ("model", "fold", "task", "weight", "repeat", "row"):
            chosen[role] = None
            continue
        if name is not None:
            if name not in cols:
                raise InputError(
                    f"no column {name!r} (given with --{role}-col); the file has columns {listing}: "
                    f"pass one of them with --{role}-col"
                )
            chosen[role] = name
            continue
        found = next((c for c in DEFAULT_COLUMNS[role] if c in cols), None)
        if found is None and role in ("label", "score"):
            tried = " or ".join(repr(c) for c in DEFAULT_COLUMNS[role])
            raise InputError(
                f"no {role} column: looked for {tried}; the file has columns {listing}: "
                f"name it with --{role}-col"
            )
        chosen[role] = found
    used = [c for c in chosen.values() if c is not None]
    dup = sorted({c for c in used if used.count(c) > 1})
    if dup:
        raise InputError(f"column {dup[0]!r} is used for two roles; give each role its own column")
    return Columns(**chosen)  # type: ignore[arg-type]
