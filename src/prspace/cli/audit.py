"""``prspace audit FILE``: audit your own scored predictions (CSV or parquet).

Checks ``--out`` first, reads the file, hands it to :func:`prspace.audit.audit`, prints
the summary and, with ``--out DIR``, writes ``report.md``, ``report.html`` (one
self-contained file), ``curves.png``, ``intervals.png``, ``bands.png`` and the tables as CSV.
Exit status: 0 when the audit ran (warnings included), 1 when a finding is an
error (an AUPR below its minimum) or, with ``--strict``, when anything was
flagged as a warning; 2 for bad input (one line on stderr saying what to fix).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from prspace._io import PATH_SHOWN, atomic_path, path_error, short_path  # noqa: F401 - PATH_SHOWN, short_path: used by tests
from prspace.errors import InputError

if TYPE_CHECKING:  # the CLI imports every sub-command; keep numpy/pandas/scipy out of startup
    import pandas as pd

    from prspace.audit import AuditResult



def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "audit",
        help="audit your own predictions: metrics with intervals, paired tests, ranks, disagreements, pitfalls",
        description=(
            "Compute AUROC, AP, AUPR, AUPR_MIN, AUCNPR and AUPRG per model (and task) with "
            "confidence intervals (DeLong; stratified bootstrap; Boyd et al. 2013), test every pair "
            "of models on every metric, rank the models under each metric and say where the "
            "rankings disagree and whether that is beyond noise, put every AUPR estimator side by "
            "side, and warn where the data invite the pitfalls of Boyd et al. (2012) and Flach & "
            "Kull (2015). Input: one row per model and test example, CSV or parquet."
        ),
    )
    p.add_argument(
        "file", metavar="FILE", help="predictions: .csv, .tsv or .parquet (optionally .gz for text)"
    )
    p.add_argument(
        "--model-col", help="model column (default: 'model' or 'model_id'; absent: one model)"
    )
    p.add_argument(
        "--label-col", help="true label column (default: 'y_true', 'label', 'y' or 'target')"
    )
    p.add_argument(
        "--score-col", help="score column, higher = more positive (default: 'score' or 'y_score')"
    )
    p.add_argument(
        "--fold-col", help="cross-validation fold column (default: 'fold' if present; '' = none)"
    )
    p.add_argument(
        "--task-col",
        help="task / dataset column (default: 'task_id' or 'task' if present; '' = none)",
    )
    p.add_argument("--weight-col", help="sample weight column (default: none)")
    p.add_argument(
        "--row-col",
        help="test-row id column: pairs the models' rows for the paired tests (default: 'row_id' if present; "
        "without it the i-th row of every model is taken to be the same example; '' = none)",
    )
    p.add_argument(
        "--sep", help="field separator of a text file (default: ',' for .csv/.txt, tab for .tsv)"
    )
    p.add_argument(
        "--repeat-col",
        help="cross-validation repeat column (default: 'repeat' if present; folds are then "
        "told apart per repeat; '' = none)",
    )
    p.add_argument(
        "--pos-label",
        help="the label value of the positive class (default: 1 or True for 0/1, -1/1 and boolean labels)",
    )
    p.add_argument(
        "--train-pi",
        metavar="PI|COLUMN",
        help=(
            "prevalence of the positive class in the training data or population before any "
            "downsampling: a number in (0, 1), or a column holding it (constant per task). "
            "Enables the downsampling check"
        ),
    )
    p.add_argument(
        "--skew-tolerance",
        type=float,
        default=0.02,
        help="warn when folds' or tasks' AUPR_MIN differ by more than this (default 0.02)",
    )
    p.add_argument(
        "--downsample-ratio",
        type=float,
        default=1.5,
        help="warn when the test odds of a positive are at least this many times the training odds (default 1.5)",
    )
    p.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples for the intervals and paired tests of AP, AUPR, AUCNPR, AUPRG (default 1000; "
        "0 = DeLong and Boyd's intervals only)",
    )
    p.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write report.md, report.html, curves.png, intervals.png, bands.png and CSV tables into DIR",
    )
    p.add_argument("--strict", action="store_true", help="exit 1 when any warning is raised")
    p.set_defaults(func=run)


def read_table(path: str, sep: str | None = None) -> pd.DataFrame:
    """The audit's predictions file (:func:`prspace.data.usertable.read_table`, imported late: the
    CLI imports every sub-command, so pandas stays out of startup)."""
    from prspace.data.usertable import read_table as _read_table

    return _read_table(path, sep)


def _train_pi(
    value: str | None, df: pd.DataFrame, data: pd.DataFrame
) -> float | dict[str, float] | None:
    if value is None:
        return None
    import numpy as np
    import pandas as pd

    try:
        pi: float | None = float(value)
    except ValueError:
        pi = None
    if pi is None:
        if value not in df.columns:
            raise InputError(
                f"--train-pi {value!r} is neither a number nor a column of the file; give the training "
                "prevalence as a number in (0, 1) or name the column that holds it"
            )
        col = pd.to_numeric(df[value], errors="coerce").reset_index(drop=True)
        if col.isna().any() or not ((col > 0) & (col < 1)).all():
            raise InputError(
                f"column {value!r} (--train-pi) must hold numbers strictly between 0 and 1 in every row"
            )
        per_task = col.groupby(data["task"]).agg(["min", "max"])
        varying = per_task.index[per_task["max"] - per_task["min"] > 1e-12]
        if len(varying):
            raise InputError(
                f"column {value!r} (--train-pi) varies within task {varying[0]!r}; it must be one number per task"
            )
        return {str(t): float(v) for t, v in per_task["min"].items()}
    if not (0 < pi < 1) or not np.isfinite(pi):
        raise InputError(
            f"--train-pi must lie strictly between 0 and 1, got {value}; give the training prevalence"
        )
    return pi


def _check_out(out: str | None) -> Path | None:
    """Check ``--out`` before any work: a directory we can create and write into."""
    if out is None:
        return None
    import errno
    import os

    path = Path(out)
    shown = short_path(out)
    try:
        is_file = path.exists() and not path.is_dir()
    except OSError as exc:
        raise InputError(f"cannot use --out: {path_error(exc, out, 'give a writable directory')}") from None
    if is_file:
        raise InputError(f"--out {shown} is a file; give a directory (it is created if missing)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno in (errno.ENAMETOOLONG, errno.ENOSPC):
            raise InputError(f"cannot create --out: {path_error(exc, out, 'give a writable directory')}") from None
        raise InputError(f"cannot create --out {shown}: {exc.strerror or exc}; give a writable directory") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise InputError(f"cannot write into --out {shown}: permission denied; give a writable directory")
    return path


def run(args: argparse.Namespace) -> int:
    from prspace import audit

    if not args.skew_tolerance >= 0:
        raise InputError(f"--skew-tolerance must be >= 0, got {args.skew_tolerance:g}")
    if not args.downsample_ratio > 1:
        raise InputError(f"--downsample-ratio must be > 1, got {args.downsample_ratio:g}")
    if args.bootstrap < 0:
        raise InputError(f"--bootstrap must be >= 0, got {args.bootstrap}")
    if not 0 < args.confidence < 1:
        raise InputError(f"--confidence must lie strictly between 0 and 1, got {args.confidence:g}")
    out = _check_out(args.out)
    df = read_table(args.file, args.sep)
    try:
        columns = audit.resolve_columns(
            list(df.columns),
            model=args.model_col,
            label=args.label_col,
            score=args.score_col,
            fold=args.fold_col,
            task=args.task_col,
            weight=args.weight_col,
            repeat=args.repeat_col,
            row=args.row_col,
        )
        data, positive = audit.prepare(df, columns, pos_label=args.pos_label, detect_model=args.model_col is None)
        train_pi = _train_pi(args.train_pi, df, data)
    except InputError as exc:  # name the file: every problem found here is in it
        raise InputError(f"{short_path(args.file)}: {exc}") from None
    result = audit.run_audit(
        data,
        positive,
        train_pi=train_pi,
        skew_tolerance=args.skew_tolerance,
        downsample_ratio=args.downsample_ratio,
        n_boot=args.bootstrap,
        confidence=args.confidence,
        seed=args.seed,
        duplicates=audit.duplicate_rows(df, columns),
    )
    written = write_outputs(result, out, source=Path(args.file).name) if out is not None else []
    used = ", ".join(f"{k}={v!r}" for k, v in dataclasses.asdict(columns).items() if v is not None)
    print(result.to_text(f"{short_path(args.file)} (columns: {used})"), end="")
    if written:
        print("\nWrote " + ", ".join(str(p) for p in written))
    if result.exit_code:
        return result.exit_code
    if args.strict and any(f.severity == "warning" for f in result.findings):
        return 1
    return 0


def write_outputs(result: AuditResult, out: Path, *, source: str) -> list[Path]:
    """Write the reports, the figures and the tables into ``out``; return the paths written.

    Everything is rendered in memory first, then each file is written to a temporary name
    and renamed (:func:`prspace._io.atomic_path`): a file in ``out`` is complete or absent.
    """

    import pandas as pd

    from prspace.output import to_csv_text

    pngs = result.figures()
    tables = {
        "metrics.csv": result.pooled,
        "fold_metrics.csv": result.folds if result.has_folds else None,
        "ranks.csv": result.ranks,
        "intervals.csv": result.intervals,
        "comparisons.csv": result.comparisons,
        "rank_sets.csv": result.rank_sets,
        "pairwise.csv": result.pairwise,
        "bands.csv": result.band_table() if result.n_boot else None,
        "auroc_bounds.csv": result.auroc_bounds,
        "estimators.csv": result.estimators,
        **{f"{name}.csv": t for name, t in (result.cd or {}).items()},
        "findings.csv": pd.DataFrame(
            [dataclasses.asdict(f) for f in result.findings],
            columns=["code", "severity", "where", "message"],
        ),
    }
    files: dict[str, bytes] = {
        "report.md": result.to_markdown(source, {n: f"{n}.png" for n in pngs}).encode("utf-8"),
        "report.html": result.to_html(source, pngs).encode("utf-8"),
        **{f"{n}.png": png for n, png in pngs.items()},
        **{n: to_csv_text(t).encode("utf-8") for n, t in tables.items() if t is not None},
    }
    written = []
    for name, content in files.items():
        with atomic_path(out / name) as tmp:
            Path(tmp).write_bytes(content)
        written.append(out / name)
    return written
