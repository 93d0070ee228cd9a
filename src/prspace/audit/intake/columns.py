"""Every column of the user's table accounted for.

:func:`prspace.audit.intake.table_check.resolve` picks the columns
(:func:`prspace.audit.intake.inputs.resolve_columns`, whose defaults recognise the common names:
``weight``/``sample_weight``, ``row``/``row_id``, ``dataset``/``task`` as the task column when it groups
rows), and :func:`account` checks the columns it did not use.
A column not used that looks like a role is an :class:`~prspace.core.errors.InputError` naming the
column and the option that uses it (``--ignore-col NAME`` accepts it as unused), because leaving
it out changes what is audited: a dataset column left out pools two tasks into one, a weight
column left out counts every row once, a row id left out pairs the models' rows by position.
A column looks like a role (the model aside: a text column that looks like a model column is
:func:`prspace.audit.intake.row_checks.check_model_candidates`'s) when

* its name is one of a role's names (:data:`ROLE_NAMES`) and it is not the column used for that
  role (unless it holds the same grouping: a one-to-one relabelling of the used column);
* rows repeat: with a row id, the same (task, model, repeat, fold, row id) occurs several times
  and the column tells the copies apart (a task or repeat column);
* the positive rate differs between its values beyond chance: a chi-square test of independence
  of the column and the label on one model's rows, p < :data:`PREVALENCE_P` (a task column; a
  fold column when its values are small integers), for a column of at most
  :data:`MAX_GROUPS` values with at least :data:`MIN_GROUP_ROWS` rows each; or
* without a fold column: its values are the integers 0..k-1 (or 1..k), 2 <= k <= 20, splitting
  every model's rows into parts whose sizes differ by at most 2 (a fold column, stratified or not).

A column whose two values are the label's (hard predictions) is never taken for a grouping.

A text column not used that splits every model's rows into the same few groups (at most
:data:`MAX_POOLED_GROUPS` values, each model holding every value on the same number of rows, and,
with row ids, one value per row id), as a dataset or source label does, is not an error (it may be
a feature) but is not silent either: :func:`grouping_columns` finds it, the columns line names it
with ``--task-col``, and the audit's headline says the groups were pooled (``pooled-groups``).
The wide layout (``--score-cols``) is :func:`prspace.audit.intake.table_check.to_long`'s.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.audit.intake.inputs import DEFAULT_COLUMNS, Columns
from prspace.audit.intake.row_checks import model_candidates
from prspace.core.errors import InputError

#: The names of each role; a column not used with one of these names is checked (:func:`account`).
ROLE_NAMES = {
    "task": (*DEFAULT_COLUMNS["task"], "data_id", "data_name", "dataset_key"),
    "fold": ("fold", "fold_id", "cv_fold", "folds", "split", "cv"),
    "repeat": ("repeat", "repeat_id", "repetition", "rep"),
    "weight": (*DEFAULT_COLUMNS["weight"], "weights", "sample_weights", "case_weight", "case_weights"),
    "row": (*DEFAULT_COLUMNS["row"], "id", "row_index", "example_id", "sample_id", "instance_id", "example", "idx"),
}
ROLE_TEXT = {"model": "model", "label": "label", "score": "score", "fold": "fold", "task": "task",
             "weight": "sample weight", "repeat": "repeat", "row": "row id"}
#: the order in which the reports name the roles
ROLE_ORDER = ("task", "model", "label", "score", "fold", "repeat", "row", "weight")
#: a chi-square p below this says the positive rate differs between a column's values beyond chance
PREVALENCE_P = 1e-6
MAX_GROUPS = 50
MIN_GROUP_ROWS = 10
MAX_FOLDS = 20
#: a text column with at most this many values splitting every model's rows alike is named as pooled
MAX_POOLED_GROUPS = 10


@dataclasses.dataclass(frozen=True)
class Accounting:
    """Which column holds what (``roles``: role -> column(s)) and why each other column is not used."""

    roles: dict[str, str]
    unused: dict[str, str]
    #: columns not used that split every model's rows into the same few groups: column -> its values
    groupings: dict[str, list[str]] = dataclasses.field(default_factory=dict)

    def lines(self) -> list[str]:
        """``columns: task 'dataset', model 'model', ...`` and ``not used: 'x' (why)``."""
        used = "columns: " + ", ".join(f"{ROLE_TEXT.get(r, r)} {c}" for r, c in self.roles.items())
        out = [used]
        if self.unused:
            out.append("not used: " + ", ".join(f"{c!r}" + (f" ({why})" if why else "")
                                                for c, why in self.unused.items()))
        return out


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(name).strip().lower()).strip("_")


def _groups(col: pd.Series) -> bool:
    k = col.nunique(dropna=False)
    return 2 <= k <= MAX_GROUPS and k * 2 <= len(col)


def _same_grouping(a: pd.Series, b: pd.Series) -> bool:
    """``a`` and ``b`` relabel each other one to one."""
    frame = pd.DataFrame({"a": a.astype(str).to_numpy(), "b": b.astype(str).to_numpy()})
    return bool((frame.groupby("a")["b"].nunique() == 1).all() and (frame.groupby("b")["a"].nunique() == 1).all())


def _prediction_like(col: pd.Series, label: pd.Series) -> bool:
    values = set(pd.unique(col.astype(str)))
    return len(values) <= 2 and (values <= set(pd.unique(label.astype(str))) or values <= {"0", "1", "True", "False",
                                                                                            "-1", "0.0", "1.0"})


def _small_integers(col: pd.Series) -> np.ndarray | None:
    if pd.api.types.is_bool_dtype(col) or not pd.api.types.is_numeric_dtype(col) or col.isna().any():
        return None
    v = col.to_numpy(np.float64)
    if not np.all(v == np.round(v)):
        return None
    values = np.unique(v)
    if not 2 <= len(values) <= MAX_FOLDS or values[0] not in (0, 1) or not np.all(np.diff(values) == 1):
        return None
    return values


def _reference_rows(df: pd.DataFrame, cols: Columns) -> pd.Series:
    """The rows of one model (the first, or the whole table without a model column) of the first task."""
    mask = pd.Series(True, index=df.index)
    if cols.model:
        mask &= df[cols.model] == df[cols.model].iloc[0]
    if cols.task:
        mask &= df[cols.task] == df[cols.task].iloc[0]
    return mask


def _prevalence_p(col: pd.Series, label: pd.Series) -> float:
    """Chi-square test of independence of ``col`` and the two-valued ``label`` (scipy, no continuity
    correction); 1 when a value holds fewer than :data:`MIN_GROUP_ROWS` rows or the label is not binary."""
    g, _ = pd.factorize(col, use_na_sentinel=False)
    lab, levels = pd.factorize(label, use_na_sentinel=False)
    if len(levels) != 2 or g.max() < 1:
        return 1.0
    table = np.bincount(2 * g + lab, minlength=2 * (g.max() + 1)).reshape(-1, 2)
    if (table.sum(axis=1) < MIN_GROUP_ROWS).any():
        return 1.0
    from scipy.stats import chi2_contingency  # deferred: scipy.stats (docs/architecture.md)

    return float(chi2_contingency(table, correction=False).pvalue)


def _looks(df: pd.DataFrame, cols: Columns, name: str, label: pd.Series) -> str | None:
    """Why the unused column ``name`` looks like a role (the error's clause), or None."""
    named, why = _named_like(df, cols, name)
    if named:
        return why
    col = df[name]
    if col.isna().any() or _prediction_like(col, label):
        return None
    return _copies_apart(df, cols, name) or _rate_differs(df, cols, name, label) or _fold_like(df, cols, name)


def _named_like(df: pd.DataFrame, cols: Columns, name: str) -> tuple[bool, str | None]:
    """Whether ``name`` is one of a role's names (:data:`ROLE_NAMES`), and then the error's clause, or None when
    the column used for that role holds the same grouping."""
    norm = _norm(name)
    chosen = dataclasses.asdict(cols)
    for role, names in ROLE_NAMES.items():
        if norm not in names:
            continue
        used = chosen.get(role)
        if used is not None and _same_grouping(df[used], df[name]):
            return True, None
        if used is not None:
            return True, (f"column {name!r} is named like a {ROLE_TEXT[role]} column but {used!r} is used for that "
                          f"role: pass --{role}-col {name} to use it instead, or --ignore-col {name} if it is not one")
        return True, (f"column {name!r} is named like a {ROLE_TEXT[role]} column: pass --{role}-col {name}, or "
                      f"--ignore-col {name} if it is not one")
    return False, None


def _copies_apart(df: pd.DataFrame, cols: Columns, name: str) -> str | None:
    """With a row id: the error's clause when the same key occurs several times and ``name`` tells the copies
    apart (a task or repeat column), else None."""
    if not cols.row:
        return None
    col = df[name]
    key = [c for c in (cols.task, cols.model, cols.repeat, cols.fold, cols.row) if c]
    if df.duplicated(key).any() and not df.duplicated([*key, name]).any():
        role = "repeat" if _small_integers(col) is not None and cols.repeat is None else "task"
        return (f"column {name!r} looks like a {role} column: the same ({', '.join(key)}) occurs under "
                f"{col.nunique()} of its values; pass --{role}-col {name}, or --ignore-col {name} if it is not one")
    return None


def _rate_differs(df: pd.DataFrame, cols: Columns, name: str, label: pd.Series) -> str | None:
    """The error's clause when the positive rate differs between the values of ``name`` beyond chance on one
    model's rows (:func:`_prevalence_p` below :data:`PREVALENCE_P`), else None."""
    col = df[name]
    ref = _reference_rows(df, cols)
    if not _groups(col[ref]):
        return None
    p = _prevalence_p(col[ref], label[ref])
    if p >= PREVALENCE_P:
        return None
    rates = label[ref].astype(str).eq(str(label[ref].astype(str).value_counts().idxmin())).groupby(
        col[ref].astype(str)).mean()
    role = "fold" if _small_integers(col) is not None and cols.fold is None else "task"
    return (f"column {name!r} looks like a {role} column: the rate of the rarer label differs between its "
            f"{len(rates)} values ({rates.min():.3g} to {rates.max():.3g}; chi-square p = {p:.1g}), so pooling "
            f"them mixes different test sets; pass --{role}-col {name}, or --ignore-col {name} if it is not one")


def _fold_like(df: pd.DataFrame, cols: Columns, name: str) -> str | None:
    """Without a fold column: the error's clause when ``name`` holds the integers 0..k-1 (or 1..k) splitting
    every model's rows into parts whose sizes differ by at most 2, else None."""
    col = df[name]
    values = _small_integers(col)
    if cols.fold is not None or values is None:
        return None
    by = [df[cols.model]] if cols.model else []
    sizes = df.groupby([*by, col], sort=False).size()
    per = sizes.groupby(level=0).agg(["min", "max", "size"]) if cols.model else pd.DataFrame(
        {"min": [sizes.min()], "max": [sizes.max()], "size": [len(sizes)]})
    if (per["size"] == len(values)).all() and ((per["max"] - per["min"]) <= 2).all() and per["min"].min() >= 2:
        return (f"column {name!r} looks like a fold column (the integers {int(values[0])} to {int(values[-1])}, "
                f"splitting every model's rows into equal parts); pass --fold-col {name}, or --ignore-col {name} "
                "if it is not one")
    return None


def _grouping(df: pd.DataFrame, cols: Columns, name: str, label: pd.Series) -> list[str] | None:
    """The values of ``name`` if it is a text column that splits every model's rows into the same few
    groups (module docstring), else None."""
    col = df[name]
    if pd.api.types.is_numeric_dtype(col) or col.isna().any() or _prediction_like(col, label):
        return None
    text = col.astype(str)
    values = sorted(pd.unique(text))
    if not 2 <= len(values) <= MAX_POOLED_GROUPS:
        return None
    for other in (cols.fold, cols.repeat, cols.task):
        if other is not None and _same_grouping(df[other], col):
            return None
    keys = [df[c].astype(str) for c in (cols.task, cols.model) if c]
    sizes = text.groupby(keys + [text] if keys else [text]).size()
    if (sizes < MIN_GROUP_ROWS).any():
        return None
    if cols.model:
        per = sizes.unstack(fill_value=0)  # rows: (task,) model; columns: the values
        task_level = per.index.get_level_values(0) if cols.task else np.zeros(len(per))
        if (per == 0).any(axis=None) or (per.groupby(task_level).nunique() > 1).any(axis=None):
            return None
    elif len(values) * MIN_GROUP_ROWS > len(df):
        return None
    if cols.row and pd.DataFrame({"r": df[cols.row].astype(str), "v": text}).groupby("r")["v"].nunique().max() > 1:
        return None
    return [str(v) for v in values]


def grouping_columns(df: pd.DataFrame, cols: Columns, names: Sequence[str]) -> dict[str, list[str]]:
    """Of the columns ``names`` (not used for a role), those that split every model's rows into the same
    few groups (:func:`_grouping`): column -> its values."""
    label = df[cols.label]
    out = {}
    for name in names:
        values = _grouping(df, cols, name, label)
        if values is not None:
            out[name] = values
    return out


def account(df: pd.DataFrame, cols: Columns, *, ignore: Sequence[str] = (), given: dict[str, str | None] | None = None,
            extra: dict[str, str] | None = None) -> Accounting:
    """Check every column of ``df`` not used for a role (module docstring); return the roles and the
    columns not used.  ``ignore``: columns the user accepts as unused (``--ignore-col``); ``given``: the
    role options (an empty string: the user switched the role off); ``extra``: more roles ->
    their column text (``--train-pi``'s column, the wide layout's score columns)."""
    available = [str(c) for c in df.columns]
    bad = [c for c in ignore if c not in available]
    if bad:
        raise InputError(f"--ignore-col: no column {bad[0]!r}; the file has columns "
                         f"{', '.join(repr(c) for c in available)}")
    chosen, roles, used = _roles(cols, extra or {})
    label = df[cols.label]
    unused: dict[str, str] = {}
    problems = []
    off = {r for r, v in (given or {}).items() if v == ""}
    model_like = _model_like(df, cols, label)
    for name in (n for n in available if n not in used):
        why, problem = _unused(df, cols, name, label, chosen=chosen, ignore=ignore, off=off, model_like=model_like)
        if problem:
            problems.append(problem)
        elif why is not None:
            unused[name] = why
    if problems:
        raise InputError("; ".join(problems))
    groupings = grouping_columns(df, cols, [c for c, why in unused.items() if why == ""])
    for name, values in groupings.items():
        unused[name] = (f"splits every model's rows into the same {len(values)} groups, pooled here: "
                        f"--task-col {name} audits each apart")
    return Accounting(roles, unused, groupings)


def _roles(cols: Columns, extra: dict[str, str]) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """The column of each role, the roles' texts in the reports' order (``extra``'s after), and every column
    used (``extra``'s quoted names too)."""
    chosen = {r: c for r, c in dataclasses.asdict(cols).items() if c is not None}
    roles = {r: repr(chosen[r]) for r in ROLE_ORDER if r in chosen}
    roles.update(extra)
    used = set(chosen.values()) | {c for v in extra.values() for c in re.findall(r"'([^']*)'", v)}
    return chosen, roles, used


def _model_like(df: pd.DataFrame, cols: Columns, label: pd.Series) -> set[str]:
    """Without a model column: the columns that look like one (left to prepare's
    :func:`~prspace.audit.intake.row_checks.check_model_candidates` and its message, or switched off)."""
    if cols.model is not None:
        return set()
    as_text = label.astype(str)
    return {n for n, _ in model_candidates(df, cols, (as_text == as_text.iloc[0]).to_numpy())}


def _unused(df: pd.DataFrame, cols: Columns, name: str, label: pd.Series, *, chosen: dict[str, str],
            ignore: Sequence[str], off: set[str], model_like: set[str]) -> tuple[str | None, str | None]:
    """:func:`account`'s verdict on the column ``name``, not used for a role: ``(why it is not used, None)``,
    ``(None, the error's clause)`` when it looks like a role (:func:`_looks`), or ``(None, None)`` for a
    model-like column left to prepare's check."""
    if name in model_like:
        return ("--model-col ''" if "model" in off else None), None
    if name in ignore:
        return "--ignore-col", None
    role = next((r for r, names in ROLE_NAMES.items() if _norm(name) in names), None)
    if role in off:
        return f"--{role}-col ''", None
    why = _looks(df, cols, name, label)
    if why:
        return None, why
    role_used = chosen.get(role) if role else None
    return (f"same values as the {ROLE_TEXT[role]} column" if role_used else ""), None
