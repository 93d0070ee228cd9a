"""The one writer and reader of the audit's generated rule tables (``calibration_table.csv``,
``coverage_table.csv``, ``bands_table.csv``, package data beside this module): a CSV with ``#``
comment lines saying what made it, then the columns, then one row per calibrated cell, read as
``COLUMNS`` and ``CELLS`` by the modules of the same name that the audit's rules import."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path


def _cell(value: object, column: str, ints: set[str], floats: set[str]) -> str:
    if column in ints:
        return str(int(value))  # type: ignore[call-overload]
    if column in floats:
        x = float(value)  # type: ignore[arg-type]
        return f"{x:.4f}" if math.isfinite(x) else "nan"
    return str(value)


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def write_cells(path: Path, *, header: str, columns: Sequence[str], rows: Iterable[Sequence[object]],
                ints: Iterable[str] = (), floats: Iterable[str] = ()) -> Path:
    """Write ``path``: ``header`` as ``# `` comment lines, then a CSV of ``columns`` and ``rows``
    (values in ``columns`` order); ``ints`` print as integers, ``floats`` with four decimals (NaN as
    ``nan``), every other value as its ``str`` (a float's shortest round-trip digits)."""
    i, f = set(ints), set(floats)
    out = io.StringIO()
    out.write("".join(f"# {line}".rstrip() + "\n" for line in header.splitlines()))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([_cell(v, c, i, f) for v, c in zip(row, columns, strict=True)] for row in rows)
    path = Path(path)
    path.write_text(out.getvalue())
    return path


def read_cells(name: str, folder: Path | None = None) -> tuple[list[str], list[tuple[int | float | str, ...]]]:
    """``(COLUMNS, CELLS)`` of the table ``name`` (written by :func:`write_cells`) in ``folder``, by
    default this package's data: a value that reads as an int is an int, else one that reads as a
    float a float, else the string."""
    text = (Path(folder) if folder is not None else resources.files(__package__)).joinpath(name).read_text()
    rows = list(csv.reader(line for line in text.splitlines() if not line.startswith("#")))
    return rows[0], [tuple(_value(v) for v in row) for row in rows[1:]]
