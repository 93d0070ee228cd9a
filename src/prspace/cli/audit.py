"""``prspace audit FILE``: audit your own scored predictions (CSV or parquet).

Checks ``--out`` first, runs :func:`prspace.audit.audit_files.audit_file` on the file (every column
accounted for: ``--ignore-col``; a wide file: ``--score-cols``), prints progress lines on stderr
(``--progress``; by default when stderr is a terminal), then the summary and, with ``--out DIR``,
writes ``report.md``, ``report.html`` (one self-contained file), ``curves.png``, ``intervals.png``,
``bands.png`` and the tables as CSV.
Exit status: 0 when the audit ran (warnings included), 1 when a finding is an
error (an AUPR below its minimum) or, with ``--strict``, when anything was
flagged as a warning; 2 for bad input (one line on stderr saying what to fix).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from prspace.audit.audit_files import (
    audit_file,
    check_out,
    prepare_outputs,
    short_path,
    write_outputs,
)
from prspace.audit.report import render
from prspace.core.defaults import N_BOOT


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
        help="task / dataset column (default: 'task_id', 'task', 'dataset', 'dataset_id', 'dataset_name', "
        "'task_name' or 'data' if present and grouping rows; '' = none)",
    )
    p.add_argument("--weight-col", help="sample weight column (default: 'weight' or 'sample_weight' if present; "
                   "'' = none)")
    p.add_argument(
        "--row-col",
        help="test-row id column: pairs the models' rows for the paired tests (default: 'row_id' or 'row' if present; "
        "without it the i-th row of every model is taken to be the same example; '' = none)",
    )
    p.add_argument(
        "--group-col",
        metavar="NAME",
        help="the column naming each row's patient, subject or site when a group has several rows: every interval, "
        "paired test, plausible-best set and curve band then resamples whole groups (cluster bootstrap and jackknife; AUROC "
        "without DeLong, which assumes independent rows); default: none, rows resampled one by one",
    )
    p.add_argument(
        "--score-cols",
        metavar="A,B,...",
        help="a wide file: one score column per model (the model is the column's name), comma-separated, or "
        "'all' for every numeric column not named like another role; a row's empty cell: that model did not "
        "score it",
    )
    p.add_argument(
        "--ignore-col",
        action="append",
        metavar="NAME",
        help="a column the audit should not use, although it looks like a task, fold, row id or weight "
        "column (repeatable, or comma-separated); every other column is used or reported",
    )
    p.add_argument(
        "--sep", help="field separator of a text file (default: ',' for .csv/.txt, tab for .tsv)"
    )
    p.add_argument(
        "--decimal",
        help="decimal mark of a text file's numbers: '.' or ',' (default '.'; with --sep ';' decimal commas, "
        "as Excel writes '0,9999', are detected)",
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
        dest="n_boot",  # the one place the command line's name meets the package's (issue 79)
        type=int,
        default=N_BOOT,
        metavar="N",
        help="bootstrap resamples for the intervals and paired tests of AP, AUPR, AUCNPR, AUPRG (default %(default)s; "
        "0 = no bootstrap: DeLong's, the jackknife-t's and Boyd's intervals and the DeLong and jackknife paired tests "
        "remain; --metrics-only for none)",
    )
    p.add_argument(
        "--metrics-only",
        action="store_true",
        help="the metrics alone: point estimates, ranks and findings, without any interval, paired test or "
        "plausible-best set (no DeLong, jackknife or bootstrap)",
    )
    p.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and of the curve bands (default 0)")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write report.md, report.html, curves.png, intervals.png, bands.png and CSV tables into DIR",
    )
    p.add_argument("--strict", action="store_true", help="exit 1 when any warning is raised")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="print what the audit is doing on stderr (default: when stderr is a terminal)",
    )
    p.set_defaults(func=run)


def progress_printer(enabled: bool | None, command: str = "audit"):
    """A printer of ``prspace <command>: 12.3 s: <stage>`` lines on stderr, or None (``enabled`` None:
    when stderr is a terminal); ``prspace audit`` and ``prspace power`` share it."""

    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None
    start = time.perf_counter()

    def say(text: str) -> None:
        print(f"prspace {command}: {time.perf_counter() - start:6.1f} s: {text}", file=sys.stderr, flush=True)

    return say


def run(args: argparse.Namespace) -> int:

    out = check_out(args.out)
    say = progress_printer(args.progress)
    roles = ("model", "label", "score", "fold", "task", "weight", "repeat", "row")
    result, _ = audit_file(
        args.file, sep=args.sep, decimal=args.decimal, columns={r: getattr(args, f"{r}_col") for r in roles}, pos_label=args.pos_label,
        train_pi=args.train_pi, skew_tolerance=args.skew_tolerance, downsample_ratio=args.downsample_ratio,
        n_boot=args.n_boot, confidence=args.confidence, seed=args.seed, score_cols=args.score_cols,
        ignore=args.ignore_col, progress=say, group_col=args.group_col, metrics_only=args.metrics_only,
        bands_ahead=out is not None)
    if say and out is not None:
        say("figures and report files")
    if out is not None:
        prepare_outputs(result)  # the bands, then matplotlib: one after the other in memory
    with render.shared():  # the report files and the printed summary compute their common pieces once
        written = write_outputs(result, out, source=Path(args.file).name) if out is not None else []
        if say:
            say("done")
        print(result.to_text(short_path(args.file)), end="")
    if written:
        print("\nWrote " + ", ".join(str(p) for p in written))
    if result.exit_code:
        return result.exit_code
    if args.strict and any(f.severity == "warning" for f in result.findings):
        return 1
    return 0
