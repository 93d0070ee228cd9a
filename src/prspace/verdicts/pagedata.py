"""What the generated pages read: a study's verdict table (normalised to the registry's columns)
and the few study tables the sentences quote (tasks, per-task metrics, plausible-best sets, learner
winners, the sensitivity table, Boyd's fold-skew and downsampling summaries), and for a study of a
user's own data its first section (:func:`own_data_section`: which learner each metric picks on each
task and whether the test rows can tell). Nothing here decides a verdict (:mod:`prspace.verdicts.rule`
does).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.metrics.names import METRIC_LABELS
from prspace.verdicts.interval_rule import BORDERLINE, OUTCOMES
from prspace.verdicts.verdict_labels import num, verdict_key

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
    fold_skew: pd.DataFrame | None = None
    downsampling: pd.DataFrame | None = None

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
    table lacks them; a row the registry does not know is ``exploratory``; without an ``outcome``
    column, each row's outcome is its verdict's first words (as :func:`prspace.verdicts.rule.apply_rule`
    records it)."""
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
    return _derived(v)


def _derived(v: pd.DataFrame) -> pd.DataFrame:
    """The columns :func:`normalise` derives: ``coverage`` (and its ``_mc_se``, ``_n``, ``_plain``) from
    ``oracle_coverage`` when the table names it so; ``outcome`` from the verdict's first words when a table
    was written before the rule recorded it."""
    for suffix in ("", "_mc_se", "_n", "_plain"):
        if f"oracle_coverage{suffix}" in v.columns and f"coverage{suffix}" not in v.columns:
            v[f"coverage{suffix}"] = v[f"oracle_coverage{suffix}"]
    if "outcome" not in v.columns:
        v["outcome"] = [next((o for o in (*OUTCOMES, BORDERLINE) if x.startswith(o)), "") for x in v["verdict"]]
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
                 own_data=own_data, fold_skew=_read(t.get(R.BOYD_FOLD_SKEW_SUMMARY.name)),
                 downsampling=_read(t.get(R.BOYD_DOWNSAMPLING_SUMMARY.name)))


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


def _picks(metrics: pd.DataFrame) -> pd.DataFrame:
    """Per task, the model each metric ranks first (ties joined with " = ")."""
    rows = []
    for task, g in metrics.groupby("task_id", sort=True):
        row = {"task_id": task}
        for m in PICK_METRICS:
            if m in g.columns and g[m].notna().any():
                top = g[m].max()
                row[m] = " = ".join(sorted(g.loc[np.isclose(g[m], top, rtol=0, atol=1e-12), "model_id"].astype(str)))
        rows.append(row)
    return pd.DataFrame(rows)


def _set_sizes(s: Study) -> pd.DataFrame:
    """Per (task, metric), the models in the plausible-best set (``k``) of those ranked (``n``): ``rank_sets.csv``."""
    if s.rank_sets is None or not len(s.rank_sets):
        return pd.DataFrame()
    rs = s.rank_sets
    best = rs["plausible_best"].astype(str).str.lower().isin(("true", "1"))
    return pd.DataFrame({"k": best.groupby([rs["task"], rs["metric"]]).sum(), "n": rs.groupby(["task", "metric"]).size()})


#: Most tasks the picks table of the page shows: above it the page lists the first tasks and says where the rest
#: are (the 886-task loopback draw made it 886 rows ahead of the answer; the committed studies have 87 and 61)
PICKS_SHOWN = 100


def _picks_table(picks: pd.DataFrame, ms: list[str], sizes: pd.DataFrame, pi: pd.Series) -> tuple[list[str], int, int]:
    """The table of picks per task (its first :data:`PICKS_SHOWN` rows), the tasks where the metrics ``ms`` pick
    the same learner, and those where every metric's plausible-best set is one model (both over every task)."""
    head = ["task", "pi"] + [f"best by {METRIC_LABELS[m]}" for m in ms] + ["same pick?", "models that could be the best"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    agree = tell = 0
    for r in picks.itertuples(index=False):
        rd = r._asdict()
        same = len({rd[m] for m in ms}) == 1
        agree += same
        could = []
        for m in ms:
            if (rd["task_id"], m) in sizes.index:
                k, n = sizes.loc[(rd["task_id"], m)]
                could.append(f"{int(k)} of {int(n)} ({METRIC_LABELS[m]})")
        tell += bool(could) and all(c.startswith("1 of") for c in could)
        if len(lines) - 2 >= PICKS_SHOWN:
            continue
        lines.append(f"| {rd['task_id']} | {num(pi.get(rd['task_id'], np.nan), 3)} | "
                     + " | ".join(rd[m] for m in ms) + f" | {'yes' if same else 'no'} | {', '.join(could)} |")
    return lines, agree, tell


def _over_all_tasks(w: pd.DataFrame | None, ms: list[str]) -> list[str]:
    """The learner each metric picks over all tasks (highest mean, ``learner_winners.csv``), if given."""
    if w is None or not len(w) or not {"metric", "criterion", "winner"} <= set(w.columns):
        return []
    mean = w[(w["criterion"] == "mean") & w["metric"].isin(ms)]
    if not len(mean):
        return []
    return ["", "Over all tasks (highest mean): " + ", ".join(
        f"{METRIC_LABELS[r.metric]} picks {r.winner}" for r in mean.itertuples()) + "."]


def own_data_section(s: Study) -> list[str]:
    """Markdown lines: per task, which learner each metric picks, whether they agree and how many
    models could be the best by each metric (``rank_sets.csv``); then the learners over all tasks."""
    if s.metrics is None or not len(s.metrics):
        return []
    picks = _picks(s.metrics)
    ms = [m for m in PICK_METRICS if m in picks.columns]
    sizes = _set_sizes(s)
    ok = s.ok_tasks
    pi = ok.set_index("task_id")["pi"] if ok is not None and "pi" in ok.columns else pd.Series(dtype=float)
    lines, agree, tell = _picks_table(picks, ms, sizes, pi)
    n = len(picks)
    text = [f"On {agree} of {n} task{'s' if n != 1 else ''} {', '.join(METRIC_LABELS[m] for m in ms)} pick the same "
            "learner."]
    if len(sizes):
        text.append(f"On {tell} of {n} the test rows tell the best learner apart by every metric (a plausible-best "
                    "set of one model); elsewhere the table says how many models could be the best.")
    if n > PICKS_SHOWN:
        lines.append(f"\nThe first {PICKS_SHOWN} of the {n} tasks; every task's metrics are in `tables/metrics.csv` and "
                     "its plausible-best sets in `tables/rank_sets.csv`.")
    out = [f"**Your data first** (study `{s.name}`): which learner each metric picks on each task." + " "
           + " ".join(text), ""] + lines
    return out + _over_all_tasks(s.winners, ms) + [""]


#: Flach & Kull, section 4: "the obtained 886 tasks (covering 426 different datasets)", 30 models each.
FK_TASKS, FK_MODELS = 886, 30


def description(s: Study) -> str:
    """What the study ran, from its task table (one or two sentences, not counted in the answer)."""
    ok = s.ok_tasks
    if ok is None:
        return f"`{s.name}`: no task table."
    fam = ok["family"].nunique() if "family" in ok.columns else len(ok)
    models = int(ok["n_models"].median()) if "n_models" in ok.columns and len(ok) else None
    folds = int(ok["n_folds"].median()) if "n_folds" in ok.columns and len(ok) else None
    src = set(ok["source"].astype(str)) if "source" in ok.columns else set()
    what = f"`{s.name}`: {len(ok)} tasks from {fam} task families, pi {num(ok['pi'].min(), 3)} to {num(ok['pi'].max(), 3)} " \
           f"(median {num(ok['pi'].median(), 3)})"
    users = ok["task_id"].astype(str).str.startswith(USER_TASK_PREFIX).any() if "task_id" in ok.columns else False
    if src == {"local"}:
        what += (f"; a fixed panel of {models} scikit-learn learners run here in {folds}-fold cross-validation on "
                 + ("your data files" if users else "datasets shipped in Python packages"))
    elif models:
        what += f"; {models} models per task"
    return what + "."


def offline_note(studies: Sequence[Study]) -> str | None:
    """The one sentence that says what the offline studies are not (when any study is local)."""
    if not any(s.ok_tasks is not None and "source" in s.ok_tasks and (s.ok_tasks["source"] == "local").all()
               for s in studies):
        return None
    return (f"Flach & Kull ranked {FK_MODELS} models on each of {FK_TASKS} OpenML tasks from "
            f"{REG.FK_DATASETS} datasets and do not give those tasks' pi distribution; the offline studies "
            "stand in for that population, and the faithful OpenML study (`config/openml-paper.yaml`) is one "
            "configuration away but was not run for these results.")


def robust_ids(s: Study) -> tuple[list[str], list[tuple[str, str, str]], list[str]]:
    """From ``sensitivity.csv``: the primary claims whose verdict is the same in every variant,
    those that change (claim id, variant, verdict there), and the variants."""
    sens = s.sensitivity
    if sens is None or not len(sens):
        return [], [], []
    base = s.verdicts.set_index("claim_id")["verdict"]
    same, changed = [], []
    for cid, g in sens.groupby("claim_id", sort=False):
        if cid not in base.index:
            continue
        moved = [(cid, str(r.variant), str(r.verdict)) for r in g.itertuples()
                 if verdict_key(r.verdict) != verdict_key(base[cid])]
        (changed.extend(moved) if moved else same.append(cid))
    return same, changed, list(dict.fromkeys(sens["variant"].astype(str)))


def optimistic_at_most(s: Study) -> tuple[int, int] | None:
    """``(tasks, of tasks)`` of the dispersion with the largest share of tasks optimistic beyond the margin
    (the primary row at the widest dispersion, ``px.boyd.sec4_1.optimistic_share_d<d>`` at the others)."""
    ids = s.verdicts["claim_id"].astype(str)
    rows = s.verdicts[(ids == "boyd.sec4_1.averaging_optimistic") | ids.str.startswith("px.boyd.sec4_1.optimistic_share_d")]
    rows = rows[np.isfinite(rows["estimate"].astype(float)) & np.isfinite(rows["n_tasks"].astype(float))]
    if rows.empty:
        return None
    r = rows.loc[rows["estimate"].astype(float).idxmax()]
    return int(round(float(r["estimate"]) * float(r["n_tasks"]))), int(r["n_tasks"])


def fold_gaps(s: Study) -> list[tuple[float, float, float, float]]:
    """``(dispersion, gap, lo, hi)``: the mean of per-fold AUPR minus the merged AUPR at each fold-skew
    dispersion, with its 95% interval: the rows ``px.boyd.sec4_1.fold_mean_below_merged[_d<d>]`` when the
    verdict table has them, else ``boyd_fold_skew_summary.csv`` (aggregate ``mean_aupr``)."""
    v = s.verdicts
    ids = v["claim_id"].astype(str)
    mine = v[ids.str.startswith("px.boyd.sec4_1.fold_mean_below_merged")]
    if len(mine):  # the estimate is the signed gap (below 0: below); the widest dispersion's row has no suffix
        at = [re.search(r"_d([0-9.]+)$", c) or re.search(r"dispersion d = ([0-9.]*[0-9])", str(t))
              for c, t in zip(mine["claim_id"].astype(str), mine["claim"], strict=True)]
        return sorted((float(m.group(1)), float(r.estimate), float(r.ci_lo), float(r.ci_hi))
                      for m, r in zip(at, mine.itertuples(), strict=True) if m)
    t = s.fold_skew
    if t is None or not len(t) or not {"aggregate", "bias_mean", "bias_lo", "bias_hi"} <= set(t.columns):
        return []
    t = t[t["aggregate"] == "mean_aupr"].sort_values("dispersion")
    return [(float(r.dispersion), float(r.bias_mean), float(r.bias_lo), float(r.bias_hi)) for r in t.itertuples()]


def downsampling_sample(studies: Sequence[Study], paper: str) -> str:
    """What Boyd et al.'s downsampling ran on: tasks and task families per study, and the learners."""
    if paper != REG.BOYD:
        return ""
    parts = []
    for s in studies:
        r = s.row("boyd.sec4_3.aupr_rises")
        if r is not None and np.isfinite(r["n_tasks"]) and np.isfinite(r["n_families"]):
            parts.append((int(r["n_tasks"]), int(r["n_families"])))
    d = next((s.downsampling for s in studies if s.downsampling is not None and "learner" in s.downsampling), None)
    k = d["learner"].astype(str).nunique() - int((d["learner"] == "all learners").any()) if d is not None else 0
    return (f" (downsampling: {'/'.join(str(n) for n, _ in parts)} tasks, {'/'.join(str(f) for _, f in parts)} "
            "families" + (f", {k} learners" if k else "") + ")") if parts else ""
