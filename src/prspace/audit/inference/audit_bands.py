"""Curve bands in the audit: one model's ROC, PR and PRG bands (:mod:`prspace.stats.bands`) on its pooled test rows.

The bootstrap is the audit's (within class, folds ignored: a class's count varies between resamples
of one fold as between test sets of unstratified folds; sample weights respected; with ``--group-col``
whole groups, drawn within their fold where every group lies in one, as the grouped intervals
draw them: :func:`prspace.stats.bands.curve_bands` with ``groups``); the bands
of the models the report draws (:func:`shown`: per task the best :data:`TOP_K` by AUPR, the
first :data:`MAX_TASKS` tasks) go into ``bands.png`` and ``bands.csv``; any other model's bands
come from :meth:`prspace.audit.audit_result.AuditResult.bands`.  The resampling is seeded with the audit's
``seed`` (``--seed``), so the same seed gives the same bands and another seed other bands.

A curve's simultaneous band is drawn only where its simulated coverage reaches
:data:`prspace.audit.inference.coverage.TARGET` (:func:`band_coverage`: the calibrated cell nearest the
task, by the distance of :func:`prspace.audit.inference.decision.decide`, in the table
``audit/data/bands_table.csv`` (:data:`CELLS`) written by ``benchmarks/calib_bands.py --write-rule``); the
bootstrap band of a ROC curve collapses where the resamples' TPR all reach 1 and misses the
population curve there, so with few positives it is not drawn (``docs/calibration.md``, "The
curve bands").  With ``--group-col`` the rule reads the grouped bands' table instead
(``bands_groups_table.csv``, written by ``benchmarks/calib_power_groups.py --write-rule``: simultaneous
coverage by number of groups under intra-group correlation 0.8), at the most groups calibrated not above
the task's.  ``bands.csv`` keeps every band, with ``calibrated``.
"""

from __future__ import annotations

import math
import types
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from prspace.audit.inference.coverage import TARGET
from prspace.audit.rule_tables import read_cells
from prspace.core import memory
from prspace.core.defaults import resolve_n_boot
from prspace.core.errors import InputError
from prspace.stats.bands import CURVES, CurveBand, curve_bands, handed_bands

if TYPE_CHECKING:
    from prspace.audit.audit_record import AuditRecord

#: The grouped bands' rule: simultaneous coverage per curve and number of groups (``curve, n_groups, coverage,
#: mc_se, reps``), written by ``benchmarks/calib_power_groups.py --write-rule``; its world's pi.
#: Simultaneous coverage of the curve bands (resampling within class, default grid) per curve and
#: calibrated cell, its Monte Carlo se, replicates: the rule table ``bands_table.csv`` of the audit's
#: package data, written by ``benchmarks/calib_bands.py --write-rule``.
COLUMNS, CELLS = read_cells("bands_table.csv")
GROUP_COLUMNS, GROUP_CELLS = read_cells("bands_groups_table.csv")
GROUP_WORLD_PI = 0.3

#: Models drawn per task in ``bands.png`` (their bands overlap: more are unreadable).
TOP_K = 3
#: Tasks drawn at most.
MAX_TASKS = 4
BAND_COLUMNS = ["task", "model", "curve", "x", "grid", "estimate", "lo", "hi", "sim_lo", "sim_hi", "level",
                "n_resamples", "calibrated"]


def band_coverage(curve: str, n_pos: float, n: float, *, n_groups: int | None = None
                  ) -> tuple[float, float, float, int]:
    """Simulated simultaneous coverage of ``curve``'s band at the calibrated cell nearest a task
    with ``n_pos`` positives of ``n`` rows: ``(coverage, mc_se, pi, n_pos)`` of that cell (NaN
    coverage if none).  With ``n_groups`` (``--group-col``: whole groups resampled), the grouped
    table's cell of the most groups not above ``n_groups`` (more groups only help), as
    ``(coverage, mc_se, pi of its world, groups)``; NaN below its fewest groups."""
    if n_groups is not None:
        rows = [c for c in GROUP_CELLS if c[0] == curve and c[1] <= n_groups]
        if not rows:
            return float("nan"), float("nan"), float("nan"), 0
        c = max(rows, key=lambda c: c[1])
        return c[2], c[3], GROUP_WORLD_PI, c[1]
    cells = [c for c in CELLS if c[0] == curve]
    if not cells or not (n > n_pos > 0):
        return float("nan"), float("nan"), float("nan"), 0
    pi = n_pos / n
    c = min(cells, key=lambda c: math.log(n_pos / c[3]) ** 2 + math.log(pi / c[1]) ** 2)
    return c[4], c[5], c[1], c[3]


def band_shown(curve: str, n_pos: float, n: float, *, n_groups: int | None = None) -> bool:
    """Whether ``curve``'s simultaneous band is drawn for such a task (module docstring)."""
    return bool(band_coverage(curve, n_pos, n, n_groups=n_groups)[0] >= TARGET)


def model_bands(res: AuditRecord, task: str, model: str, *, n_boot: int | None = None,
                level: float | None = None, seed: int | None = None) -> dict[str, CurveBand]:
    """The three curves' bands of ``model`` on ``task`` (its pooled test rows; rows drawn within class, folds
    ignored; with groups, whole groups, within folds where they nest),
    with ``seed`` (default the audit's ``seed``: the same seed draws the same bands, another seed others).
    ``n_boot``: default the audit's, :data:`prspace.core.defaults.N_BOOT` when it ran without a bootstrap.
    The audit's own bands of a shown model computed ahead (:func:`start_ahead`, the record's ``bands_ahead``)
    are taken from there."""
    ahead = res.bands_ahead
    if ahead is not None and n_boot is None and level is None and seed in (None, res.seed):
        done = ahead.result()
        if (task, model) in done:
            return done[(task, model)]
    grouped = "group" in res.data.columns  # --group-col: whole groups, within folds where they nest (as the intervals)
    # only the columns the bands read: the model's rows of every column would hold about twice the memory at 10^6 rows
    rows = res.data.loc[(res.data["task"] == task) & (res.data["model"] == model),
                        ["y", "score", "weight", *(["fold", "group"] if grouped else [])]]
    if rows.empty:
        tasks = sorted(res.data["task"].astype(str).unique())
        models = sorted(res.data.loc[res.data["task"] == task, "model"].astype(str).unique())
        if not models:
            raise InputError(f"no task {task!r} in the audit; choose one of {', '.join(tasks)}")
        raise InputError(f"no model {model!r} on task {task!r}; choose one of {', '.join(models)}")
    n_boot = resolve_n_boot(res.n_boot or None) if n_boot is None else n_boot
    return curve_bands(rows["y"].to_numpy(bool), rows["score"].to_numpy(np.float64),
                       sample_weight=rows["weight"].to_numpy(np.float64),
                       strata=pd.factorize(rows["fold"].map(str))[0] if grouped else None,
                       groups=rows["group"].to_numpy() if grouped else None,
                       tied=True,
                       n_boot=n_boot, level=res.confidence if level is None else level,
                       rng=res.seed if seed is None else seed)


def start_ahead(data: pd.DataFrame, pooled: pd.DataFrame, *, n_boot: int, confidence: float, seed: int
                ) -> Future[dict[tuple[str, str], dict[str, CurveBand]]] | None:
    """The bands of the models :func:`shown` picks, computed in a second thread from now on, when asked
    (``n_boot`` > 0: :func:`prspace.audit.audit_result.run_audit` passes 0 unless ``bands_ahead=True``, as
    ``prspace audit --out`` asks) and the audit resamples rows one by one; else None.  Numpy's draws, sorts and
    array operations release the GIL: on two cores the audit's intervals and the bands run side by side.  Returns
    the future of ``{(task, model): bands}``, which the audit puts in its record
    (:attr:`prspace.audit.audit_record.AuditRecord.bands_ahead`).  The same bands :func:`model_bands` computes
    from the audit's record (the same rows, in the same order, and the same seed), which takes them from there; a
    model whose rows cannot be resampled is left out (computed again there, raising the same error)."""
    if not n_boot or "group" in data.columns or not all(
            isinstance(data[c].dtype, pd.CategoricalDtype) for c in ("task", "model")):
        return None
    codes = {c: data[c].cat.codes.to_numpy() for c in ("task", "model")}
    jobs = [(task, model, data["task"].cat.categories.get_loc(task), data["model"].cat.categories.get_loc(model))
            for task, models in shown(types.SimpleNamespace(pooled=pooled)) for model in models]
    cols = {c: data[c].to_numpy() for c in ("y", "score", "weight")}  # the frame's own arrays: the thread reads numpy

    def bands() -> dict[tuple[str, str], dict[str, CurveBand]]:
        out = {}
        for task, model, tc, mc in jobs:
            keep = codes["task"] == tc
            keep &= codes["model"] == mc
            # the model's rows handed over (no copy of them held here): each array freed once the bands read it no
            # more, so that while they draw only their tree's arrays coincide with the audit's own peak
            rows = [cols["y"][keep].astype(bool, copy=False), cols["score"][keep].astype(np.float64, copy=False),
                    cols["weight"][keep].astype(np.float64, copy=False), None, None]
            del keep
            try:
                out[(task, model)] = handed_bands(rows, tied=True, n_boot=n_boot, level=confidence, rng=seed)
            except InputError:
                continue
            finally:
                memory.release()  # this thread's freed arrays handed back: the audit's thread does not reuse them
        return out

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prspace-bands")
    future = pool.submit(bands)
    pool.shutdown(wait=False)
    return future


def shown(res: AuditRecord, *, max_tasks: int = MAX_TASKS, top_k: int = TOP_K) -> list[tuple[str, list[str]]]:
    """The tasks and models ``bands.png`` draws: per task (sorted) the best ``top_k`` by AUPR."""
    out = []
    for task in sorted(res.pooled["task"].unique())[:max_tasks]:
        table = res.pooled[res.pooled["task"] == task].sort_values(["aupr", "model"], ascending=[False, True])
        out.append((task, table["model"].tolist()[:top_k]))
    return out


def band_table(bands: dict[tuple[str, str], dict[str, CurveBand]],
               sizes: dict[str, tuple[float, float, int | None]] | None = None) -> pd.DataFrame:
    """``bands.csv``: one row per task, model, curve and grid point; ``sizes``: task -> (positives,
    rows, groups or None), for ``calibrated`` (:func:`band_shown`; NaN without)."""
    parts = []
    for (task, model), per in bands.items():
        for curve in CURVES:
            if curve not in per:
                continue
            b = per[curve]
            ok = band_shown(curve, *sizes[task][:2], n_groups=sizes[task][2]) if sizes and task in sizes else \
                float("nan")
            parts.append(b.rows(task=task, model=model, curve=curve).assign(calibrated=ok))
    if not parts:
        return pd.DataFrame(columns=BAND_COLUMNS)
    return pd.concat(parts, ignore_index=True)[BAND_COLUMNS]
