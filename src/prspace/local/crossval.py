"""Local predictions: cross-validate the learner panel on one dataset -> predictions schema.

The offline analogue of fetching an OpenML task's runs (Flach and Kull, NIPS 2015,
section 5): every learner of :mod:`prspace.local.learners` is cross-validated on the
same seeded stratified folds (scikit-learn ``StratifiedKFold(shuffle=True)``), and the
out-of-fold scores become one predictions table (:mod:`prspace.core.schema`) with one model
per learner.  A learner that fails on a fold (an exception, or a non-finite score) is
dropped from this dataset and reported; it never stops the dataset.

Deterministic: same dataset, learners, folds and seed -> identical scores (every
learner and the split are seeded, and BLAS/OpenMP pools are limited to one thread).

Shared preprocessing: a learner is a pipeline of preprocessing steps and a final model
(:mod:`prspace.local.learners`); most of the 30 share one of three preprocessing prefixes. Each
distinct prefix (same step types and parameters, :func:`prefix_key`) is fitted once per fold
and its transformed train and test rows are handed to every learner's model that uses it:
what ``Pipeline.fit`` and ``Pipeline.predict_proba`` would compute (the prefix's
``fit_transform`` on the train rows, ``transform`` on the test rows, every step deterministic),
so the scores are bit-identical, at one preprocessing per fold instead of one per learner.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import logging
import sys
import time
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from sklearn import config_context
from sklearn.base import BaseEstimator
from sklearn.compose import make_column_selector
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import Pipeline
from threadpoolctl import threadpool_limits
from tqdm.auto import tqdm

from prspace import __version__
from prspace.core.errors import InputError
from prspace.core.schema import PREDICTION_COLUMNS, TaskInfo
from prspace.data.dataset import DEFAULT_MIN_MINORITY, Dataset, skip_reason
from prspace.data.dataset import package_version as _version
from prspace.local.learners import describe_learner, make_learner, parse_learners, score_of

__all__ = ["Failure", "SkipDataset", "predict_dataset", "prefix_key"]

log = logging.getLogger(__name__)


class SkipDataset(Exception):
    """The dataset cannot be cross-validated (too few minority examples, every
    learner failed, ...); ``str(exc)`` is the reason."""


@dataclasses.dataclass(frozen=True)
class Failure:
    """A learner that failed on a dataset: the first fold it failed on and why."""

    learner: str
    fold: int
    error: str

    def to_dict(self) -> dict[str, object]:
        return {"learner": self.learner, "fold": self.fold, "error": self.error}


def prefix_key(obj) -> object:
    """A hashable description of an unfitted estimator (or parameter value): its class and every
    parameter, recursively; functions and classes by their qualified names. Two preprocessing
    prefixes with equal keys compute the same transformation from the same rows."""
    if isinstance(obj, BaseEstimator):
        params = obj.get_params(deep=False)
        return (type(obj).__module__, type(obj).__qualname__, tuple((k, prefix_key(params[k])) for k in sorted(params)))
    if isinstance(obj, make_column_selector):
        return ("make_column_selector", prefix_key(vars(obj)))
    if isinstance(obj, dict):
        return tuple((k, prefix_key(obj[k])) for k in sorted(obj))
    if isinstance(obj, (list, tuple)):
        return tuple(prefix_key(v) for v in obj)
    if isinstance(obj, type) or callable(obj):
        return (getattr(obj, "__module__", ""), getattr(obj, "__qualname__", repr(obj)))
    return (type(obj).__qualname__, repr(obj))


class _SharedPrefixes:
    """Per (prefix key, fold): the prefix's transformed train and test rows, or the exception it raised."""

    def __init__(self, X: pd.DataFrame, y: np.ndarray, folds: Sequence[tuple[np.ndarray, np.ndarray]],
                 share: bool = True):
        self.X, self.y, self.folds, self.share = X, y, folds, share
        self.cache: dict[tuple[object, int], tuple[np.ndarray, np.ndarray] | BaseException] = {}

    def split(self, pipe: Pipeline, k: int):
        """``(final model, train rows, test rows)`` of fold ``k`` for ``pipe``: the rows transformed by
        the pipeline's preprocessing prefix, fitted on the fold's train rows (shared between learners)."""
        train, test = self.folds[k]
        overridden = {"fit", "predict_proba", "decision_function"} & set(vars(pipe))
        if not self.share or type(pipe) is not Pipeline or overridden or len(pipe.steps) < 2:
            return pipe, self.X.iloc[train], self.X.iloc[test]
        prefix = Pipeline(pipe.steps[:-1])
        key = (prefix_key(prefix), k)
        hit = self.cache.get(key)
        if hit is None:
            try:
                hit = (prefix.fit_transform(self.X.iloc[train], self.y[train]), prefix.transform(self.X.iloc[test]))
            except Exception as exc:  # noqa: BLE001 - raised again for every learner that uses it
                hit = exc
            self.cache[key] = hit
        if isinstance(hit, BaseException):
            raise hit
        return pipe.steps[-1][1], hit[0], hit[1]


def _thread_limit():
    return threadpool_limits(limits=1)


def _progress(total: int, desc: str, enabled: bool):
    return tqdm(
        total=total,
        desc=desc,
        unit="fit",
        disable=not (enabled and sys.stderr.isatty()),
        leave=False,
        dynamic_ncols=True,
    )


def predict_dataset(
    dataset: Dataset,
    learners: Sequence[str],
    *,
    n_folds: int = 10,
    seed: int = 0,
    progress: bool = False,
    min_minority: int = DEFAULT_MIN_MINORITY,
    timings: dict[str, float] | None = None,
    cpu_timings: dict[str, float] | None = None,
    share_preprocessing: bool = True,
    phase_timings: dict[str, dict[str, float]] | None = None,
) -> tuple[pd.DataFrame, TaskInfo, list[Failure]]:
    """Cross-validate ``learners`` on ``dataset``; return ``(predictions, task_info, failures)``.

    ``predictions`` follows :mod:`prspace.core.schema` (one row per learner x dataset row,
    ``repeat`` 0, ``fold`` the test fold of the row, ``score`` the out-of-fold score),
    ``failures`` lists the learners dropped and why.  ``timings``, if given, receives
    the wall-clock seconds each learner took (all folds), ``cpu_timings`` its CPU
    seconds (the fair measure on a loaded machine: every learner is single-threaded; a shared
    preprocessing prefix counts for the first learner that fits it on a fold),
    ``phase_timings`` its fit and score seconds apart (``fit_s``, ``score_s``, ``fit_cpu_s``,
    ``score_cpu_s``, summed over folds; construction and shared preprocessing count as fit).
    ``share_preprocessing=False`` fits every learner's whole pipeline on every fold (the same
    scores, slower: for benchmarks and tests).

    Raises :class:`SkipDataset` if the dataset has fewer than
    ``max(min_minority, n_folds)`` minority examples or every learner failed, and
    :class:`~prspace.core.errors.InputError` for bad arguments.
    """
    learners = parse_learners(",".join(learners)) if learners else []
    if not learners:
        raise InputError("no learners given; pass learner names, e.g. learner_names('small')")
    if n_folds < 2:
        raise InputError(f"--folds {n_folds}: cross-validation needs at least 2 folds")
    if dataset.folds is not None:
        n_folds = int(np.max(dataset.folds)) + 1
    reason = skip_reason(dataset, min_minority=max(min_minority, n_folds))
    if reason:
        raise SkipDataset(reason)

    X = dataset.X
    y = np.asarray(dataset.y, dtype=bool)
    row_ids = _row_ids(X, y)
    folds, fold_of, n_folds, procedure = _folds(dataset, y, n_folds, seed)

    scores: dict[str, np.ndarray] = {}
    failures: list[Failure] = []
    shared = _SharedPrefixes(X, y, folds, share_preprocessing)
    # the panel's hyperparameters are fixed and valid: checking them again on each of the
    # thousands of fits (every tree of every ensemble) changes nothing but the time
    with _thread_limit(), config_context(skip_parameter_validation=True), \
            _progress(len(learners) * n_folds, dataset.task_id, progress) as bar:
        for name in learners:
            t0, c0 = time.perf_counter(), time.process_time()
            out, failed, phase = _cross_validate(name, folds, shared, y, seed=seed, task_id=dataset.task_id, bar=bar)
            if timings is not None:
                timings[name] = time.perf_counter() - t0
            if cpu_timings is not None:
                cpu_timings[name] = time.process_time() - c0
            if phase_timings is not None:
                phase_timings[name] = phase
            if failed is None:
                scores[name] = out
            else:
                failures.append(failed)

    if not scores:
        raise SkipDataset(
            f"all {len(learners)} learners failed (first: {failures[0].learner}: {failures[0].error})"
        )

    df = _predictions_frame(dataset.task_id, scores, fold_of, row_ids, y)
    task = _task_info(dataset, failures, y, procedure=procedure, n_folds=n_folds, n_models=len(scores))
    return df, task, failures


def _row_ids(X: pd.DataFrame, y: np.ndarray) -> np.ndarray:
    """The dataset's row ids: its integer index when unique and non-negative, else 0, 1, 2, ..."""
    row_ids = np.asarray(X.index, dtype=np.int64) if X.index.dtype.kind in "iu" else np.arange(len(y))
    if len(np.unique(row_ids)) != len(row_ids) or (row_ids < 0).any():
        row_ids = np.arange(len(y), dtype=np.int64)
    return row_ids


def _folds(dataset: Dataset, y: np.ndarray, n_folds: int,
           seed: int) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray, int, str]:
    """``(folds as (train, test), the fold of each row, the number of folds, the procedure in words)``:
    the source's splits when it fixes them (an OpenML task), else stratified k-fold shuffled with ``seed``."""
    if dataset.folds is not None:  # the source fixes the splits (an OpenML task)
        fold_of = np.asarray(dataset.folds, dtype=np.int32)
        n_folds = int(fold_of.max()) + 1
        idx = np.arange(len(y))
        folds = [(idx[fold_of != k], idx[fold_of == k]) for k in range(n_folds)]
        procedure = dataset.folds_procedure or f"{n_folds}-fold cross-validation, the source's splits"
    else:
        splitter = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed)
        folds = list(splitter.split(np.zeros(len(y)), y))
        fold_of = np.empty(len(y), dtype=np.int32)
        for k, (_, test) in enumerate(folds):
            fold_of[test] = k
        procedure = (
            f"{n_folds}-fold stratified cross-validation "
            f"(scikit-learn StratifiedKFold, shuffled, seed {seed})"
        )
    return folds, fold_of, n_folds, procedure


def _cross_validate(name: str, folds: list[tuple[np.ndarray, np.ndarray]], shared: _SharedPrefixes, y: np.ndarray,
                    *, seed: int, task_id: str, bar: tqdm) -> tuple[np.ndarray, Failure | None, dict[str, float]]:
    """``(out-of-fold scores, the failure or None, fit and score seconds)`` of learner ``name``; the
    first fold it fails on ends it (the bar skips its remaining folds)."""
    n_folds = len(folds)
    phase = dict.fromkeys(("fit_s", "score_s", "fit_cpu_s", "score_cpu_s"), 0.0)
    out = np.full(len(y), np.nan)
    failed: Failure | None = None
    for k, (train, test) in enumerate(folds):
        try:
            with warnings.catch_warnings():
                # convergence and collinearity warnings are part of the panel's life
                warnings.simplefilter("ignore")
                w, c = time.perf_counter(), time.process_time()
                model, X_train, X_test = shared.split(make_learner(name, seed), k)
                model.fit(X_train, y[train])
                w2, c2 = time.perf_counter(), time.process_time()
                s = score_of(model, X_test, positive=True)
                phase["fit_s"] += w2 - w
                phase["fit_cpu_s"] += c2 - c
                phase["score_s"] += time.perf_counter() - w2
                phase["score_cpu_s"] += time.process_time() - c2
            if s.shape != (len(test),) or not np.all(np.isfinite(s)):
                raise ValueError("non-finite or misshapen scores")
            out[test] = s
        except Exception as exc:  # noqa: BLE001 - a learner must never stop the study
            msg = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            failed = Failure(name, k, msg)
            log.warning("%s: learner %s failed on fold %d: %s", task_id, name, k, msg)
            bar.update(n_folds - k)
            break
        bar.update(1)
    return out, failed, phase


def _predictions_frame(task_id: str, scores: dict[str, np.ndarray], fold_of: np.ndarray, row_ids: np.ndarray,
                       y: np.ndarray) -> pd.DataFrame:
    """The predictions (:mod:`prspace.core.schema`) of the learners that did not fail, in their order."""
    n = len(y)
    names = list(scores)
    return pd.DataFrame(
        {
            "task_id": np.repeat(task_id, n * len(names)),
            "model_id": np.repeat(names, n),
            "flow_id": np.repeat(names, n),
            "flow_name": np.repeat([describe_learner(m) for m in names], n),
            "repeat": np.zeros(n * len(names), dtype=np.int32),
            "fold": np.tile(fold_of, len(names)),
            "row_id": np.tile(row_ids, len(names)),
            "y_true": np.tile(y, len(names)),
            "score": np.concatenate([scores[m] for m in names]),
        },
        columns=list(PREDICTION_COLUMNS),
    )


def _task_info(dataset: Dataset, failures: list[Failure], y: np.ndarray, *, procedure: str, n_folds: int,
               n_models: int) -> TaskInfo:
    """The task's description: the dataset's, the procedure, and the learners dropped."""
    notes = [dataset.notes] if dataset.notes else []
    if failures:
        notes.append(
            "learners dropped: " + "; ".join(f"{f.learner} (fold {f.fold}: {f.error})" for f in failures)
        )
    return TaskInfo(
        task_id=dataset.task_id,
        source="local",
        dataset_id=dataset.dataset_id,
        dataset_name=dataset.name,
        n=len(y),
        n_pos=int(y.sum()),
        positive_class=dataset.positive_class,
        estimation_procedure=procedure,
        n_folds=n_folds,
        n_repeats=1,
        n_models=n_models,
        provenance=(
            f"{dataset.provenance}; scikit-learn {_version('scikit-learn')}; prspace {__version__} "
            "local learners"
        ),
        created_at=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        notes="; ".join(notes),
    )
