"""Your own datasets: a folder of ``.csv``, ``.parquet`` and ``.arff`` files (optionally gzipped).

Every file in the folder whose name ends in one of :data:`USER_SUFFIXES` is one binary
dataset with task id ``user-<file stem>`` (characters outside ``[A-Za-z0-9_.-]``
become ``_``; ``titanic.arff.gz`` -> ``user-titanic``).  The class column is named by
``target``; the positive class is ``pos_label`` when given, else the minority class
(on a tie, the label that sorts last).  Rows without a class value are dropped and
counted in the notes.  Other columns: numbers are numeric features, everything else
is categorical.  ``row_id`` is the row's position among the file's data rows (from 0).

Readers: CSV by pandas (the separator is the comma unless the header line holds none
and a ``;`` or a tab instead, which is then used and noted), parquet by pyarrow,
ARFF by :func:`prspace.data.arff.read_arff` (quotes, escapes, sparse rows, gzip).

:func:`file_columns` reads only a file's header: the setup check of the workflow
(:mod:`prspace.study.setup_check`) uses it before any job runs.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core.errors import FileDefect, InputError
from prspace.data.dataset import (
    DEFAULT_MIN_MINORITY,
    MAX_CATEGORIES,
    Dataset,
    positive_class,
    skip_reason,
)
from prspace.data.dataset import package_version as _version
from prspace.data.usertable import (
    USER_SUFFIXES,
    _suffix,
    file_columns,
    missing_target_message,
    read_user_file,
    separator_name,
)

__all__ = [
    "USER_SUFFIXES",
    "FileDefect",
    "FileScreen",
    "duplicate_groups",
    "encoding_notes",
    "file_columns",
    "load_user",
    "read_user_file",
    "screen_file",
    "user_dataset_ids",
    "user_files",
]

log = logging.getLogger(__name__)

_STEM_BAD = re.compile(r"[^A-Za-z0-9_.-]+")


def task_id_of(path: str | os.PathLike[str]) -> str:
    """``data/My file.arff.gz`` -> ``user-My_file``."""
    p = Path(path)
    s = _suffix(p) or p.suffix
    return "user-" + _STEM_BAD.sub("_", p.name[: len(p.name) - len(s)])


def user_files(data_dir: str | os.PathLike[str]) -> dict[str, Path]:
    """Task id -> file, for every data file in ``data_dir`` (sorted by name)."""
    d = Path(data_dir)
    if not d.is_dir():
        what = "it does not exist" if not d.exists() else "it is a file"
        raise InputError(f"data folder {d} is not a folder ({what}); give the folder holding your data files")
    files: dict[str, Path] = {}
    try:
        entries = sorted(d.iterdir())
    except OSError as exc:
        raise InputError(f"cannot list data folder {d} ({exc.strerror}); check its permissions") from None
    for p in entries:
        if p.name.startswith(".") or not p.is_file() or _suffix(p) is None:
            continue
        task_id = task_id_of(p)
        if task_id in files:
            raise InputError(
                f"{files[task_id].name} and {p.name} in {d} both give task id {task_id}; "
                "rename or move one of them"
            )
        files[task_id] = p
    return files


def user_dataset_ids(data_dir: str | os.PathLike[str], target: str | None = None) -> list[str]:
    """Task ids (``user-<file stem>``) of the data files in ``data_dir``; files are not opened."""
    files = user_files(data_dir)
    if not files:
        raise InputError(
            f"no data files ({', '.join(USER_SUFFIXES)}) in {data_dir}; put your datasets there"
        )
    return list(files)


# --------------------------------------------------------------------------- loading


def encoding_notes(X: pd.DataFrame) -> list[str]:
    """A note naming the categorical columns with more distinct values than the one-hot
    encoder keeps ([] if none).

    The learners' encoder (``OneHotEncoder(max_categories=20)`` in
    :func:`prspace.local.learners.preprocessor`) keeps the 19 most frequent categories
    of the training fold and groups the others into one "infrequent" column.
    """
    wide = []
    for col in X.columns:
        if pd.api.types.is_numeric_dtype(X[col]) and not pd.api.types.is_bool_dtype(X[col]):
            continue
        k = int(X[col].nunique(dropna=True))
        if k > MAX_CATEGORIES:
            wide.append(f"{col} ({k} values)")
    if not wide:
        return []
    return [
        f"text columns with more than {MAX_CATEGORIES} distinct values, one-hot encoded as their "
        f"{MAX_CATEGORIES - 1} most frequent values (per training fold) plus one 'infrequent' "
        f"column: {', '.join(wide)}"
    ]


def _repeated_header_rows(df: pd.DataFrame, target: str) -> np.ndarray:
    """Positions of the data rows whose every value is its column's name (a header line
    repeated inside the file, e.g. after concatenating two CSV files)."""
    if not len(df):
        return np.zeros(0, dtype=np.int64)
    mask = (df[target].astype(str).str.strip() == target.strip()).to_numpy(dtype=bool, copy=True)
    for col in df.columns:
        if not mask.any():
            break
        mask = mask & (df[col].astype(str).str.strip() == str(col).strip()).to_numpy(dtype=bool)
    return np.flatnonzero(mask)


def duplicate_groups(X: pd.DataFrame) -> np.ndarray:
    """One group id per row: rows with identical feature values (missing values equal) share it."""
    if X.shape[1] == 0 or not len(X):
        return np.arange(len(X), dtype=np.int64)
    keys = X.astype(object).where(X.notna(), "\x00<missing>").astype(str)
    return keys.groupby(list(keys.columns), sort=False, dropna=False).ngroup().to_numpy(dtype=np.int64)


def _duplicate_folds(
    groups: np.ndarray, y: np.ndarray, n_folds: int, seed: int, path: Path
) -> np.ndarray:
    """The test fold of each row, identical rows in one fold (StratifiedGroupKFold, shuffled, seeded)."""
    from sklearn.model_selection import StratifiedGroupKFold

    n_groups = int(len(np.unique(groups)))
    if n_groups < n_folds:
        raise InputError(
            f"{path.name}: only {n_groups} distinct feature rows, fewer than the {n_folds} folds; "
            "lower local.folds (--folds) or remove the duplicate rows"
        )
    fold_of = np.full(len(y), -1, dtype=np.int32)
    splitter = StratifiedGroupKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    for k, (_, test) in enumerate(splitter.split(np.zeros(len(y)), y, groups)):
        fold_of[test] = k
    return fold_of


def _refuse_repeated_header(df: pd.DataFrame, target: str, path: Path) -> None:
    """Raise :class:`FileDefect` when the header row is repeated inside the file as data."""
    repeated = _repeated_header_rows(df, target)
    if len(repeated):
        lines = ", ".join(str(int(i) + 2) for i in repeated[:5]) + (", ..." if len(repeated) > 5 else "")
        raise FileDefect(
            f"{path.name}: the header row is repeated inside the file as data (line(s) {lines}, "
            f"{len(repeated)} in all; column {target!r} holds the value {target!r}); delete those lines "
            "(files concatenated with their headers?)"
        )


def _refuse_non_binary(classes: list[str], target: str, path: Path) -> None:
    """Raise :class:`InputError` unless the target column has exactly two ``classes``."""
    if len(classes) != 2:
        shown = ", ".join(classes[:5]) + (", ..." if len(classes) > 5 else "")
        what = "no values" if not classes else f"{len(classes)} class{'es' if len(classes) > 1 else ''} ({shown})"
        raise InputError(
            f"{path.name}: target column {target!r} has {what}; prspace needs a binary target (exactly two "
            "classes): recode the column to two classes (e.g. one class against the rest) or move the file out"
        )


def _features(df: pd.DataFrame, keep: np.ndarray, target: str) -> pd.DataFrame:
    """The kept rows without the target, indexed by ``row_id``; pandas 3 strings / bools -> object,
    so the encoder sees categories."""
    X = df.loc[keep].drop(columns=[target])
    X.index = pd.Index(np.flatnonzero(keep), name="row_id")
    for col in X.columns:
        if not pd.api.types.is_numeric_dtype(X[col]) or pd.api.types.is_bool_dtype(X[col]):
            X[col] = X[col].astype(object).where(X[col].notna(), np.nan)
    return X


def _grouped_folds(X: pd.DataFrame, y: np.ndarray, notes: list[str], *, n_folds: int | None, seed: int,
                   path: Path) -> tuple[np.ndarray | None, str]:
    """``(folds, procedure)`` keeping every set of identical rows in one fold (``(None, "")`` without
    duplicates or without ``n_folds``); notes the duplicates."""
    groups = duplicate_groups(X)
    n_dup = len(groups) - int(len(np.unique(groups)))
    folds, procedure = None, ""
    if n_dup:
        mixed = int(pd.Series(y).groupby(groups).nunique().gt(1).sum())
        notes.append(
            f"{n_dup} row(s) repeat the features of another row"
            + (f" ({mixed} set(s) of identical features with both classes)" if mixed else "")
            + "; every set of identical rows is kept in one cross-validation fold, so that no row is "
            "tested against its own copy"
        )
        if n_folds is not None:
            folds = _duplicate_folds(groups, y, n_folds, seed, path)
            procedure = (
                f"{n_folds}-fold stratified cross-validation, identical rows grouped in one fold "
                f"(scikit-learn StratifiedGroupKFold, shuffled, seed {seed})"
            )
    return folds, procedure


def load_user(
    task_id: str,
    data_dir: str | os.PathLike[str],
    target: str | None,
    *,
    pos_label: str | None = None,
    n_folds: int | None = None,
    seed: int = 0,
) -> Dataset:
    """One user file as a :class:`Dataset` (``y`` True for the positive class).

    Rows whose features repeat another row's (:func:`duplicate_groups`) would leak across
    cross-validation folds; the notes count them, and with ``n_folds`` the dataset carries
    its folds (``Dataset.folds``): stratified, shuffled with ``seed``, every set of identical
    rows in one fold.  Without duplicates ``folds`` stays None (plain stratified k-fold).
    """
    files = user_files(data_dir)
    if task_id not in files:
        raise InputError(
            f"no file for {task_id} in {data_dir}; datasets there: {', '.join(files) or '(none)'}"
        )
    if not target:
        raise InputError(f"{task_id} is a user dataset; name its class column with --target COL")
    path = files[task_id]
    df = read_user_file(path, target=target)
    notes: list[str] = []
    sep = df.attrs.get("separator", ",")
    if sep != ",":
        notes.append(f"read as {separator_name(sep)}-separated")
    columns = [str(c) for c in df.columns]
    if target not in columns:
        raise InputError(missing_target_message(path, target, columns))
    df.columns = columns
    if len(df) == 0:
        raise InputError(f"{path.name} has a header but no data rows; add the rows or remove the file")
    _refuse_repeated_header(df, target, path)
    labels = df[target]
    keep = labels.notna().to_numpy()
    if not keep.all():
        notes.append(f"{int((~keep).sum())} row(s) without a target value dropped")
    labels = labels[keep].astype(str)
    _refuse_non_binary(sorted(labels.unique()), target, path)
    try:
        y, _ = positive_class(labels, None if pos_label is None else str(pos_label), column=target,
                              option="pos_label", fix="set --pos-label (config key local.pos_label) to one of them")
    except InputError as exc:
        raise InputError(f"{path.name}: {exc}") from None
    pos = str(labels[y].iloc[0])
    how = "the minority class" if pos_label is None else "given by pos_label"
    X = _features(df, keep, target)
    notes.append(f"positive class {pos!r} ({how})" + (
        f"; the majority class ({int(y.sum())} of {len(y)}, pi = {y.mean():.3f} > 0.5)" if y.mean() > 0.5 else ""))
    folds, procedure = _grouped_folds(X, y, notes, n_folds=n_folds, seed=seed, path=path)
    enc = encoding_notes(X)
    for note in enc:
        log.warning("%s: %s", task_id, note)
    notes.extend(enc)
    return Dataset(
        X=X,
        y=y,
        name=path.name[: len(path.name) - len(_suffix(path) or "")],
        task_id=task_id,
        positive_class=pos,
        provenance=f"user file {path.name}; pandas {_version('pandas')}",
        dataset_id=str(path),
        notes="; ".join(notes),
        folds=folds,
        folds_procedure=procedure,
    )


@dataclasses.dataclass(frozen=True)
class FileScreen:
    """What the setup check learns from reading one data file whole."""

    task_id: str
    path: Path
    #: the file could be read in more than one way (:class:`FileDefect`): the study stops
    defect: str = ""
    #: why the file cannot be used ("" = usable): it is excluded from the study, with this reason
    reason: str = ""
    notes: str = ""

    @property
    def usable(self) -> bool:
        return not self.defect and not self.reason


def screen_file(
    path: str | os.PathLike[str],
    target: str,
    *,
    pos_label: str | None = None,
    min_minority: int = DEFAULT_MIN_MINORITY,
    n_folds: int = 10,
    seed: int = 0,
) -> FileScreen:
    """Read one data file as the predictions step will (:func:`load_user` with the study's folds)
    and say whether it is usable, unusable (the reason) or defective (:class:`FileDefect`)."""
    p = Path(path)
    task_id = task_id_of(p)
    try:
        ds = load_user(task_id, p.parent, target, pos_label=pos_label, n_folds=n_folds, seed=seed)
    except FileDefect as exc:
        return FileScreen(task_id, p, defect=str(exc))
    except InputError as exc:
        return FileScreen(task_id, p, reason=str(exc))
    return FileScreen(task_id, p, reason=skip_reason(ds, min_minority=max(min_minority, n_folds)),
                      notes=ds.notes)
