"""The one reader of a user's table, with one separator rule and one duplicate-column rule.

Two entry points, one per kind of user file:

* a dataset file of a data folder (CSV, parquet, ARFF; optionally gzipped): read whole
  (:func:`read_user_file`) or its header only (:func:`file_columns`);
* the predictions file given to ``prspace audit`` (CSV, TSV, parquet; :func:`read_table`).

The separator rule: the comma (a tab for ``.tsv``), unless told otherwise (``--sep`` for the
audit).  A header that holds no comma but a ``;`` or a tab (:func:`csv_separator`) is read with
that separator in a data folder, and noted; the audit, told nothing, stops and names the
separator to pass (:data:`SEPARATOR_NAMES`).  A column named twice in the header is refused
(:func:`duplicate_column`), never pandas' silent ``name.1``.  Every failure is one
:class:`~prspace.core.errors.InputError` naming the file and the fix.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pandas as pd

from prspace.core._io import path_error, short_path
from prspace.core.errors import FileDefect, InputError
from prspace.data.arff import read_arff, read_arff_attributes

__all__ = [
    "READERS",
    "SEPARATOR_NAMES",
    "USER_SUFFIXES",
    "check_duplicate_columns",
    "csv_separator",
    "duplicate_column",
    "file_columns",
    "missing_target_message",
    "read_table",
    "read_user_file",
    "separator_name",
]

#: the field separators a header may hold, and their names in messages
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}

#: file suffixes read from a user data folder
USER_SUFFIXES = (".csv", ".csv.gz", ".parquet", ".pq", ".arff", ".arff.gz")


def _suffix(p: Path) -> str | None:
    name = p.name.lower()
    for s in sorted(USER_SUFFIXES, key=len, reverse=True):
        if name.endswith(s) and len(name) > len(s):
            return s
    return None


# --------------------------------------------------------------------------- reading


def _first_line(path: Path) -> str:
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8-sig", errors="replace") as fh:  # type: ignore[operator]
        return fh.readline()


def duplicate_column(names: Sequence[str]) -> tuple[str, int, int] | None:
    """The first column name written twice, with the (1-based) positions of its two copies; else
    None.  Which copy is meant cannot be guessed, so every reader of a table refuses it."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            return name, seen[name] + 1, i + 1
        seen[name] = i
    return None


def check_duplicate_columns(names: Sequence[str]) -> None:
    """:class:`InputError` naming a column written twice (:func:`duplicate_column`)."""
    dup = duplicate_column(names)
    if dup is not None:
        name, first, second = dup
        raise InputError(
            f"column {name!r} appears twice in the header (columns {first} and {second}); "
            "rename or drop one copy"
        )


def _check_unique(path: Path, names: list[str]) -> None:
    """:class:`FileDefect` if a column name occurs twice (pandas would silently rename the
    second copy ``name.1``, so the header is checked as written)."""
    dup = duplicate_column(names)
    if dup is not None:
        name, first, second = dup
        raise FileDefect(
            f"{path.name}: column {name!r} is named twice in the header (columns {first} "
            f"and {second}); rename or remove one copy, so that it is clear which one is meant"
        )


def _raw_csv_header(path: Path, sep: str) -> list[str]:
    """The header of a CSV file as written (no renaming of duplicates)."""
    line = _first_line(path).rstrip("\r\n")
    return next(csv.reader([line], delimiter=sep), [])


def csv_separator(path: Path) -> str:
    """``,`` unless the header line has no comma but a ``;`` or a tab."""
    line = _first_line(path)
    if "," in line:
        return ","
    counts = {";": line.count(";"), "\t": line.count("\t")}
    sep = max(counts, key=counts.__getitem__)
    return sep if counts[sep] else ","


def separator_name(sep: str) -> str:
    """``;`` -> ``semicolon``: the separators' names in messages and notes."""
    return SEPARATOR_NAMES[sep]


@contextlib.contextmanager
def _one_line_errors(p: Path, *, parser_hint: bool) -> Iterator[None]:
    """Any failure of a reader -> one :class:`InputError` naming ``p`` and the fix; with
    ``parser_hint`` a CSV parser error says to quote values that contain the separator."""
    try:
        yield
    except InputError:
        raise
    except pd.errors.EmptyDataError:
        raise InputError(f"{p} is empty; write a header line and data rows") from None
    except pd.errors.ParserError as exc:
        if not parser_hint:
            raise InputError(_failure(p, exc)) from None
        msg = str(exc).splitlines()[0]
        raise InputError(f"cannot read {p} ({msg}); quote values that contain the separator") from None
    except OSError as exc:
        raise InputError(f"cannot read {p} ({exc.strerror or exc}); check the file") from None
    except Exception as exc:  # noqa: BLE001 - any reader failure becomes one line
        raise InputError(_failure(p, exc)) from None


def _failure(p: Path, exc: Exception) -> str:
    msg = str(exc).splitlines()[0][:200] if str(exc) else ""
    return f"cannot read {p} ({type(exc).__name__}: {msg}); check the file"


def _checked_csv_separator(p: Path) -> str:
    """The CSV file's separator (:func:`_csv_separator`), once its header names no column twice."""
    sep = csv_separator(p)
    _check_unique(p, _raw_csv_header(p, sep))
    return sep


def read_user_file(path: str | os.PathLike[str], *, target: str | None = None) -> pd.DataFrame:
    """The whole table of one data file; :class:`InputError` naming the file and the fix.

    ``target``: a CSV file's class column is read as text, as the file writes it (``01`` stays
    ``01``, so that ``pos_label`` is matched to what the user sees)."""
    p = Path(path)
    s = _suffix(p)
    with _one_line_errors(p, parser_hint=True):
        if s in (".csv", ".csv.gz"):
            sep = _checked_csv_separator(p)
            df = pd.read_csv(p, sep=sep, dtype={target: str} if target else None)
            df.attrs["separator"] = sep
            return df
        if s in (".parquet", ".pq"):
            import pyarrow.parquet as pq  # deferred: pyarrow.parquet (docs/architecture.md)

            _check_unique(p, [str(c) for c in pq.read_schema(p).names])
            return pd.read_parquet(p)
        return read_arff(p)


def file_columns(path: str | os.PathLike[str]) -> list[str]:
    """The column names of a data file, reading its header only."""
    p = Path(path)
    s = _suffix(p)
    with _one_line_errors(p, parser_hint=False):
        if s in (".csv", ".csv.gz"):
            sep = _checked_csv_separator(p)
            return [str(c) for c in pd.read_csv(p, sep=sep, nrows=0).columns]
        if s in (".parquet", ".pq"):
            import pyarrow.parquet as pq  # deferred: pyarrow.parquet (docs/architecture.md)

            names = [str(c) for c in pq.read_schema(p).names if not str(c).startswith("__index_level")]
            _check_unique(p, names)
            return names
        return [a.name for a in read_arff_attributes(p)]


def missing_target_message(path: Path, target: str, columns: list[str]) -> str:
    shown = ", ".join(columns[:20]) + (", ..." if len(columns) > 20 else "")
    hint = "name the class column with --target (config key local.target)"
    if len(columns) == 1 and any(c in columns[0] for c in ";\t|"):
        hint = "the file does not look comma-separated: save it as CSV with commas"
    return f"{path.name} has no column {target!r} (columns: {shown}); {hint}"


# ------------------------------------------------------------------ the audit's predictions file

#: suffix -> format of a predictions file given to ``prspace audit`` (text files may end in .gz)
READERS = {".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet"}


def read_table(path: str, sep: str | None = None, decimal: str = ".") -> pd.DataFrame:
    """Read a CSV / TSV / parquet file, turning every reading problem into an :class:`InputError`;
    ``decimal``: the decimal mark of a text file's numbers (``,`` in Excel's CSV of many locales)."""
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
        df = pd.read_csv(p, sep=delimiter, decimal=decimal, engine="c" if len(delimiter) == 1 else "python")
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
    try:
        header = pd.read_csv(p, sep=delimiter, header=None, nrows=1, dtype=str,
                             engine="c" if len(delimiter) == 1 else "python").iloc[0]
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, OSError, IndexError):
        return
    try:
        check_duplicate_columns(["" if isinstance(v, float) else str(v) for v in header])
    except InputError as exc:
        raise InputError(f"{short_path(str(p))}: {exc}") from None


def _check_separator(df: pd.DataFrame, path: str, delimiter: str) -> None:
    """A file separated by something else reads as one column whose name holds the separators."""
    if df.shape[1] != 1:
        return
    header = str(df.columns[0])
    for other in (";", "\t", ",", "|"):
        name = SEPARATOR_NAMES[other]
        if other != delimiter and other in header:
            shown = "'\\t'" if other == "\t" else repr(other)
            raise InputError(
                f"{short_path(path)} looks {name}-separated (its header {header[:60]!r} is one column); pass --sep {shown} "
                + ("(decimal commas, as Excel writes them, are then detected) " if other == ";" else "")
                + "or save the file with commas"
            )
