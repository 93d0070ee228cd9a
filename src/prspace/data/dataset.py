"""The dataset type every source returns, and the rules all sources share.

* :class:`Dataset`: a binary dataset ready for cross-validation (``y`` True for the positive class).
* :func:`positive_label`: **the positive-class rule**, stated once: the minority class; on a tie,
  the class whose label sorts last by name (:mod:`prspace.core.schema`).  The embedded suites, users'
  files (unless ``pos_label`` is given) and OpenML runs all use it.
* :func:`positive_class`: **the one positive-class resolver**: a two-class label column and an
  optional ``pos_label`` -> the positives and a description; without ``pos_label`` the default is
  the minority class (:func:`positive_label`, the studies' users' files) or True / 1 (the audit,
  which asks for ``--pos-label`` on other labels and suggests the minority: :func:`suggest_pos_label`).
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

from prspace.core.errors import InputError
from prspace.metrics.labels import default_positives

__all__ = ["DEFAULT_MIN_MINORITY", "MAX_CATEGORIES", "Dataset", "package_version", "positive_class", "positive_label",
           "skip_reason", "suggest_pos_label"]

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
    (:func:`suggest_pos_label`) names the class it picks.
    """
    counts = labels.value_counts(dropna=True)
    if len(counts) != 2:
        raise ValueError(f"{len(counts)} classes")
    items = sorted(counts.items(), key=lambda kv: (kv[1], _neg_name(str(kv[0]))))
    return items[0][0]


def positive_class(labels: pd.Series, pos_label: str | None = None, *, default: str = "minority",
                   column: str = "label", option: str = "--pos-label", fix: str = "pass one of those values",
                   ) -> tuple[np.ndarray, str]:
    """The positives of a two-class label column without missing values, and a description
    (``"<column> == <class>"``).

    ``pos_label`` given: the rows whose label equals it as text (or as a number, or ``true``/``1``
    and ``false``/``0`` on a boolean column); one clear :class:`InputError` (``option``,
    the classes and ``fix``) if none does.  Else ``default``: ``"minority"`` takes
    :func:`positive_label`; ``"one"`` (the audit's documented rule) takes True of a boolean
    column and 1 of a 0/1 or -1/1 column, and on any other labels asks for ``pos_label``,
    suggesting the minority (:func:`suggest_pos_label`).  :class:`ValueError` unless there are
    exactly two classes (callers check that first, with their own message).
    """
    values = pd.unique(labels)
    if len(values) != 2:
        raise ValueError(f"{len(values)} classes")
    if default not in ("minority", "one"):
        raise ValueError(f"default must be 'minority' or 'one', got {default!r}")
    if pos_label is not None:
        mask = _matches(labels, str(pos_label))
        if not mask.any():
            shown = ", ".join(str(v) for v in sorted(values, key=str))
            raise InputError(f"{option} {pos_label!r} matches no value of column {column!r} (classes: {shown}); {fix}")
        return mask, f"{column} == {pos_label!r}"
    if default == "minority":
        pos = positive_label(labels)
        return (labels == pos).to_numpy(dtype=bool), f"{column} == {pos!r}"
    if pd.api.types.is_bool_dtype(labels):
        return default_positives(labels.to_numpy(dtype=bool)), f"{column} == True"
    if pd.api.types.is_numeric_dtype(labels):
        pos = default_positives(labels.to_numpy(dtype=np.float64))
        if pos is not None:
            return pos, f"{column} == 1"
    shown = ", ".join(_show(v) for v in sorted(values, key=str))
    raise InputError(f"column {column!r} has labels {shown}; say which one is the positive class with {option} "
                     f"({suggest_pos_label(labels, option=option)})")


def _matches(labels: pd.Series, pos_label: str) -> np.ndarray:
    """Rows whose label is ``pos_label``: as text, else as a number (numeric labels), else as a
    boolean spelled ``true``/``1``/``false``/``0`` (boolean labels)."""
    mask = (labels.astype(str) == pos_label).to_numpy()
    if not mask.any() and pd.api.types.is_numeric_dtype(labels) and not pd.api.types.is_bool_dtype(labels):
        try:
            mask = (labels.astype(np.float64) == float(pos_label)).to_numpy()
        except ValueError:
            mask = np.zeros(len(labels), dtype=bool)
    if not mask.any() and pd.api.types.is_bool_dtype(labels) and pos_label.lower() in ("true", "1", "false", "0"):
        mask = (labels == (pos_label.lower() in ("true", "1"))).to_numpy()
    return mask


def suggest_pos_label(labels: pd.Series, *, option: str = "--pos-label") -> str:
    """``e.g. --pos-label 'x'`` with the counts, naming the class of the positive-class rule
    (:func:`positive_label`: the minority class; with equal counts the label that sorts last by
    name), the class a study would take from the same labels.

    Only a suggestion: the audit never picks the positive class of text labels itself, and with
    equal counts it says so and asks for the class of interest.
    """
    text = labels.astype(str)
    counts = text.value_counts()
    rare = str(positive_label(text)) if len(counts) == 2 else str(counts.sort_index().idxmin())
    n = int(counts[rare])
    if len(counts) > 1 and (counts == n).all():
        return (f"e.g. {option} {rare!r}; the two classes are equally frequent ({n} rows each), so choose the "
                "class of interest")
    return (f"e.g. {option} {rare!r}, the rarer class: {n} of {len(labels)} rows; the positive class is "
            "usually the rare class of interest, and AUPR is read against its prevalence")


def _show(value: object) -> str:
    """``repr`` of a label without numpy's type wrapper (``-0.5``, not ``np.float64(-0.5)``)."""
    return repr(value.item() if isinstance(value, np.generic) else value)


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
