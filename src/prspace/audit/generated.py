"""The one writer of the audit's generated rule tables (``calibration_table``, ``coverage_table``,
``bands_table``): a module holding ``COLUMNS`` and ``CELLS``, one tuple per calibrated cell, read
by the rule that decides what the audit prints."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path


def _cell(value: object, column: str, ints: set[str], floats: set[str]) -> str:
    if column in ints:
        return str(int(value))  # type: ignore[call-overload]
    if column in floats:
        x = float(value)  # type: ignore[arg-type]
        return f"{x:.4f}" if math.isfinite(x) else 'float("nan")'
    return repr(value)


def write_cells_module(path: Path, *, docstring: str, columns: Sequence[str], rows: Iterable[Sequence[object]],
                       ints: Iterable[str] = (), floats: Iterable[str] = ()) -> Path:
    """Write ``path``: ``docstring``, ``COLUMNS`` and ``CELLS`` from ``rows`` (values in
    ``columns`` order); ``ints`` print as integers, ``floats`` with four decimals (NaN as
    ``float("nan")``), every other value as its ``repr``."""
    i, f = set(ints), set(floats)
    body = "\n".join("    (" + ", ".join(_cell(v, c, i, f) for v, c in zip(row, columns, strict=True)) + "),"
                     for row in rows)
    path = Path(path)
    path.write_text(f'"""{docstring}"""\n\nCOLUMNS = {list(columns)!r}\nCELLS = [\n{body}\n]\n')
    return path
