"""What the generated pages read: a study's verdict table (normalised to the registry's columns)
and the few study tables the sentences quote (tasks, per-task metrics, plausible-best sets, learner
winners, the sensitivity table). Nothing here decides a verdict (:mod:`prspace.verdicts.rule` does).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core import registry as R
from prspace.core.errors import InputError

#: The offline studies whose question is the papers'. Every other study of local data is a user's
#: own data, whose page opens with the per-task picks; a study on OpenML is the papers' question.
PAPER_STUDIES = ("default", "paperlike")
#: Task ids of a user's own files (``prspace.data.userdata``).
USER_TASK_PREFIX = "user-"
#: The metrics whose picks the own-data section shows, in order.
PICK_METRICS = ("aupr", "auprg", "auroc")


@dataclass
class Study:
    """One study as the pages see it."""

    name: str
    verdicts: pd.DataFrame
    tasks: pd.DataFrame | None = None
    metrics: pd.DataFrame | None = None
    rank_sets: pd.DataFrame | None = None
    winners: pd.DataFrame | None = None
    sensitivity: pd.DataFrame | None = None
    own_data: bool | None = None

    def __post_init__(self) -> None:
        self.verdicts = normalise(self.verdicts)
        if self.own_data is None:
            t = self.tasks if self.tasks is not None else pd.DataFrame()
            ids = t["task_id"].astype(str) if "task_id" in t else pd.Series(dtype=str)
            openml = "source" in t and len(t) > 0 and (t["source"].astype(str) == "openml").all()
            self.own_data = bool(ids.str.startswith(USER_TASK_PREFIX).any()) or (
                self.name not in PAPER_STUDIES and not openml)

    @property
    def ok_tasks(self) -> pd.DataFrame | None:
        t = self.tasks
        if t is None or not len(t):
            return None
        return t[t["status"] == "ok"] if "status" in t.columns else t

    def row(self, claim_id: str) -> pd.Series | None:
        """The verdict row of that id, or None."""
        m = self.verdicts["claim_id"] == claim_id
        return self.verdicts[m].iloc[0] if m.any() else None


def normalise(v: pd.DataFrame) -> pd.DataFrame:
    """The verdict table with every column the pages read: ``role``, ``where``, ``quote``,
    ``margin``, ``level``, ``mc_error``, ``power`` filled from the registry (by claim id) where the
    table lacks them; a row the registry does not know is ``exploratory``."""
    v = v.copy()
    for c in ("role", "where", "quote"):
        if c not in v.columns:
            v[c] = ""
        v[c] = v[c].fillna("").astype(str)
    for c in ("margin", "level", "mc_error", "power", "k", "n", "n_tasks", "n_families", "paper_value",
              "estimate", "ci_lo", "ci_hi", "tolerance"):
        if c not in v.columns:
            v[c] = np.nan
        v[c] = pd.to_numeric(v[c], errors="coerce")
    for i, cid in v["claim_id"].items():
        c = REG.claim(str(cid))
        if c is None:
            if not v.at[i, "role"]:
                v.at[i, "role"] = "exploratory"
            continue
        if not v.at[i, "role"]:
            v.at[i, "role"] = c.role
        if not v.at[i, "where"]:
            v.at[i, "where"] = c.where
        if not v.at[i, "quote"]:
            v.at[i, "quote"] = c.quote
        if not np.isfinite(v.at[i, "margin"]):
            v.at[i, "margin"] = c.margin
    for c in ("claim", "verdict", "explanation", "kind", "paper"):
        if c not in v.columns:
            v[c] = ""
        v[c] = v[c].fillna("").astype(str)
    return v


def _read(path: Path | None, **kw: object) -> pd.DataFrame | None:
    return pd.read_csv(path, keep_default_na=False, na_values=[""], **kw) if path is not None and path.is_file() else None


def table_paths(tables: str | Path | Mapping[str, str | Path]) -> dict[str, Path]:
    """Table name -> path: a study's tables folder (``results/<study>/tables``: every registry table's
    CSV there), or the paths a step was given by role (step ``verdicts``: each role is a table's name)."""
    if isinstance(tables, Mapping):
        return {name: Path(p) for name, p in tables.items()}
    return {t.name: t.csv(tables) for t in R.TABLES}


def load_study(name: str, tables_dir: str | Path | Mapping[str, str | Path], *, verdicts: pd.DataFrame | None = None,
               own_data: bool | None = None, sensitivity: pd.DataFrame | None = None) -> Study:
    """A study from its tables (a folder, ``results/<study>/tables``, or table name -> path,
    :func:`table_paths`); only ``verdicts.csv`` (or ``verdicts``, given) is required, every other table is
    read when it is there (``sensitivity``, given: that table as written, by the step that writes it)."""
    t = table_paths(tables_dir)
    if verdicts is None:
        verdicts = _read(t.get(R.VERDICTS.name))
        if verdicts is None:
            raise InputError(f"{t.get(R.VERDICTS.name)} is missing; run the study `{name}` first (make run)")
    metrics = _read(t.get(R.METRICS.name), dtype={"task_id": str})
    if metrics is not None:
        keep = [c for c in ("task_id", "model_id", *PICK_METRICS) if c in metrics.columns]
        metrics = metrics[keep]
    return Study(name=name, verdicts=verdicts, tasks=_read(t.get(R.TASKS.name), dtype={"task_id": str}),
                 metrics=metrics, rank_sets=_read(t.get(R.RANK_SETS.name), dtype={"task": str}),
                 winners=_read(t.get(R.LEARNER_WINNERS.name)),
                 sensitivity=sensitivity if sensitivity is not None else _read(t.get(R.SENSITIVITY.name)),
                 own_data=own_data)


def typical_best_set_size(study: Study) -> dict[str, float]:
    """Per metric, the median over tasks of the plausible-best set's size (``rank_sets.csv``:
    models with ``plausible_best`` true), and the number of models per task under ``"n_models"``.
    Without ``rank_sets.csv``, ``rank_set_summary``'s sizes are not read: the answer then says
    nothing of set sizes."""
    rs = study.rank_sets
    if rs is None or not len(rs) or "plausible_best" not in rs.columns:
        return {}
    best = rs["plausible_best"].astype(str).str.lower().isin(("true", "1"))
    sizes = best.groupby([rs["task"], rs["metric"]]).sum()
    out = {m: float(sizes.xs(m, level="metric").median()) for m in PICK_METRICS if m in sizes.index.get_level_values("metric")}
    if out:
        out["n_models"] = float(rs.groupby(["task", "metric"]).size().median())
    return out
