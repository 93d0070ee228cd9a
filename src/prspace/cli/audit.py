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
import re
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
    """Read a CSV / TSV / parquet file, turning every reading problem into an :class:`InputError`."""
    import pandas as pd

    p = Path(path)
    shown = short_path(path)
    try:
        p.stat()
    except FileNotFoundError:
        raise InputError(
            f"no such file: {shown}; give the path of a CSV or parquet file of predictions"
        ) from None
    except OSError as exc:
        raise InputError(path_error(exc, path, "give the path of a CSV or parquet file of predictions")) from None
    if p.is_dir():
        raise InputError(
            f"{shown} is a directory; give the path of a CSV or parquet file of predictions"
        )
    suffixes = [s.lower() for s in p.suffixes]
    if suffixes and suffixes[-1] in (".gz", ".bz2", ".xz", ".zip"):
        suffixes = suffixes[:-1]
    kind = READERS.get(suffixes[-1] if suffixes else "")
    if kind is None:
        raise InputError(
            f"cannot tell the format of {p.name}: name it .csv, .tsv or .parquet (text files may end in .gz)"
        )
    if sep in ("\\t", "tab"):  # a shell passes --sep '\t' as backslash-t
        sep = "\t"
    if sep == "":
        raise InputError("--sep is empty; give the field separator, e.g. --sep ';'")
    delimiter = sep if sep is not None else ("\t" if kind == "tsv" else ",")
    try:
        if kind == "parquet":
            return pd.read_parquet(p)
        df = pd.read_csv(p, sep=delimiter, engine="c" if len(delimiter) == 1 else "python")
    except (
        re.error,  # a multi-character --sep is a regular expression to pandas
        pd.errors.ParserError,
        pd.errors.EmptyDataError,
        UnicodeDecodeError,
        OSError,
        ValueError,
    ) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = first.replace(str(path), shown)[:200]
        raise InputError(
            f"cannot read {shown} as {kind}: {first}; check that the file is a valid {kind} file"
        ) from None
    _check_separator(df, path, delimiter)
    if kind != "parquet" and df.shape[1] > 1:
        _check_header(p, delimiter)
    return df


def _check_header(p: Path, delimiter: str) -> None:
    """A column named twice: pandas would rename the second copy (``score.1``) and use the first silently."""
    import pandas as pd

    try:
        header = pd.read_csv(p, sep=delimiter, header=None, nrows=1, dtype=str,
                             engine="c" if len(delimiter) == 1 else "python").iloc[0]
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, OSError, IndexError):
        return
    from prspace.audit.inputs import check_duplicate_columns

    try:
        check_duplicate_columns(["" if isinstance(v, float) else str(v) for v in header])
    except InputError as exc:
        raise InputError(f"{short_path(str(p))}: {exc}") from None


#: Paths in messages are shortened to this many characters (start and end kept).
PATH_SHOWN = 120


def short_path(path: str | Path, limit: int = PATH_SHOWN) -> str:
    """A path for a one-line message: in full when short, else its start and end around an ellipsis."""
    text = " ".join(str(path).splitlines())
    if len(text) <= limit:
        return text
    head = limit // 3
    return f"{text[:head]}...{text[-(limit - head - 3):]} ({len(text)} characters)"


def path_error(exc: OSError, path: str | Path, fix: str) -> str:
    """One line for an OS error on ``path``: the real cause, and the fix for it."""
    import errno

    shown = short_path(path)
    if exc.errno == errno.ENAMETOOLONG:
        longest = max((len(part.encode()) for part in Path(path).parts), default=0)
        return (f"path too long for the file system: {shown} (a file or folder name may have at most 255 bytes, "
                f"the longest here has {longest}; a whole path at most 4096): give a shorter path")
    if exc.errno == errno.EACCES or isinstance(exc, PermissionError):
        return f"permission denied: {shown}; {fix} that you may read and write"
    if exc.errno == errno.ENOSPC:
        return f"no space left on the device for {shown}: free disk space or {fix} on another disk"
    if exc.errno == errno.ENOTDIR:
        return f"a part of {shown} is a file, not a folder; {fix}"
    return f"{exc.strerror or type(exc).__name__}: {shown}; {fix}"


def _check_separator(df: pd.DataFrame, path: str, delimiter: str) -> None:
    """A file separated by something else reads as one column whose name holds the separators."""
    if df.shape[1] != 1:
        return
    header = str(df.columns[0])
    for other, name in ((";", "semicolon"), ("\t", "tab"), (",", "comma"), ("|", "pipe")):
        if other != delimiter and other in header:
            shown = "'\\t'" if other == "\t" else repr(other)
            raise InputError(
                f"{short_path(path)} looks {name}-separated (its header {header[:60]!r} is one column); pass --sep {shown} "
                "or save the file with commas"
            )


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
