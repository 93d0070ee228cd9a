"""``prspace boyd ...``: the per-task runs of the Boyd et al. (2012) experiments.

* ``downsample`` -- the downsampling runs of one or more tasks (section 4.3);
* ``fold-skew``  -- the fold-skew runs of one or more tasks from their predictions (section 4.1).

Each writes one parquet file per task with a note (why a task was skipped, or where its data came
from), which the generic ``prspace step`` does not write; rules ``boyd_downsample`` and
``boyd_fold_skew`` each call theirs once for every task of the experiment (``--out-dir``: one job, its
tasks shared by ``--jobs`` processes, each task's file the same bytes as a run of that task alone). Every other Boyd step (theory and paper tables, the reports over tasks,
the evidence rows) is ``prspace step <rule>`` (:mod:`prspace.experiments.steps.boyd_steps`), and every
figure ``prspace figure NAME``. Every option's default is its setting's in ``workflow/schemas/boyd.schema.yaml``
(:func:`prspace.study.study_config.schema_defaults`), read from there: written nowhere else.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

from prspace.cli._options import processes
from prspace.core.errors import InputError
from prspace.core.output import write_parquet
from prspace.core.panels import parse_learners
from prspace.core.processes import ordered_map
from prspace.data.datasets import check_dataset_id, load_dataset
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.boyd import fold_skew as fs
from prspace.study.study_config import schema_defaults

#: The section of ``workflow/schemas/boyd.schema.yaml`` whose defaults each sub-command's options take (one home
#: per default: the schema; tests/cli/test_boyd_defaults.py).
SECTIONS = {"downsample": "downsampling", "fold-skew": "fold_skew"}


def _floats(text: str) -> list[float]:
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("boyd", help="Boyd et al. (2012): one task's downsampling or fold-skew runs",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="boyd_command", metavar="ACTION", required=True)
    ds, fsk = (schema_defaults("boyd", SECTIONS[c]) for c in ("downsample", "fold-skew"))

    d = sub.add_parser("downsample", help="one or more tasks' downsampling runs (Boyd section 4.3)", description="Boyd et al. section 4.3: train on each task's folds downsampled to k negatives per positive and evaluate on downsampled and original test folds; write each task's runs as parquet.")
    d.add_argument("--dataset", required=True, nargs="*",
                   help="task id(s) of the local source (e.g. keel-ecoli1; none: an empty --out-dir)")
    d.add_argument("--data-dir", default=None, help="user data directory (as for predict-local)")
    d.add_argument("--target", default=None, help="target column in --data-dir files")
    d.add_argument("--pos-label", default=None, help="positive class of --data-dir files (default: the minority)")
    d.add_argument("--learners", default=ds["learners"], help="panel name or comma-separated learner names (default: %(default)s)")
    d.add_argument("--ratios", type=_floats, default=ds["ratios"], help="negatives per positive, e.g. 1,2,3,4,5,10")
    d.add_argument("--folds", type=int, default=ds["folds"], help="cross-validation folds (default: %(default)s)")
    d.add_argument("--repeats", type=int, default=ds["repeats"], help="repeats of the cross-validation (default: %(default)s)")
    d.add_argument("--seed", type=int, default=0, help="seed of the folds, the downsampling and the learners")
    d.add_argument("--max-pi", type=float, default=ds["max_pi"], help="skip the task if its pi is above this (default: %(default)s)")
    d.add_argument("--jobs", type=processes, default=1,
                   help="processes sharing the tasks (default: %(default)s); each task's file is the same whatever "
                        "the number: its runs depend on its own data and --seed only")
    _out_options(d, "parquet of runs to write, empty if the task is skipped (one --dataset)",
                 "folder of the runs, one parquet per task (<task>.parquet)")
    d.set_defaults(func=run_downsample)

    f = sub.add_parser("fold-skew", help="one task's fold-skew runs (Boyd section 4.1)", description="Boyd et al. section 4.1: resample the task's test folds with skewed class ratios and compare the fold-averaged and pooled aggregates; write the runs as parquet.")
    f.add_argument("--status", required=True, type=Path, nargs="*",
                   help="status JSON of each task's predictions (none: an empty --out-dir)")
    f.add_argument("--dispersions", type=_floats, default=fsk["dispersions"], help="shares of a class dropped from skewed test folds, comma-separated, each in [0, 1)")
    f.add_argument("--seeds", type=int, default=fsk["seeds"], help="random drops per dispersion (default: %(default)s)")
    f.add_argument("--seed", type=int, default=0, help="seed of the resampling")
    f.add_argument("--max-repeats", type=int, default=fsk["max_repeats"], help="CV repeats of the predictions to use at most")
    f.add_argument("--jobs", type=processes, default=1,
                   help="processes sharing the tasks (default: %(default)s); each task's file is the same whatever "
                        "the number: its runs depend on its own predictions and --seed only")
    _out_options(f, "parquet of runs to write (one --status)",
                 "folder of the runs, one parquet per task named as its status file (<task>.parquet)")
    f.set_defaults(func=run_fold_skew)


def _out_options(parser: argparse.ArgumentParser, one: str, folder: str) -> None:
    out = parser.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", type=Path, help=one)
    out.add_argument("--out-dir", type=Path, help=folder)


def _outputs(args: argparse.Namespace, names: list[str], given: str) -> list[Path]:
    """Each task's output file: ``--out`` (one task) or ``<--out-dir>/<name>.parquet`` (the folder made),
    checked before any work starts."""
    if args.out is not None and len(names) != 1:
        raise InputError(f"--out takes the runs of one task; {len(names)} {given} given: "
                         "write them into a folder with --out-dir")
    if len(set(names)) != len(names):
        raise InputError(f"two {given} name the same task; each task's runs are written once, named after it")
    if args.out is not None:
        return [args.out]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    return [args.out_dir / f"{name}.parquet" for name in names]


def run_downsample(args: argparse.Namespace) -> int:
    """Each task's downsampling runs (:func:`prspace.experiments.boyd.downsampling.task_runs`), one after the
    other or shared by ``--jobs`` processes (spawned: each task's file the same bytes either way): the dataset
    loaded as ``prspace predict-local`` loads it, the learners of the panel (or comma-separated names)."""
    names = parse_learners(args.learners)
    for task in args.dataset:
        check_dataset_id(task, data_dir=args.data_dir)
    outs = _outputs(args, list(args.dataset), "--dataset values")
    load = {"data_dir": args.data_dir, "target": args.target, "pos_label": args.pos_label}
    kw = {"max_pi": args.max_pi, "ratios": args.ratios, "n_folds": args.folds, "repeats": args.repeats, "seed": args.seed}
    pairs = list(zip(args.dataset, outs, strict=True))
    task = functools.partial(_downsample_task, names=names, load=load, kw=kw)
    _report("downsample", ordered_map(task, pairs, jobs=args.jobs), len(pairs))
    return 0


def _downsample_task(pair: tuple[str, Path], names: list[str], load: dict[str, Any], kw: dict[str, Any]) -> str:
    """One task's downsampling runs written to its file (:func:`prspace.experiments.boyd.downsampling.task_runs`):
    ``load`` the keywords of :func:`~prspace.data.datasets.load_dataset`, ``kw`` those of the runs."""
    # scikit-learn only here: of the Boyd commands only this one fits models
    from prspace.local.learners import make_learner, score_of

    task, out = pair
    data = load_dataset(task, **load)
    learner_of = {n: (lambda seed, n=n: make_learner(n, seed)) for n in names}
    runs, note = ds.task_runs(data.X, data.y, learner_of, score=score_of, provenance=getattr(data, "provenance", ""),
                              task_id=task, **kw)
    write_parquet(runs, out, note)
    return task


def run_fold_skew(args: argparse.Namespace) -> int:
    """Each task's fold-skew runs (:func:`prspace.experiments.boyd.fold_skew.task_runs`), one after the other or
    shared by ``--jobs`` processes (spawned: each task's file the same bytes either way)."""
    outs = _outputs(args, [Path(p).stem for p in args.status], "--status files")
    kw = {"dispersions": args.dispersions, "seeds": args.seeds, "seed": args.seed, "max_repeats": args.max_repeats}
    pairs = list(zip(args.status, outs, strict=True))
    _report("fold-skew", ordered_map(functools.partial(_fold_skew_task, kw=kw), pairs, jobs=args.jobs), len(pairs))
    return 0


def _fold_skew_task(pair: tuple[Path, Path], kw: dict[str, Any]) -> str:
    """One task's fold-skew runs written to its file (:func:`prspace.experiments.boyd.fold_skew.task_runs`)."""
    status, out = pair
    runs, note = fs.task_runs(status, **kw)
    write_parquet(runs, out, note)
    return Path(out).stem


def _report(what: str, done: Any, n: int) -> None:
    """A progress line per task written, in the order of the tasks given."""
    for k, name in enumerate(done, 1):
        print(f"{what}: {k} of {n} tasks written ({name})", file=sys.stderr, flush=True)
