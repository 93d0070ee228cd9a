"""The user's file and options of ``prspace audit``: reading them, checking them, and the files of the report.

:func:`audit_file` is what the command runs: the options checked (:func:`check_options`), the file
read (:func:`read_table`: CSV, TSV or Parquet, the separator and a column named twice checked),
then the public :func:`prspace.audit.audit` on it (columns, rows, ``--train-pi``, the file's name in
every message).  :func:`check_out` checks the
output folder before any work; :func:`report_files` renders every file of the report in memory and
:func:`write_outputs` writes them.
Every problem is one :class:`~prspace.core.errors.InputError` naming the file (:func:`short_path`) and
the fix.
"""

from __future__ import annotations

import dataclasses
import errno
import gc
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from prspace.audit.audit_result import Handover, audit, parse_train_pi  # noqa: F401 - parse_train_pi: its home was here
from prspace.audit.inference.audit_bands import shown
from prspace.audit.report import render
from prspace.core import memory
from prspace.core import registry as R
from prspace.core._io import PATH_SHOWN, atomic_path, path_error, short_path  # noqa: F401 - PATH_SHOWN: the limit callers show
from prspace.core.errors import InputError
from prspace.core.output import to_csv_text
from prspace.data.usertable import read_table as _read_table

if TYPE_CHECKING:
    from prspace.audit.audit_result import AuditResult
    from prspace.audit.intake.inputs import Columns

def check_options(*, skew_tolerance: float, downsample_ratio: float, n_boot: int | None, confidence: float) -> None:
    """The numeric options of the audit, each in its range (named as the command line names them: ``n_boot`` is
    ``--bootstrap``; None: the default)."""
    if not skew_tolerance >= 0:
        raise InputError(f"--skew-tolerance must be >= 0, got {skew_tolerance:g}")
    if not downsample_ratio > 1:
        raise InputError(f"--downsample-ratio must be > 1, got {downsample_ratio:g}")
    if n_boot is not None and n_boot < 0:
        raise InputError(f"--bootstrap must be >= 0, got {n_boot}")
    if not 0 < confidence < 1:
        raise InputError(f"--confidence must lie strictly between 0 and 1, got {confidence:g}")


def audit_file(path: str, *, sep: str | None = None, decimal: str | None = None, columns: dict[str, str | None] | None = None,
               pos_label: str | None = None, train_pi: str | None = None, skew_tolerance: float,
               downsample_ratio: float, n_boot: int | None = None, confidence: float, seed: int = 0,
               score_cols: str | None = None, ignore: list[str] | None = None,
               progress: Callable[[str], None] | None = None,
               group_col: str | None = None, metrics_only: bool = False,
               bands_ahead: bool = False) -> tuple[AuditResult, Columns]:
    """The audit of the predictions file ``path`` (module docstring) and the columns it used.
    ``n_boot``: bootstrap resamples (``--bootstrap``; None: :data:`prspace.core.defaults.N_BOOT`);
    ``columns``: the role -> column options (``model``, ``label``, ``score``, ``fold``, ``task``,
    ``weight``, ``repeat``, ``row``; None: found by name); ``score_cols``: a wide file's score
    columns (``--score-cols``); ``ignore``: columns accepted as unused (``--ignore-col``);
    ``progress``: called with a short text as each stage starts, once the input is checked; ``decimal``:
    the decimal mark of a text file (``--decimal``; None: ``.``, or ``,`` detected with ``--sep ';'``,
    :func:`read_table`); ``group_col``: the column of each row's patient, subject or site (``--group-col``:
    whole groups resampled, :mod:`prspace.audit.inference.grouping`); ``metrics_only``: the point estimates alone
    (``--metrics-only``); ``bands_ahead`` (``--out``): the bands the report draws computed in a second thread while
    the audit computes its intervals (:func:`prspace.audit.inference.audit_bands.start_ahead`)."""
    check_options(skew_tolerance=skew_tolerance, downsample_ratio=downsample_ratio, n_boot=n_boot,
                  confidence=confidence)
    if progress is not None:
        progress(f"reading {short_path(path)}")
    read = {"table": read_table(path, sep, decimal)}
    detected = read["table"].attrs.get("decimal_detected")
    # the table is handed over, not kept here (nor by this call: a Handover, not the table, is its argument), so
    # that a wide table is freed as soon as it is made long
    result = audit(Handover(read.pop("table")), **{f"{r}_col": c for r, c in (columns or {}).items()},
                   score_cols=score_cols, ignore_col=ignore, pos_label=pos_label, train_pi=train_pi,
                   skew_tolerance=skew_tolerance, downsample_ratio=downsample_ratio, n_boot=n_boot,
                   confidence=confidence, seed=seed, progress=progress, source=short_path(path), group_col=group_col,
                   metrics_only=metrics_only, bands_ahead=bands_ahead)
    if detected:
        result.columns = [*(result.columns or []), f"numbers read with decimal commas ('0,5' = 0.5: detected in "
                          f"{', '.join(repr(c) for c in detected)} with --sep ';'; "
                          "--decimal . to read them otherwise)"]
    return result, result.used


#: a number written with a decimal comma (Excel's CSV in many locales): ``0,9999``, ``-1,5E-3``
DECIMAL_COMMA = re.compile(r"^\s*[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?\s*$")
_INTEGER = re.compile(r"^\s*[+-]?\d+\s*$")


def decimal_comma_columns(df: pd.DataFrame) -> list[str]:
    """Text columns whose every cell (empty ones aside) is a number written with a decimal comma or an
    integer, at least one with the comma: numbers of a locale whose decimal mark is the comma."""
    out = []
    for name in df.columns:
        col = df[name]
        if pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            continue
        cells = pd.Series(pd.unique(col.dropna().astype(str)))
        comma = cells.str.match(DECIMAL_COMMA)
        if len(cells) and comma.any() and (comma | cells.str.match(_INTEGER)).all():
            out.append(str(name))
    return out


def read_table(path: str, sep: str | None = None, decimal: str | None = None) -> pd.DataFrame:
    """The predictions file: :func:`prspace.data.usertable.read_table`, the one reader of a user's table.

    ``decimal`` (``--decimal``): the decimal mark, ``.`` or ``,``.  Not given, a file read with
    ``--sep ';'`` (Excel's CSV where the comma is the decimal mark) whose text columns hold numbers
    with decimal commas (:func:`decimal_comma_columns`) is read again with ``,``; ``attrs
    ["decimal_detected"]`` then names those columns."""
    if decimal is not None and decimal not in (".", ","):
        raise InputError(f"--decimal must be '.' or ',', got {decimal!r}")
    if decimal is not None and sep is not None and decimal == sep.replace("tab", "\t"):
        raise InputError(f"--decimal {decimal!r} is also the field separator; give another --sep (e.g. --sep ';')")
    df = _read_table(path, sep, decimal or ".")
    if decimal is None and sep == ";":
        found = decimal_comma_columns(df)
        if found:
            df = _read_table(path, sep, ",")
            df.attrs["decimal_detected"] = found
    return df


def check_out(out: str | None) -> Path | None:
    """``--out`` checked before any work: a directory we can create and write into (created)."""
    if out is None:
        return None
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


#: Rows of the models whose bands are drawn (all tasks), up to which ``--out`` draws the figures that need no bands
#: while another thread computes the bands (:func:`prepare_outputs`); above, after the bands, so that the peak memory
#: is the larger of the two, not their sum (from 10^5 rows x 3 models the sum takes ``--out``'s peak above twice the
#: memory of pandas holding the file: ``benchmarks/bench_audit_scale.py``).
OVERLAP_ROWS = 100_000


def _import_matplotlib() -> None:
    """matplotlib's modules the figures use, imported (about half a second), so that a thread can do it."""
    import matplotlib.backends.backend_agg  # noqa: F401
    import matplotlib.figure  # noqa: F401

    from prspace.audit.report import plot  # noqa: F401


def prepare_outputs(result: AuditResult) -> None:
    """The figures' bootstrap bands (:meth:`~prspace.audit.AuditResult.shown_bands`, kept on ``result``) computed
    first, each stage's freed memory handed back before the next: the peak of ``--out`` is the larger of the
    audit's, the bands' and a figure's, not their sum (the bands need about 30 MB at 10^5 rows, matplotlib 28 MB).

    The bands are computed in a second thread (numpy's random draws, sorts and array operations release the GIL):
    meanwhile this one imports matplotlib and, when the shown models hold at most :data:`OVERLAP_ROWS` rows, draws
    the figures that need no bands (:meth:`~prspace.audit.AuditResult.draw_ahead`); the same bands and the same
    figures as one after the other (each model's bands are seeded on their own)."""
    memory.release()
    if not result.n_boot or result._outputs_prepared:
        return
    drawn = {(str(t), str(m)) for t, models in shown(result) for m in models}
    rows = sum(int(r.n_rows) for r in result.pooled.itertuples() if (str(r.task), str(r.model)) in drawn)
    with ThreadPoolExecutor(max_workers=1) as pool:
        bands = pool.submit(result.shown_bands)
        _import_matplotlib()
        if rows <= OVERLAP_ROWS:
            result.draw_ahead()
        bands.result()
    result._outputs_prepared = True
    memory.release()


def report_files(result: AuditResult, *, source: str) -> dict[str, Any]:
    """Every file of the report, rendered in memory, by name: ``report.md``, ``report.html``,
    the figures (PNG) and the tables (CSV, :func:`prspace.core.output.to_csv_text`), as bytes."""

    prepare_outputs(result)
    pngs = result.figures()
    gc.collect()  # the figures' objects (matplotlib's hold reference cycles), then their memory handed back
    memory.release()
    tables = {
        f"{R.METRICS.name}.csv": result.pooled,
        "fold_metrics.csv": result.folds if result.has_folds else None,
        "ranks.csv": result.ranks,
        "intervals.csv": result.intervals,
        "comparisons.csv": result.comparisons,
        f"{R.RANK_SETS.name}.csv": result.rank_sets,
        "pairwise.csv": result.pairwise,
        "bands.csv": result.band_table() if result.n_boot else None,
        f"{R.AUROC_BOUNDS.name}.csv": result.auroc_bounds,
        "estimators.csv": result.estimators,
        **{f"{name}.csv": t for name, t in (result.cd or {}).items()},
        "findings.csv": pd.DataFrame(
            [dataclasses.asdict(f) for f in result.findings],
            columns=["code", "severity", "where", "message"],
        ),
    }
    with render.shared():  # the two reports compute their common pieces once
        md = result.to_markdown(source, {n: f"{n}.png" for n in pngs}).encode("utf-8")
        page = result.to_html(source, pngs).encode("utf-8")
    files: dict[str, bytes] = {
        "report.md": md,
        "report.html": page,
        **{f"{n}.png": png for n, png in pngs.items()},
        **{n: to_csv_text(t).encode("utf-8") for n, t in tables.items() if t is not None},
    }
    return files


def write_outputs(result: AuditResult, out: Path, *, source: str) -> list[Path]:
    """Write the reports, the figures and the tables into ``out``; return the paths written.

    Everything is rendered in memory first (:func:`report_files`), then each file is written to a
    temporary name and renamed (:func:`prspace.core._io.atomic_path`): a file in ``out`` is complete or absent.
    """
    written = []
    for name, content in report_files(result, source=source).items():
        with atomic_path(Path(out) / name) as tmp:
            Path(tmp).write_bytes(content)
        written.append(Path(out) / name)
    return written
