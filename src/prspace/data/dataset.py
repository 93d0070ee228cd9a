"""The dataset type every source returns, and the rules all sources share.

* :class:`Dataset`: a binary dataset ready for cross-validation (``y`` True for the positive class).
* :func:`positive_label`: **the positive-class rule**, stated once: the minority class; on a tie,
  the class whose label sorts last by name (:mod:`prspace.core.schema`).  The embedded suites, users'
  files (unless ``pos_label`` is given) and OpenML runs all use it.
* :func:`skip_reason`: why a dataset cannot be cross-validated (too few minority examples, no
  features), with :data:`DEFAULT_MIN_MINORITY`.
* :data:`MAX_CATEGORIES`: how many categories the one-hot encoder keeps per column.
* :func:`package_version`: the installed version of a package, for provenance.

It imports no source, so that every source (:mod:`~prspace.data.datasets`,
:mod:`~prspace.data.userdata`, :mod:`~prspace.openml`) can import it.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata

import numpy as np
import pandas as pd

__all__ = ["DEFAULT_MIN_MINORITY", "MAX_CATEGORIES", "Dataset", "package_version", "positive_label", "skip_reason"]

#: one-hot encoding keeps at most this many categories per column (the rest -> "infrequent"): the
#: learners' encoder (:func:`prspace.local.learners.preprocessor`) and the notes on users' files
#: (:func:`prspace.data.userdata.encoding_notes`) read it here, without loading scikit-learn
MAX_CATEGORIES = 20

#: fewer minority examples than this and stratified 10-fold CV cannot put one in every fold
DEFAULT_MIN_MINORITY = 10


@dataclasses.dataclass(frozen=True, eq=False)
class Dataset:
    """A binary dataset ready for cross-validation."""

    X: pd.DataFrame  # features; row i has row_id ``row_ids[i]``
    y: np.ndarray  # bool, True = minority = positive class
    name: str
    task_id: str
    positive_class: str  # the original label of the positive class
    provenance: str
    dataset_id: str = ""  # where it came from: loader name or file path
    notes: str = ""
    #: the test fold of each row when the source fixes the splits (OpenML tasks), else None
    folds: np.ndarray | None = None
    #: how those folds were made (OpenML's estimation procedure), else ""
    folds_procedure: str = ""

    @property
    def n(self) -> int:
        return int(len(self.y))

    @property
    def n_pos(self) -> int:
        return int(np.count_nonzero(self.y))

    @property
    def pi(self) -> float:
        return self.n_pos / self.n


def package_version(package: str) -> str:
    """The installed version of ``package`` (``"unknown"`` if it is not installed)."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover
        return "unknown"


def positive_label(labels: pd.Series) -> object:
    """The minority label of a two-class series; on a tie the label that sorts last by name.

    :class:`ValueError` (``"<k> classes"``) unless there are exactly two classes.  The one
    positive-class rule: the studies' datasets use it, and the audit's ``--pos-label`` suggestion
    (:func:`prspace.audit.inputs.suggest_pos_label`) names the class it picks.
    """
    counts = labels.value_counts(dropna=True)
    if len(counts) != 2:
        raise ValueError(f"{len(counts)} classes")
    items = sorted(counts.items(), key=lambda kv: (kv[1], _neg_name(str(kv[0]))))
    return items[0][0]


class _neg_name(str):
    """Orders strings in reverse, so that sorting by (count, _neg_name) puts the
    label that sorts *last* first among equal counts."""

    def __lt__(self, other: str) -> bool:  # type: ignore[override]
        return str.__gt__(self, other)


def skip_reason(ds: Dataset, *, min_minority: int = DEFAULT_MIN_MINORITY) -> str:
    """Why ``ds`` cannot be cross-validated (``""`` if it can)."""
    n_min = min(ds.n_pos, ds.n - ds.n_pos)  # the positive class may be the majority (pos_label)
    if n_min < min_minority:
        return (
            f"only {n_min} minority examples (< {min_minority}); stratified "
            f"cross-validation needs at least {min_minority}"
        )
    if ds.X.shape[1] == 0:
        return "no feature columns"
    return ""
