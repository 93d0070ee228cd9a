"""Verify a rerun: compare a study's tables with the committed ones, cell by cell.

``verify_tables(results_dir)`` takes every CSV under ``results_dir/tables`` and its
reference: the same file in git's ``HEAD`` (default: the committed tables), or the same
relative path under another results directory (``against=``).  Each table is

* **identical**: the same bytes;
* **within tolerance**: same header and rows, and every numeric cell within tolerance;
* **different**: a cell beyond tolerance, a changed text cell, a row or column added or
  missing, or a table missing on either side (each difference is named: row key,
  column, both values and by how much).

Tolerance of a numeric cell (``reference`` the committed value as printed, ``x`` the
rerun's): by default half a unit in the last digit the committed table printed,
``|x - reference| <= 0.5 * 10**(-d)`` where ``d`` is the number of decimals of the
committed text (for ``1.23e-05``: ``d = 2 + 5``), so a value that rounds to the same
printed number passes and any other printed digit fails.  Integers (``42``) must match
exactly.  With ``rtol``/``atol`` given: ``|x - reference| <= atol + rtol * |reference|``.

Rows are matched by their key: the leading columns whose committed values are not all
numbers (only the leading ``*_id`` ones, e.g. ``task_id, model_id``, when they suffice), with an occurrence counter where a key repeats;
a table without such columns is matched by row number.  Only CSV text is read: this
module does not know how any table was written.
"""

from __future__ import annotations

import csv
import io
import math
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from prspace.core.errors import InputError

__all__ = [
    "CellDiff",
    "TableResult",
    "VerifyReport",
    "cell_tolerance",
    "compare_csv_text",
    "verify_tables",
]

IDENTICAL, WITHIN, DIFFERENT = "identical", "within tolerance", "different"

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_NAN = {"", "nan", "NaN", "NA", "<NA>", "None"}


@dataclass(frozen=True)
class CellDiff:
    """One cell beyond tolerance (or a row/column present on one side only)."""

    row: str
    column: str
    reference: str
    value: str
    difference: float | None = None
    tolerance: float | None = None

    def describe(self) -> str:
        how = ""
        if self.difference is not None:
            how = f" (difference {self.difference:+.3g}, tolerance {self.tolerance:.3g})"
        return f"row [{self.row}], column {self.column}: committed {self.reference!r}, rerun {self.value!r}{how}"


@dataclass
class TableResult:
    """The verdict on one table; ``diffs`` names every cell beyond tolerance."""

    table: str
    status: str
    detail: str = ""
    diffs: list[CellDiff] = field(default_factory=list)
    n_within: int = 0


@dataclass
class VerifyReport:
    """Every table's verdict; ``ok`` when nothing differs beyond tolerance."""

    results_dir: str
    reference: str
    tables: list[TableResult]

    @property
    def ok(self) -> bool:
        return bool(self.tables) and all(t.status != DIFFERENT for t in self.tables)

    def text(self, *, max_cells: int = 20) -> str:
        lines = [f"verify {self.results_dir} against {self.reference}"]
        for t in self.tables:
            extra = f": {t.detail}" if t.detail else ""
            if t.status == WITHIN:
                extra = f": {t.n_within} cell(s) differ in text, all within tolerance"
            lines.append(f"  {t.table}: {t.status}{extra}")
            for d in t.diffs[:max_cells]:
                lines.append(f"    {d.describe()}")
            if len(t.diffs) > max_cells:
                lines.append(f"    ... and {len(t.diffs) - max_cells} more cell(s)")
        counts = {s: sum(t.status == s for t in self.tables) for s in (IDENTICAL, WITHIN, DIFFERENT)}
        summary = ", ".join(f"{n} {s}" for s, n in counts.items())
        verdict = "reproduced" if self.ok else "NOT reproduced"
        lines.append(f"{verdict}: {len(self.tables)} table(s): {summary}")
        return "\n".join(lines)


def cell_tolerance(reference: str) -> float:
    """Half a unit in the last printed digit of ``reference`` (0 for an integer).

    ``"0.7090"`` -> 5e-05; ``"1.5e-03"`` -> 5e-05; ``"42"`` -> 0.
    """
    text = reference.strip().lstrip("+-")
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    if not exponent and decimals == 0:
        return 0.0
    exp = int(exponent) if exponent else 0
    return 0.5 * 10.0 ** (exp - decimals)


def _parse(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _number(text: str) -> float | None:
    t = text.strip()
    if t in _NAN:
        return math.nan
    if _NUMBER.match(t) or t.lower() in ("inf", "+inf", "-inf"):
        return float(t)
    return None


def _keys(header: list[str], rows: list[list[str]], n_key: int) -> list[str]:
    keys, seen = [], {}
    for i, row in enumerate(rows):
        if n_key == 0:
            keys.append(f"row {i + 1}")
            continue
        k = ", ".join(f"{c}={v}" for c, v in zip(header[:n_key], row[:n_key], strict=False))
        seen[k] = seen.get(k, 0) + 1
        keys.append(k if seen[k] == 1 else f"{k} #{seen[k]}")
    return keys


def _unique(rows: list[list[str]], n: int) -> bool:
    keys = [tuple(r[:n]) for r in rows]
    return len(set(keys)) == len(keys)


def _n_key_columns(header: list[str], rows: list[list[str]]) -> int:
    """The number of leading columns that hold text (not all numbers) in ``rows``."""
    n = 0
    for j in range(len(header)):
        values = [r[j] for r in rows if j < len(r) and r[j].strip() not in _NAN]
        if values and all(_number(v) is not None for v in values):
            break
        if not values:
            break
        n += 1
    return n


def compare_csv_text(
    reference: str,
    rerun: str,
    *,
    table: str = "table",
    rtol: float | None = None,
    atol: float | None = None,
) -> TableResult:
    """Compare one table's CSV text (committed ``reference`` vs ``rerun``), cell by cell."""
    if reference == rerun:
        return TableResult(table, IDENTICAL)
    ref_rows, new_rows = _parse(reference), _parse(rerun)
    if not ref_rows or not new_rows:
        return TableResult(table, DIFFERENT, "one side is empty")
    ref_head, new_head = ref_rows[0], new_rows[0]
    ref_body, new_body = ref_rows[1:], new_rows[1:]
    if ref_head != new_head:
        return TableResult(table, DIFFERENT, _columns_detail(ref_head, new_head))
    n_key = _n_key_columns(ref_head, ref_body)
    ids = [j for j in range(n_key) if ref_head[j].endswith("_id")]
    if ids and ids == list(range(len(ids))) and _unique(ref_body, len(ids)):
        n_key = len(ids)  # e.g. task_id, model_id: the names (flow_name) add nothing
    ref_keys, new_keys = _keys(ref_head, ref_body, n_key), _keys(new_head, new_body, n_key)
    ref_map = dict(zip(ref_keys, ref_body, strict=True))
    new_map = dict(zip(new_keys, new_body, strict=True))
    result = TableResult(table, IDENTICAL)
    for k in ref_keys:
        if k not in new_map:
            result.diffs.append(CellDiff(k, "(row)", "present", "missing"))
    for k in new_keys:
        if k not in ref_map:
            result.diffs.append(CellDiff(k, "(row)", "absent", "present"))
    for k in ref_keys:
        if k in new_map:
            _compare_row(result, k, ref_head, ref_map[k], new_map[k], rtol, atol)
    if result.diffs:
        result.status = DIFFERENT
        result.detail = f"{len(result.diffs)} cell(s) beyond tolerance"
    else:  # other bytes, every cell within tolerance (or only quoting/line ends differ)
        result.status = WITHIN
    return result


def _columns_detail(ref_head: list[str], new_head: list[str]) -> str:
    """What differs between two headers: the columns gone, the new ones, or only their order."""
    gone = [c for c in ref_head if c not in new_head]
    added = [c for c in new_head if c not in ref_head]
    detail = "columns differ" + (f"; missing {gone}" if gone else "") + (f"; new {added}" if added else "")
    if not gone and not added:
        detail = "columns in another order"
    return detail


def _compare_row(result: TableResult, k: str, head: list[str], a: list[str], b: list[str],
                 rtol: float | None, atol: float | None) -> None:
    """Compare the cells of the row keyed ``k`` (reference ``a``, rerun ``b``) into ``result``."""
    for j, col in enumerate(head):
        x = a[j] if j < len(a) else ""
        y = b[j] if j < len(b) else ""
        if x == y:
            continue
        fx, fy = _number(x), _number(y)
        if fx is None or fy is None:
            result.diffs.append(CellDiff(k, col, x, y))
            continue
        if math.isnan(fx) and math.isnan(fy):
            result.n_within += 1
            continue
        if rtol is None and atol is None:
            tol = cell_tolerance(x)
        else:
            tol = (atol or 0.0) + (rtol or 0.0) * abs(fx)
        diff = fy - fx
        # the tolerance of a printed value holds exactly in decimal; allow float slack
        if math.isfinite(diff) and abs(diff) <= tol * (1 + 1e-9) + 1e-300:
            result.n_within += 1
        elif math.isinf(fx) and fx == fy:
            result.n_within += 1
        else:
            result.diffs.append(CellDiff(k, col, x, y, diff, tol))


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


def _committed_tables(tables: Path) -> tuple[Path, dict[str, str]]:
    """``(repo root, {path relative to tables: committed text})`` for git's HEAD."""
    top = _git(tables if tables.exists() else tables.parent, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise InputError(
            f"{tables} is not inside a git repository, so there is no committed version to "
            "compare with; give the reference with --against OTHER_RESULTS_DIR"
        )
    root = Path(top.stdout.strip())
    rel = tables.resolve().relative_to(root.resolve()).as_posix()
    listing = _git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", rel)
    if listing.returncode != 0:
        raise InputError(f"git cannot list HEAD:{rel} ({listing.stderr.strip()}); commit first or use --against")
    out: dict[str, str] = {}
    for path in listing.stdout.splitlines():
        if path.endswith(".csv"):
            show = _git(root, "show", f"HEAD:{path}")
            if show.returncode == 0:
                out[path[len(rel) + 1:]] = show.stdout
    return root, out


def _read_dir(tables: Path) -> dict[str, str]:
    return {p.relative_to(tables).as_posix(): p.read_text() for p in sorted(tables.rglob("*.csv"))}


def verify_tables(
    results_dir: str | Path,
    *,
    against: str | Path | None = None,
    rtol: float | None = None,
    atol: float | None = None,
) -> VerifyReport:
    """Compare every CSV under ``results_dir/tables`` with its reference (see module doc).

    ``against``: another results directory (its ``tables/``); default: git's ``HEAD``
    version of the same files.  A table on one side only is "different".
    """
    results = Path(results_dir)
    tables = results / "tables"
    if not tables.is_dir():
        raise InputError(f"{tables} does not exist; give a study's results directory, e.g. results/default")
    for name, v in (("--rtol", rtol), ("--atol", atol)):
        if v is not None and not (v >= 0 and math.isfinite(v)):
            raise InputError(f"{name} {v}: give a finite number >= 0")
    new = _read_dir(tables)
    if against is None:
        _, ref = _committed_tables(tables)
        ref_label = f"git HEAD ({tables})"
    else:
        other = Path(against) / "tables"
        if not other.is_dir():
            raise InputError(f"--against {against}: {other} does not exist; give another study's results directory")
        ref = _read_dir(other)
        ref_label = str(other)
    if not new and not ref:
        raise InputError(f"no CSV tables under {tables} nor in the reference; run the study first")
    out: list[TableResult] = []
    for name in sorted(set(new) | set(ref)):
        if name not in ref:
            out.append(TableResult(name, DIFFERENT, "not in the reference (a new table)"))
        elif name not in new:
            out.append(TableResult(name, DIFFERENT, "missing in the rerun"))
        else:
            out.append(compare_csv_text(ref[name], new[name], table=name, rtol=rtol, atol=atol))
    return VerifyReport(str(results), ref_label, out)
