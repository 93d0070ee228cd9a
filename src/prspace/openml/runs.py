"""One OpenML run's predictions file -> the checked rows of the predictions schema; a broken
run (missing or duplicate rows, NaN scores, labels or folds that disagree) raises :class:`_BrokenRun`."""


from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from prspace.data.dataset import positive_label
from prspace.openml.predictions_arff import ArffPredictions

log = logging.getLogger("prspace.openml")


class _BrokenRun(Exception):
    pass


def _show(values: Iterable[Any], limit: int = 8) -> str:
    values = list(values)
    head = ", ".join(str(v) for v in values[:limit])
    return head + (f", ... ({len(values)} in all)" if len(values) > limit else "")


@dataclasses.dataclass
class _Reference:
    """What every accepted run must agree with."""

    labels: pd.Series | None = None  # row_id -> label
    positive: str | None = None
    n_expected: int | None = None  # rows per repeat, if known
    folds: pd.Series | None = None  # (repeat, row_id) -> fold of the first accepted run


def _as_int(a: np.ndarray, what: str, rid: int) -> np.ndarray:
    bad = ~np.isfinite(a) | (a < 0) | (a != np.floor(a))
    if bad.any():
        raise _BrokenRun(f"{what} is missing or not a non-negative integer in data rows {_show(np.flatnonzero(bad) + 1)}")
    return a.astype(np.int64)


def _minority(labels: pd.Series) -> str:
    counts = labels.value_counts()
    if len(counts) != 2:
        raise _BrokenRun(f"labels have {len(counts)} classes ({_show(counts.index)}); needs 2")
    return str(positive_label(labels))  # the minority class; on a tie the one that sorts last


def _frame_of_run(
    raw: ArffPredictions,
    rid: int,
    repeats: Sequence[int] | None,
    ref: _Reference,
    get_dataset_labels: Callable[[], pd.Series],
) -> pd.DataFrame:
    """Check one parsed run against the reference; return repeat, fold, row_id, label, score."""
    rep = _as_int(raw.repeat, "repeat", rid)
    keep = np.isin(rep, list(repeats)) if repeats is not None else np.ones(len(rep), bool)
    if not keep.any():
        raise _BrokenRun(f"no rows for repeat(s) {_show(repeats or [])} (repeats present: {_show(np.unique(rep))})")
    fold = _as_int(raw.fold[keep], "fold", rid)
    row = _as_int(raw.row_id[keep], "row_id", rid)
    rep = rep[keep]
    df = pd.DataFrame({"repeat": rep, "fold": fold, "row_id": row})
    dup = df.duplicated(["repeat", "row_id"], keep=False)
    if dup.any():
        raise _BrokenRun(f"duplicate row_id(s) {_show(pd.unique(df.loc[dup, 'row_id']))} within a repeat")
    correct = None if raw.correct is None else pd.Series(raw.correct[keep]).astype(object)

    if ref.labels is None:
        _set_reference_labels(ref, df, correct, get_dataset_labels)
    labels = ref.labels
    _check_every_row_once(df, ref, labels)

    pos = ref.positive
    if pos not in raw.confidence:
        raise _BrokenRun(f"no confidence.{pos} column (has {_show('confidence.' + c for c in raw.confidence)})")
    score = raw.confidence[pos][keep]
    bad = ~np.isfinite(score)
    if bad.any():
        raise _BrokenRun(f"score confidence.{pos} is NaN or missing at row_id(s) {_show(np.sort(row[bad]))}")
    df["score"] = score
    lab = labels.reindex(df["row_id"].to_numpy())
    if lab.isna().any():
        raise _BrokenRun(f"no label for row_id(s) {_show(df['row_id'].to_numpy()[lab.isna().to_numpy()])}")
    df["label"] = lab.to_numpy()
    if correct is not None:
        disagree = correct.astype(str).to_numpy() != df["label"].to_numpy()
        if disagree.any():
            raise _BrokenRun(f"'correct' disagrees with the task labels at row_id(s) {_show(np.sort(row[disagree]))}")
    _check_folds(df, ref, row)
    return df


def _set_reference_labels(ref: _Reference, df: pd.DataFrame, correct: pd.Series | None,
                          get_dataset_labels: Callable[[], pd.Series]) -> None:
    """The task's labels and positive class, from the first run: its ``correct`` column when it
    covers every expected row of the first repeat, else the dataset's labels."""
    from_correct = None
    if correct is not None and ref.n_expected is not None and correct.notna().all():
        first = df["repeat"] == df["repeat"].min()
        lab = pd.Series(correct[first.to_numpy()].to_numpy(), index=df.loc[first, "row_id"].to_numpy())
        if set(lab.index) == set(range(ref.n_expected)):
            from_correct = lab.astype(str).sort_index()
    labels = from_correct if from_correct is not None else get_dataset_labels()
    positive = _minority(labels.dropna())
    ref.labels, ref.positive = labels, positive
    if ref.n_expected is None:
        ref.n_expected = len(labels)


def _check_every_row_once(df: pd.DataFrame, ref: _Reference, labels: pd.Series) -> None:
    """Raise :class:`_BrokenRun` unless every expected row is there once per repeat, and no other."""
    expected = np.arange(ref.n_expected) if ref.n_expected is not None else labels.index.to_numpy()
    for r, g in df.groupby("repeat", sort=True):
        got = g["row_id"].to_numpy()
        missing = np.setdiff1d(expected, got)
        extra = np.setdiff1d(got, expected)
        if len(missing) or len(extra):
            parts = []
            if len(missing):
                parts.append(f"missing row_id(s) {_show(missing)}")
            if len(extra):
                parts.append(f"unknown row_id(s) {_show(extra)}")
            raise _BrokenRun(f"repeat {r}: " + "; ".join(parts))


def _check_folds(df: pd.DataFrame, ref: _Reference, row: np.ndarray) -> None:
    """Raise :class:`_BrokenRun` when a run's folds differ from the first run's (the task's splits)."""
    key = pd.MultiIndex.from_arrays([df["repeat"], df["row_id"]])
    folds = pd.Series(df["fold"].to_numpy(), index=key)
    if ref.folds is not None:
        other = ref.folds.reindex(key).to_numpy()
        diff = other != folds.to_numpy()
        if diff.any():
            raise _BrokenRun(f"folds differ from the task's splits at row_id(s) {_show(np.sort(row[diff]))}")


