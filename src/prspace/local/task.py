"""One task of the local study: which dataset a ``predict-local`` call names, and its status.

* :func:`task_dataset`: the dataset the options name (the embedded suite, your own files with
  ``data_dir``/``target``, or an OpenML task), after checking the options fit together; bad
  combinations raise :class:`~prspace.core.errors.InputError` naming the fix;
* :func:`predict_task`: every learner cross-validated on the dataset
  (:func:`~prspace.local.crossval.predict_dataset`), the predictions written, and the task's
  :class:`~prspace.core.contracts.TaskStatus` (``ok`` or ``skipped`` with the reason, the failed
  learners, the timings).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from prspace.core.contracts import TaskStatus
from prspace.core.errors import InputError
from prspace.core.schema import write_predictions
from prspace.data.datasets import DEFAULT_MIN_MINORITY, Dataset, load_dataset, suite_names

__all__ = ["predict_task", "task_dataset"]


def task_dataset(task_id: str, *, suite: str = "default", data_dir: str | os.PathLike[str] | None = None,
                 target: str | None = None, pos_label: str | None = None, n_folds: int = 10,
                 seed: int = 0) -> Dataset:
    """The dataset ``task_id`` names, given where it comes from.

    ``data_dir`` and ``target``: your own files (``user-<file stem>``; ``pos_label`` defaults to
    the minority class; identical rows kept in one fold, seeded by ``seed``).  Without them:
    ``openml-<id>`` (online, the task's own splits) or a member of the embedded ``suite``.
    ``n_folds`` below 2, ``target``/``pos_label`` without ``data_dir``, or a dataset outside
    ``suite`` raise :class:`InputError`.
    """
    if n_folds < 2:
        raise InputError(f"--folds {n_folds}: cross-validation needs at least 2 folds")
    if data_dir is not None:
        if not target:
            raise InputError("--data-dir needs --target COL, the class column of your files")
        return load_dataset(task_id, data_dir=data_dir, target=target, pos_label=pos_label,
                            n_folds=n_folds, seed=seed)
    if pos_label is not None:
        raise InputError("--pos-label only applies to your own files; add --data-dir DIR --target COL")
    if target:
        raise InputError("--target only applies to your own files; add --data-dir DIR")
    if task_id.startswith("openml-"):  # online: the task's own splits
        return load_dataset(task_id)
    if task_id not in suite_names(suite):
        if task_id.startswith("user-"):
            raise InputError(f"{task_id} is a user dataset; add --data-dir DIR --target COL")
        load_dataset(task_id)  # unknown id -> InputError naming the fix
        raise InputError(f"{task_id} is not in suite {suite!r}; pass --suite all to use it")
    return load_dataset(task_id)


def predict_task(dataset: Dataset, learners: Sequence[str], out: str | os.PathLike[str], *, n_folds: int = 10,
                 seed: int = 0, min_minority: int = DEFAULT_MIN_MINORITY, progress: bool = False,
                 t0: float | None = None) -> TaskStatus:
    """Cross-validate ``learners`` on ``dataset``, write the predictions to ``out`` when ``ok``.

    Returns the task's status: ``skipped`` (nothing written) when the dataset is too small for
    the folds (:class:`~prspace.local.crossval.SkipDataset`), else ``ok`` naming ``out``; extra
    fields ``failed_learners`` (learners that raised, with the error), ``n``, ``n_pos`` and each
    learner's wall and CPU seconds, in all and for fit and score apart (``learner_phase_seconds``).  ``seconds`` counts from ``t0`` (``time.perf_counter()``;
    default: the call) to the end of the write.
    """
    from prspace.local.crossval import SkipDataset, predict_dataset  # scikit-learn: slow to import

    t0 = time.perf_counter() if t0 is None else t0
    status = TaskStatus(task_id=dataset.task_id, status="ok", seconds=0.0, before_seconds=("failed_learners",),
                        extra={"failed_learners": [], "n": dataset.n, "n_pos": dataset.n_pos,
                               "learner_seconds": {}, "learner_cpu_seconds": {},
                               "learner_phase_seconds": {}})
    timings: dict[str, float] = {}
    cpu_timings: dict[str, float] = {}
    phases: dict[str, dict[str, float]] = {}
    try:
        df, task, failures = predict_dataset(dataset, learners, n_folds=n_folds, seed=seed, progress=progress,
                                             min_minority=min_minority, timings=timings, cpu_timings=cpu_timings,
                                             phase_timings=phases)
    except SkipDataset as exc:
        status.status, status.reason = "skipped", str(exc)
        failures = []
    else:
        write_predictions(df, task, out)
        status.predictions, status.n_models = str(out), task.n_models
    status.extra["failed_learners"] = [{"learner": f.learner, "error": f.error} for f in failures]
    status.extra["learner_seconds"] = {k: round(v, 3) for k, v in timings.items()}
    status.extra["learner_cpu_seconds"] = {k: round(v, 3) for k, v in cpu_timings.items()}
    status.extra["learner_phase_seconds"] = {k: {p: round(v, 4) for p, v in d.items()} for k, d in phases.items()}
    status.seconds = round(time.perf_counter() - t0, 3)
    return status
