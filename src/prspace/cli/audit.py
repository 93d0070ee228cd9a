"""``prspace audit FILE``: audit your own scored predictions (CSV or parquet).

Reads the file, hands it to :mod:`prspace.audit`, prints the summary and, with
``--out DIR``, writes ``report.md``, ``curves.png`` and the tables as CSV.
Exit status: 0 when the audit ran (warnings included), 1 when a finding is an
error (an AUPR below its minimum) or, with ``--strict``, when anything was
flagged as a warning; 2 for bad input (one line on stderr saying what to fix).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from prspace._io import atomic_path
from prspace.errors import InputError

if TYPE_CHECKING:  # the CLI imports every sub-command; keep numpy/pandas/scipy out of startup
    import pandas as pd

    from prspace.audit import AuditResult

READERS = {".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet"}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "audit",
        help="audit your own predictions: metrics, ranks, disagreements, pitfalls",
        description=(
            "Compute AUROC, AP, AUPR, AUPR_MIN, AUCNPR and AUPRG per model (and task), rank the "
            "models under each metric, say where the rankings disagree, and warn where the data "
            "invite the pitfalls of Boyd et al. (2012) and Flach & Kull (2015). Input: one row "
            "per model and test example, CSV or parquet."
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
        "--out", metavar="DIR", help="write report.md, curves.png and CSV tables into DIR"
    )
    p.add_argument("--strict", action="store_true", help="exit 1 when any warning is raised")
    p.set_defaults(func=run)


def read_table(path: str) -> pd.DataFrame:
    """Read a CSV / TSV / parquet file, turning every reading problem into an :class:`InputError`."""
    import pandas as pd

    p = Path(path)
    if not p.exists():
        raise InputError(
            f"no such file: {path}; give the path of a CSV or parquet file of predictions"
        )
    if p.is_dir():
        raise InputError(
            f"{path} is a directory; give the path of a CSV or parquet file of predictions"
        )
    suffixes = [s.lower() for s in p.suffixes]
    if suffixes and suffixes[-1] in (".gz", ".bz2", ".xz", ".zip"):
        suffixes = suffixes[:-1]
    kind = READERS.get(suffixes[-1] if suffixes else "")
    if kind is None:
        raise InputError(
            f"cannot tell the format of {p.name}: name it .csv, .tsv or .parquet (text files may end in .gz)"
        )
    try:
        if kind == "parquet":
            return pd.read_parquet(p)
        return pd.read_csv(p, sep="\t" if kind == "tsv" else ",")
    except (
        pd.errors.ParserError,
        pd.errors.EmptyDataError,
        UnicodeDecodeError,
        OSError,
        ValueError,
    ) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"cannot read {path} as {kind}: {first}; check that the file is a valid {kind} file"
        ) from None


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


def run(args: argparse.Namespace) -> int:
    from prspace import audit

    if not args.skew_tolerance >= 0:
        raise InputError(f"--skew-tolerance must be >= 0, got {args.skew_tolerance}")
    if not args.downsample_ratio > 1:
        raise InputError(f"--downsample-ratio must be > 1, got {args.downsample_ratio}")
    df = read_table(args.file)
    columns = audit.resolve_columns(
        list(df.columns),
        model=args.model_col,
        label=args.label_col,
        score=args.score_col,
        fold=args.fold_col,
        task=args.task_col,
        weight=args.weight_col,
        repeat=args.repeat_col,
    )
    data, positive = audit.prepare(df, columns, pos_label=args.pos_label)
    result = audit.run_audit(
        data,
        positive,
        train_pi=_train_pi(args.train_pi, df, data),
        skew_tolerance=args.skew_tolerance,
        downsample_ratio=args.downsample_ratio,
    )
    used = ", ".join(f"{k}={v!r}" for k, v in dataclasses.asdict(columns).items() if v is not None)
    print(audit.format_text(result, f"{args.file} (columns: {used})"), end="")
    if args.out:
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise InputError(
                f"--out {args.out} is a file; give a directory (it is created if missing)"
            )
        written = write_outputs(result, out, source=Path(args.file).name)
        print("\nWrote " + ", ".join(str(p) for p in written))
    if result.exit_code:
        return result.exit_code
    if args.strict and any(f.severity == "warning" for f in result.findings):
        return 1
    return 0


def write_outputs(result: AuditResult, out: Path, *, source: str) -> list[Path]:
    """Write the report, the figure and the tables into ``out``; return the paths written."""
    import pandas as pd

    from prspace import audit
    from prspace.output import write_csv, write_figure

    out.mkdir(parents=True, exist_ok=True)
    written = []
    fig = audit.plot_curves(result)
    png = write_figure(fig, out / "curves", ["png"])[0]
    written.append(png)
    tables = {
        "metrics.csv": result.pooled,
        "fold_metrics.csv": result.folds,
        "ranks.csv": result.ranks,
        "findings.csv": pd.DataFrame(
            [dataclasses.asdict(f) for f in result.findings],
            columns=["code", "severity", "where", "message"],
        ),
    }
    for name, table in tables.items():
        if name == "fold_metrics.csv" and not result.has_folds:
            continue
        written.append(write_csv(table, out / name))
    report = out / "report.md"
    with atomic_path(report) as tmp:
        tmp.write_text(audit.format_markdown(result, source, figure=png.name), encoding="utf-8")
    written.insert(0, report)
    return written
