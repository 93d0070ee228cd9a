"""The user's table made long and its columns resolved and accounted for, before any work
(:func:`check_table`).

:func:`to_long` turns a wide table (``--score-cols``: one numeric score column per model) into the long
one every other step reads; :func:`resolve` picks the columns (:func:`prspace.audit.intake.inputs.resolve_columns`,
and a table with several numeric columns and no score column is recognised as wide); every other column
is checked by :func:`prspace.audit.intake.columns.account`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.audit.intake.columns import ROLE_NAMES, Accounting, _norm, account
from prspace.audit.intake.inputs import DEFAULT_COLUMNS, Columns, resolve_columns
from prspace.core.errors import InputError


def wide_candidates(df: pd.DataFrame, used: Sequence[str]) -> list[str]:
    """Numeric columns, not used for another role and not named like one, with at least two values:
    the score columns of a wide table (one per model)."""
    named = {n for names in ROLE_NAMES.values() for n in names} | {"y_true", "label", "y", "target"}
    out = []
    for c in df.columns:
        c = str(c)
        col = df[c]
        if c in used or _norm(c) in named or c.startswith("Unnamed:"):
            continue
        if pd.api.types.is_bool_dtype(col) or not pd.api.types.is_numeric_dtype(col) or col.nunique() < 2:
            continue
        out.append(c)
    return out


def parse_list(value: str | Sequence[str] | None) -> list[str]:
    """``a,b,c`` (or a list of such) -> ``['a', 'b', 'c']``."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) else list(value)
    return [p.strip() for item in items for p in str(item).split(",") if p.strip()]


def to_long(df: pd.DataFrame, score_cols: str | Sequence[str], *, row: str | None = None) -> tuple[pd.DataFrame, list[str]]:
    """A wide table (one numeric score column per model) as the long table: columns ``model`` and
    ``score`` (the model is the score column's name) and, without a row id column, ``row_id`` (the
    line of the file: every model scored the examples of one line).  ``score_cols``: the names, or
    ``all`` for every numeric column not named like another role (:func:`wide_candidates`).
    A missing score (empty cell) means that model did not score that example: the row is left out
    for that model (and paired on the rows every model shares, :mod:`prspace.audit.intake.rows`)."""
    names = _score_names(df, score_cols, row)
    cols = [str(c) for c in df.columns]
    base = df.drop(columns=names)
    if row is None:
        row = "row_id" if "row_id" not in cols else "_row"
        base = base.assign(**{row: np.arange(len(df))})
    parts = []
    models = pd.Index(names, dtype="str")
    for name in names:  # the model a categorical (one byte a row) of the score columns' names, sorted
        code = np.full(len(df), models.sort_values().get_loc(name), dtype=np.int8 if len(names) < 128 else np.int64)
        model = pd.Categorical.from_codes(code, categories=models.sort_values())
        part = base.assign(model=model, score=df[name].to_numpy())
        parts.append(part[df[name].notna().to_numpy()])
    return pd.concat(parts, ignore_index=True), names


def _score_names(df: pd.DataFrame, score_cols: str | Sequence[str], row: str | None) -> list[str]:
    """The score columns ``--score-cols`` names (``all``: :func:`wide_candidates`), checked: at least one,
    each a column of ``df`` named once, and no column ``model`` or ``score`` that the wide layout would make."""
    names = parse_list(score_cols)
    cols = [str(c) for c in df.columns]
    if names == ["all"] and "all" not in cols:
        label = next((c for c in DEFAULT_COLUMNS["label"] if c in cols), None)
        names = wide_candidates(df, [c for c in (label, row) if c])
    if len(names) < 1:
        raise InputError("--score-cols names no column; give the score columns, one per model, e.g. "
                         "--score-cols logreg,rf,hgb")
    missing = [n for n in names if n not in cols]
    if missing:
        raise InputError(f"--score-cols: no column {missing[0]!r}; the file has columns "
                         f"{', '.join(repr(c) for c in cols)}")
    if len(set(names)) < len(names):
        raise InputError("--score-cols names a column twice; name each model's score column once")
    clash = [c for c in ("model", "score") if c in cols and c not in names]
    if clash:
        raise InputError(f"--score-cols: the file already has a column {clash[0]!r}, which the wide layout "
                         "creates; rename it")
    return names


def resolve(df: pd.DataFrame, given: dict[str, str | None]) -> Columns:
    """:func:`~prspace.audit.intake.inputs.resolve_columns` on ``df``; without a score column, a table with
    several numeric columns is recognised as wide and the message names ``--score-cols``; a task
    column taken by default that does not group rows (a value per row) is not taken."""
    try:
        cols = resolve_columns(list(df.columns), **given)
    except InputError as exc:
        if "no score column" not in str(exc):
            raise
        used = [c for c in given.values() if c] + [c for c in DEFAULT_COLUMNS["label"] if c in df.columns][:1]
        wide = wide_candidates(df, used)
        if len(wide) < 2:
            raise
        shown = ",".join(wide[:8])
        raise InputError(f"{exc}; or, if the file is wide (one score column per model: "
                         f"{', '.join(repr(c) for c in wide[:8])}{', ...' if len(wide) > 8 else ''}), pass "
                         f"--score-cols {shown}{',...' if len(wide) > 8 else ''} (or --score-cols all)") from None
    if given.get("task") is None and cols.task is not None and df[cols.task].nunique() * 2 > len(df):
        cols = dataclasses.replace(cols, task=None)
    return cols


def check_table(df: pd.DataFrame, given: dict[str, str | None], *, ignore: str | Sequence[str] | None = None,
                score_cols: str | Sequence[str] | None = None,
                train_pi: str | float | None = None) -> tuple[pd.DataFrame, Columns, Accounting]:
    """The long table, its columns and their accounting: the wide layout turned long (``score_cols``),
    the columns resolved (:func:`resolve`) and every other column checked (:func:`account`), before
    any work.  ``train_pi``: ``--train-pi``, a number or the column holding it."""
    given = dict(given)
    extra: dict[str, str] = {}
    if score_cols:
        for role in ("model", "score"):
            if given.get(role):
                raise InputError(f"--score-cols and --{role}-col exclude each other: in a wide file the model is "
                                 "the score column's name")
        had_row = given.get("row") or next((c for c in DEFAULT_COLUMNS["row"] if c in df.columns), None)
        df, names = to_long(df, score_cols, row=had_row or None)
        given.update(model="model", score="score")
        if not had_row:
            given["row"] = "row_id" if "_row" not in df.columns else "_row"
            extra["row"] = "(the line of the file)"
        extra.update(model="(each score column's name)", score=", ".join(repr(n) for n in names))
    cols = resolve(df, given)
    if isinstance(train_pi, str) and train_pi in df.columns:
        extra["train-pi"] = repr(train_pi)
    return df, cols, account(df, cols, ignore=parse_list(ignore), given=given, extra=extra)
