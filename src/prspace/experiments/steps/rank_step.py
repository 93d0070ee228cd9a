"""Step ``rank``: the ranking tables of a study, with their titles and notes, and how they are shown:
the source label of a run, the Markdown columns of the disagreement summary and the scorecard
(intervals and floors side by side), and the learner family of each model (for the
panel-sensitivity table).

The numbers themselves come from :mod:`prspace.experiments.ranking`; :func:`rank_step` computes
and labels them (``prspace step rank`` writes what it returns).
"""

from __future__ import annotations

import logging
import re
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

import numpy as np
import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import read_metrics_table
from prspace.core.errors import InputError
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments import ranking as RANKING

__all__ = ["RankInputs", "rank_step", "scorecard_markdown", "source_label", "summary_markdown"]

log = logging.getLogger(__name__)


def source_label(tasks: pd.DataFrame) -> str:
    """What the run is, from the task table: source, data, models, protocol."""
    ok = tasks[tasks["status"] == "ok"]
    if ok.empty:
        return "no task scored"
    parts = []
    for source, g in ok.groupby("source", sort=True):
        models = g["n_models"].astype(int)
        nm = f"{models.min()}" if models.min() == models.max() else f"{models.min()}-{models.max()}"
        # provenance names package versions and per-dataset details in parentheses; keep the former
        pieces = {re.sub(r"\s*\([^)]*\)", "", p).strip() for v in g["provenance"].astype(str) for p in v.split(";")}
        prov = "; ".join(sorted(p for p in pieces if p))
        proc = "; ".join(sorted(set(g["estimation_procedure"].astype(str))))
        if source == "openml":
            where = ("a server on this machine answering as OpenML, not openml.org (its runs synthetic or replayed)"
                     if any(_on_this_machine(v) for v in g["provenance"].astype(str)) else "OpenML")
            parts.append(f"{where} ({prov}): {len(g)} tasks x {nm} models from distinct flows, {proc}")
        else:
            parts.append(f"local learners ({nm} per task) on {len(g)} datasets listed in tasks.csv ({prov}), {proc}")
    return " + ".join(parts)


def _on_this_machine(provenance: str) -> bool:
    """Whether a task's provenance (``<server URL> via openml-python <version>``) names a loopback host: the
    tests' and benchmarks' server that answers as OpenML does, not openml.org."""
    host = urllib.parse.urlparse(provenance.split(" ", 1)[0]).hostname or ""
    return host == "localhost" or host.startswith("127.") or host == "::1"


def _ci(m: float, lo: float, hi: float) -> str:
    if np.isnan(m):
        return ""
    return f"{m:.3f} [{lo:.3f}, {hi:.3f}]"


def _opt(summary: pd.DataFrame, col: str) -> pd.Series:
    return summary[col] if col in summary.columns else pd.Series(np.nan, index=summary.index)


def summary_markdown(summary: pd.DataFrame) -> pd.DataFrame:
    lab = RANKING.METRIC_LABELS
    return pd.DataFrame(
        {
            "metrics": [f"{lab.get(a, a)} vs {lab.get(b, b)}" for a, b in zip(summary.metric_a, summary.metric_b, strict=True)],
            "tasks": summary.n_tasks,
            "top-1 differs": [_ci(*r) for r in summary[["top1_share", "top1_lo", "top1_hi"]].to_numpy()],
            "top-1 floor": _opt(summary, "top1_floor"),
            "top-1 w/o saturated": _opt(summary, "top1_share_unsat"),
            "top-1 distinguishable": _opt(summary, "top1_distinguishable"),
            "top-3 differs": [_ci(*r) for r in summary[["top3_share", "top3_lo", "top3_hi"]].to_numpy()],
            "top-3 floor": _opt(summary, "top3_floor"),
            "top-3 w/o saturated": _opt(summary, "top3_share_unsat"),
            "top-3 distinguishable": _opt(summary, "top3_distinguishable"),
            "Spearman (mean)": [_ci(*r) for r in summary[["spearman_mean", "spearman_lo", "spearman_hi"]].to_numpy()],
            "Kendall (mean)": [_ci(*r) for r in summary[["kendall_mean", "kendall_lo", "kendall_hi"]].to_numpy()],
            "Spearman (pooled)": summary.pooled_spearman,
            "Spearman q25/median/q75": [f"{a:.3f} / {b:.3f} / {c:.3f}" for a, b, c in summary[["spearman_q25", "spearman_median", "spearman_q75"]].to_numpy()],
        }
    )


def scorecard_markdown(card: pd.DataFrame) -> pd.DataFrame:
    def fmt(v: float, stat: str) -> str:
        if np.isnan(v):
            return ""
        if stat.startswith(("tasks", "models", "families", "runs ")):
            return f"{v:,.0f}"
        return f"{v:.1e}" if 0 < abs(v) < 0.0005 else f"{v:.3f}"

    def num(v: float) -> str:
        return "" if np.isnan(v) else f"{v:.2f}"

    return pd.DataFrame(
        {
            "comparison": card.comparison,
            "statistic": card.statistic,
            "paper": [fmt(v, s) for v, s in zip(card.paper, card.statistic, strict=True)],
            "this run": [fmt(v, s) for v, s in zip(card.this_run, card.statistic, strict=True)],
            "95% CI (families)": ["" if np.isnan(lo) else f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(card.ci_lo, card.ci_hi, strict=True)],
            "noise floor": [num(v) for v in card.noise_floor],
            "w/o saturated": [num(v) for v in card.without_saturated],
            "distinguishable": [num(v) for v in card.distinguishable],
        }
    )


#: the statistics of the OpenML self-check's summary (``prspace.openml.selfcheck``) the scorecard shows, in
#: order; then the count of runs beyond its tolerance, whose name carries the tolerance
SELFCHECK_STATISTICS = ("runs compared", "max |difference|, overall (pooled over all folds and repeats)",
                        "median |difference|, overall (pooled over all folds and repeats)",
                        "max |difference|, per fold", "median |difference|, per fold")
_SELFCHECK_BEYOND = "runs differing by more than "


def scorecard_rows(summary: pd.DataFrame) -> pd.DataFrame:
    """The OpenML self-check's headline (its summary table, as written) as rows of the replication
    scorecard (columns of ``prspace.experiments.ranking.SCORECARD_COLUMNS``; no paper value)."""
    s = summary.set_index("statistic")["value"]
    nan = float("nan")
    source = "our AUROC of the fetched predictions vs area_under_roc_curve of OpenML's evaluation engine"
    shown = [*SELFCHECK_STATISTICS, *(str(k) for k in s.index if str(k).startswith(_SELFCHECK_BEYOND))]
    rows = [{"comparison": "OpenML self-check (AUROC)", "statistic": stat, "paper": nan, "this_run": float(s[stat]),
             "ci_lo": nan, "ci_hi": nan, "paper_source": "", "this_source": source}
            for stat in shown if stat in s.index]
    return pd.DataFrame(rows)


class RankInputs(TypedDict):
    """The inputs of step ``rank``: the study's metrics and task tables, the noise floor's tables (per task
    and metric, per task and pair) and, in an OpenML study, the self-check summary (added to the scorecard)."""

    metrics: Path
    tasks: Path
    floors: NotRequired[Path]
    pairs: NotRequired[Path]
    selfcheck: NotRequired[Path]


def _optional_table(inputs: RankInputs, role: str) -> pd.DataFrame | None:
    return pd.read_csv(inputs[role], dtype={"task_id": str}) if role in inputs else None


def rank_step(inputs: RankInputs, *, metrics: Sequence[str], n_boot: int, seed: int,
              learner_min_share: float = 1.0) -> StepOutput:
    """Step ``rank``: the models of every task ranked by each of ``metrics`` (rank 1 = best, ties share the
    average rank; the ranks table is file ``ranks``), the disagreement tables of Flach & Kull (2015) section 4
    (top-1 and top-3 disagreement and rank correlations for every pair of metrics, with ``n_boot`` cluster
    bootstrap resamples over families, ``seed``), the replication scorecard, the learners ranked across tasks
    (Boyd et al. 2012 section 4.2; learners present in at least ``learner_min_share`` of the tasks) and the
    panel sensitivity."""
    table = read_metrics_table(inputs["metrics"])
    tasks = pd.read_csv(inputs["tasks"], dtype={"task_id": str})
    rank_by = list(metrics)
    unknown = [m for m in rank_by if m not in table.columns]
    if unknown:
        raise InputError(f"metrics names {', '.join(unknown)}, not columns of {inputs['metrics']}; choose from "
                         f"{', '.join(RANKING.METRIC_LABELS)}")
    if table.empty:
        raise InputError(f"{inputs['metrics']} has no rows: no task was scored; see the task table {inputs['tasks']} "
                         "for the reasons")
    try:
        ranks = RANKING.rank_models(table, rank_by)
    except ValueError as exc:
        raise InputError(f"{inputs['metrics']}: {exc}") from None
    per_task = RANKING.all_disagreements(ranks, rank_by)
    summary = RANKING.summarise_disagreement(per_task, ranks=ranks, tasks=tasks, floors=_optional_table(inputs, "floors"),
                                        noise_pairs=_optional_table(inputs, "pairs"), n_boot=n_boot, seed=seed)
    source = source_label(tasks)
    note = (f"Source: {source}. Shares of tasks where the best model (top-1) or the ordered top three (top-3) "
            f"differ; mean per-task rank correlations; [95% percentile cluster bootstrap over families of tasks "
            f"(tasks derived from one source dataset resampled together), {n_boot} resamples, seed {seed}]. "
            "floor: how often a metric disagrees with itself under a stratified bootstrap of the test rows "
            "(mean over tasks of the two metrics' floors); w/o saturated: saturated tasks left out; "
            "distinguishable: share of the disagreeing tasks where both metrics' preferences are outside "
            f"their paired bootstrap 95% intervals. {RANKING.TIE_CONVENTION}")
    card = RANKING.scorecard(summary, per_task, source=source)
    if "selfcheck" in inputs:
        card = pd.concat([card, scorecard_rows(pd.read_csv(inputs["selfcheck"]))], ignore_index=True)
    learners, agreement, winners, problem = RANKING.learner_tables(table, min_share=learner_min_share)
    lnote = ("Learners ranked across tasks by their mean metric (Boyd et al. 2012, sec. 4.2): "
             "rank_mean_<m> = rank by the mean over tasks (1 = best); mean_rank_<m> = mean within-task rank. "
             f"Only learners present in at least {learner_min_share:.0%} of the tasks. Source: {source}.")
    sens = RANKING.panel_sensitivity(table, RANKING.learner_families(table), rank_by, tasks=tasks, n_boot=n_boot, seed=seed)
    log.info("%d tasks, %d models ranked by %s", ranks["task_id"].nunique(), len(ranks), ", ".join(rank_by))
    return StepOutput(
        tables=[
            TableOut(R.DISAGREEMENT_PER_TASK, per_task),
            TableOut(R.DISAGREEMENT_SUMMARY, summary, note, "Rank disagreement between metrics",
                     summary_markdown(summary)),
            TableOut(R.SCORECARD, card,
                     (f"paper: {RANKING.PAPER_SOURCE}; the paper does not name its rank correlation.  \nthis run: {source}.  \n"
                      "95% CI: percentile cluster bootstrap over families of tasks. noise floor: how often a metric "
                      "disagrees with itself under a stratified bootstrap of the test rows. distinguishable: share "
                      f"of the disagreements outside both paired bootstrap intervals.  \n{RANKING.TIE_CONVENTION}"),
                     "Replication scorecard: Flach & Kull (2015), section 4", scorecard_markdown(card)),
            TableOut(R.LEARNER_RANKING, learners, lnote, "Learners ranked across tasks"),
            TableOut(R.LEARNER_AGREEMENT, agreement, lnote, "Do the learners' orders by mean metric agree?"),
            TableOut(R.LEARNER_WINNERS, winners,
                     ("n_tasks_flip: tasks whose removal alone changes the winner. AUPRG is unbounded below, so a mean "
                      f"of AUPRG can be decided by one task. Source: {source}."),
                     "The best learner across tasks by mean, median and mean rank, with its margin"),
            TableOut(R.PANEL_SENSITIVITY, sens,
                     ("family: the learner's method (prspace.local.learners.learner_family) when it exists, else the learner "
                      "itself (then the two columns agree); a method's representative is its model id that sorts first. "
                      f"[95% cluster bootstrap over families of tasks]. Source: {source}."),
                     "Panel sensitivity: disagreement with every model and with one model per learner method"),
        ],
        files={"ranks": ranks},
        warnings=[f"learner ranking across tasks: {problem}"] if problem is not None else [],
    )
