"""Local predictions: cross-validate the learner panel on one dataset -> predictions schema.

The offline analogue of fetching an OpenML task's runs (Flach and Kull, NIPS 2015,
section 5): every learner of :mod:`prspace.local.learners` is cross-validated on the
same seeded stratified folds (scikit-learn ``StratifiedKFold(shuffle=True)``), and the
out-of-fold scores become one predictions table (:mod:`prspace.schema`) with one model
per learner.  A learner that fails on a fold (an exception, or a non-finite score) is
dropped from this dataset and reported; it never stops the dataset.

Deterministic: same dataset, learners, folds and seed -> identical scores (every
learner and the split are seeded, and BLAS/OpenMP pools are limited to one thread).
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
from sklearn.model_selection import StratifiedKFold

from prspace import __version__
from prspace.data.dataset import DEFAULT_MIN_MINORITY, Dataset, skip_reason
from prspace.data.dataset import package_version as _version
from prspace.errors import InputError
from prspace.local.learners import describe_learner, make_learner, parse_learners, score_of
from prspace.schema import PREDICTION_COLUMNS, TaskInfo

__all__ = ["Failure", "SkipDataset", "predict_dataset"]

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


def _thread_limit():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        import contextlib

        return contextlib.nullcontext()
    return threadpool_limits(limits=1)


def _progress(total: int, desc: str, enabled: bool):
    from tqdm.auto import tqdm

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
    phase_timings: dict[str, dict[str, float]] | None = None,
) -> tuple[pd.DataFrame, TaskInfo, list[Failure]]:
    """Cross-validate ``learners`` on ``dataset``; return ``(predictions, task_info, failures)``.

    ``predictions`` follows :mod:`prspace.schema` (one row per learner x dataset row,
    ``repeat`` 0, ``fold`` the test fold of the row, ``score`` the out-of-fold score),
    ``failures`` lists the learners dropped and why.  ``timings``, if given, receives
    the wall-clock seconds each learner took (all folds), ``cpu_timings`` its CPU
    seconds (the fair measure on a loaded machine: every learner is single-threaded),
    ``phase_timings`` its fit and score seconds apart (``fit_s``, ``score_s``, ``fit_cpu_s``,
    ``score_cpu_s``, summed over folds; construction counts as fit).

    Raises :class:`SkipDataset` if the dataset has fewer than
    ``max(min_minority, n_folds)`` minority examples or every learner failed, and
    :class:`~prspace.errors.InputError` for bad arguments.
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
    row_ids = np.asarray(X.index, dtype=np.int64) if X.index.dtype.kind in "iu" else np.arange(len(y))
    if len(np.unique(row_ids)) != len(row_ids) or (row_ids < 0).any():
        row_ids = np.arange(len(y), dtype=np.int64)
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

    scores: dict[str, np.ndarray] = {}
    failures: list[Failure] = []
    with _thread_limit(), _progress(len(learners) * n_folds, dataset.task_id, progress) as bar:
        for name in learners:
            t0, c0 = time.perf_counter(), time.process_time()
            phase = dict.fromkeys(("fit_s", "score_s", "fit_cpu_s", "score_cpu_s"), 0.0)
            out = np.full(len(y), np.nan)
            failed: Failure | None = None
            for k, (train, test) in enumerate(folds):
                try:
                    with warnings.catch_warnings():
                        # convergence and collinearity warnings are part of the panel's life
                        warnings.simplefilter("ignore")
                        w, c = time.perf_counter(), time.process_time()
                        model = make_learner(name, seed)
                        model.fit(X.iloc[train], y[train])
                        w2, c2 = time.perf_counter(), time.process_time()
                        s = score_of(model, X.iloc[test], positive=True)
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
                    log.warning("%s: learner %s failed on fold %d: %s", dataset.task_id, name, k, msg)
                    bar.update(n_folds - k)
                    break
                bar.update(1)
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

    n = len(y)
    names = list(scores)
    df = pd.DataFrame(
        {
            "task_id": np.repeat(dataset.task_id, n * len(names)),
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
    notes = [dataset.notes] if dataset.notes else []
    if failures:
        notes.append(
            "learners dropped: " + "; ".join(f"{f.learner} (fold {f.fold}: {f.error})" for f in failures)
        )
    task = TaskInfo(
        task_id=dataset.task_id,
        source="local",
        dataset_id=dataset.dataset_id,
        dataset_name=dataset.name,
        n=n,
        n_pos=int(y.sum()),
        positive_class=dataset.positive_class,
        estimation_procedure=procedure,
        n_folds=n_folds,
        n_repeats=1,
        n_models=len(names),
        provenance=(
            f"{dataset.provenance}; scikit-learn {_version('scikit-learn')}; prspace {__version__} "
            "local learners"
        ),
        created_at=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        notes="; ".join(notes),
    )
    return df, task, failures
