"""Grouped rows (``--group-col``): rows of one patient, subject or site resampled together.

Rows of one group are not independent (a patient's scans share the patient), so resampling them one
by one makes every interval too narrow and every paired test too eager (``docs/calibration.md``,
"Grouped rows").  With a group column the audit resamples groups: the bootstrap draws whole groups
with replacement and the jackknife leaves one group out at a time (a cluster bootstrap and jackknife,
:func:`prspace.stats.replicates.bootstrap` / :func:`~prspace.stats.replicates.jackknife` of a
grouped :class:`~prspace.stats.replicates.Block`), within each fold when every group lies in one fold
(as GroupKFold makes them), else over all groups.  Groups are not stratified by class: a group
usually holds rows of both classes, and all its rows move with it, so a resample's class counts vary.
DeLong's AUROC interval and test assume independent rows and are not used with groups.

* :func:`attach_groups`: the canonical frame with a ``group`` column, after checking the column;
* :func:`group_candidates`: columns not used whose values repeat within every task and model, as
  a patient id does (offered as ``--group-col`` in a warning);
* :func:`resampling_lines`: what the report says about the resampling unit.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.audit.inference.coverage import TARGET
from prspace.audit.rule_tables import read_cells, table_path, write_cells
from prspace.core.errors import InputError

__all__ = ["MIN_GROUPS", "attach_groups", "calibration", "group_candidates", "group_counts", "resampling_lines",
           "shown", "write_table"]

#: The grouped methods' simulated calibration (``benchmarks/calib_groups.py``): per method, metric and
#: number of groups, the worst coverage of model a's interval and the worst false rate of the paired
#: test under the null, over the simulated intra-group correlations.
TABLE = "group_coverage_table.csv"
TABLE_COLUMNS = ("metric", "method", "n_groups", "coverage", "false_rate", "reps")

#: Fewest groups per task a group column may have before the audit warns that the grouped intervals rest
#: on few groups (the calibration, ``docs/calibration.md``, starts at 30 groups).
MIN_GROUPS = 30
#: A candidate group column: at least this many distinct values per task and model ...
CANDIDATE_MIN_VALUES = 5
#: ... and on average at least this many rows per value.
CANDIDATE_ROWS_PER_VALUE = 1.5


def attach_groups(frame: pd.DataFrame, data: pd.DataFrame, group_col: str) -> pd.DataFrame:
    """``data`` (the canonical frame of ``frame``, row for row) with ``group`` = ``frame[group_col]`` as
    text; one :class:`InputError` naming the fix for a missing column, missing values, or a column
    with one group per row (nothing to group)."""
    if group_col not in frame.columns:
        raise InputError(f"--group-col {group_col!r} is not a column of the file; name the column that holds "
                         "each row's patient, subject or site")
    col = frame[group_col].reset_index(drop=True)
    if len(col) != len(data):
        raise InputError(f"--group-col {group_col!r}: the table's rows could not be matched to its groups; "
                         "give the group column in the long layout (one row per model and test example)")
    missing = col.isna() | (col.astype(str).str.strip() == "")
    if missing.any():
        first = int(np.flatnonzero(missing.to_numpy())[0])
        raise InputError(f"column {group_col!r} (--group-col) has {int(missing.sum())} missing values (first at "
                         f"data row {first + 1}): give every row its group (a row on its own: its own id), or "
                         "drop those rows")
    out = data.copy()
    out["group"] = col.astype(str).to_numpy()
    sizes = out.groupby(["task", "model", "group"]).size()
    if (sizes == 1).all():
        raise InputError(f"column {group_col!r} (--group-col) holds a different value in every row of each model: "
                         "one group per row is the same as no groups; name the column whose values repeat over "
                         "a patient's (subject's, site's) rows, or drop --group-col")
    return out


def group_candidates(frame: pd.DataFrame, data: pd.DataFrame, names: Sequence[str]) -> list[str]:
    """Of ``names`` (columns of ``frame`` not used for any role), those whose values repeat within every
    task and model, as a patient id does: at least :data:`CANDIDATE_MIN_VALUES` values and on average
    :data:`CANDIDATE_ROWS_PER_VALUE` rows per value in every task and model, and not a number with a
    fraction (a measurement, not an id)."""
    if len(frame) != len(data) or not len(data):
        return []
    out: list[str] = []
    if not names:
        return out
    key = [data["task"].to_numpy(), data["model"].to_numpy()]
    for name in names:
        col = frame[name].reset_index(drop=True)
        if col.isna().any():
            continue
        if pd.api.types.is_float_dtype(col) and not (col % 1 == 0).all():
            continue
        if pd.api.types.is_bool_dtype(col):
            continue
        per = pd.DataFrame({"t": key[0], "m": key[1], "v": col.to_numpy()}).groupby(["t", "m"])["v"].agg(
            ["nunique", "size"])
        if ((per["nunique"] >= CANDIDATE_MIN_VALUES)
                & (per["size"] >= CANDIDATE_ROWS_PER_VALUE * per["nunique"])).all():
            out.append(str(name))
    return out


def group_counts(data: pd.DataFrame) -> dict[str, int]:
    """Per task, the number of groups (the fewest over its models); empty without groups."""
    if "group" not in data.columns:
        return {}
    per = data.groupby(["task", "model"])["group"].nunique().groupby(level=0).min()
    return {str(t): int(v) for t, v in per.items()}


def nested_in_folds(data: pd.DataFrame) -> dict[str, bool]:
    """Per task, whether every group lies in one fold of every model (the groups are then drawn
    within folds); False without folds."""
    if "group" not in data.columns:
        return {}
    out = {}
    for task, g in data.groupby("task"):
        if g["fold"].isna().all():
            out[str(task)] = False
            continue
        out[str(task)] = bool((g.groupby(["model", "group"])["fold"].nunique() == 1).all())
    return out


def resampling_lines(data: pd.DataFrame, group_col: str | None) -> list[str]:
    """The report's line on the resampling unit: rows (one by one) or the groups of ``group_col``, with the
    number of groups per task and where they are drawn."""
    if group_col is None or "group" not in data.columns:
        return ["resampling unit: the row (rows resampled one by one, within class; if several rows belong to "
                "one patient, subject or site, --group-col resamples them together)"]
    counts, nested = group_counts(data), nested_in_folds(data)
    multi = len(counts) > 1
    parts = []
    for task, n in counts.items():
        where = "within folds (every group lies in one fold)" if nested.get(task) else "over all rows"
        parts.append(f"{'task ' + task + ': ' if multi else ''}{n} groups, drawn {where}")
    few = [t for t, n in counts.items() if n < MIN_GROUPS]
    lines = [f"resampling unit: the group of column {group_col!r} ({'; '.join(parts)}): every interval, paired "
             "test, plausible-best set and curve band resamples whole groups (cluster bootstrap and jackknife; classes not "
             "stratified, as a group holds rows of both); AUROC by the grouped resampling, not DeLong (which "
             "assumes independent rows)"]
    if few:
        lines.append(f"only {min(counts[t] for t in few)} groups: the grouped intervals are calibrated from "
                     f"{MIN_GROUPS} groups up (docs/calibration.md, 'Grouped rows'); with fewer they may undercover")
    return lines


def write_table(runs: pd.DataFrame, seed: int, path: Path | None = None) -> Path:
    """Write :data:`TABLE` from ``benchmarks/calib_groups.py``'s rows (grouped methods only): per metric,
    method and number of groups the worst coverage and false rate over the ICCs."""
    g = runs[runs["unit"] == "group"].groupby(["metric", "method", "n_groups"], sort=True)
    t = g.agg(coverage=("coverage", "min"), false_rate=("false_rate", "max"), reps=("sims", "min")).reset_index()
    return write_cells(
        Path(path) if path else table_path(TABLE),
        header=(f"Generated by ``benchmarks/calib_groups.py`` (seed {seed}); do not edit.\n\n"
                "Grouped resampling (--group-col): per metric, method and number of groups, the worst coverage of\n"
                "a 95% interval and the worst false rate of the paired test at 5% over the simulated ICCs\n"
                "(:mod:`prspace.audit.simulation.group_sim`)."),
        columns=TABLE_COLUMNS, rows=t[list(TABLE_COLUMNS)].itertuples(index=False), ints=("n_groups", "reps"),
        floats=("coverage", "false_rate"))


def _cells() -> pd.DataFrame:
    cols, cells = read_cells(TABLE)
    return pd.DataFrame(cells, columns=cols)


def calibration(metric: str, method: str, n_groups: int) -> dict | None:
    """The simulated calibration of a grouped ``method`` for ``metric`` at the largest simulated number of
    groups not above ``n_groups`` (more groups only help): ``{"n_groups", "coverage", "false_rate", "reps"}``;
    None below the fewest simulated groups or for a method never simulated."""
    t = _cells()
    t = t[(t["metric"] == metric) & (t["method"] == method) & (t["n_groups"] <= n_groups)]
    if not len(t):
        return None
    return t.sort_values("n_groups").iloc[-1].to_dict()


@functools.lru_cache(maxsize=4096)  # the same answer for every pair of models of a task
def shown(metric: str, method: str, n_groups: int, *, kind: str = "coverage") -> bool:
    """Whether the audit prints a grouped interval: its simulated coverage (``kind="coverage"``), or for a
    paired interval one minus its false rate under the null (``"pair coverage"``), is at least
    :data:`prspace.audit.inference.coverage.TARGET` at this many groups."""
    c = calibration(metric, method.replace("paired ", ""), n_groups)
    if c is None:
        return False
    return bool((c["coverage"] if kind == "coverage" else 1.0 - c["false_rate"]) >= TARGET)
