"""How the ranking tables are labelled and shown: the source label of a run, the Markdown
columns of the disagreement summary and the scorecard (intervals and floors side by side),
and the learner family of each model (for the panel-sensitivity table).

The numbers themselves come from :mod:`prspace.experiments.ranking`; this module only
formats them (``prspace rank`` and ``prspace figure-data`` write what it returns).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = ["learner_families", "scorecard_markdown", "source_label", "summary_markdown"]


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
            parts.append(f"OpenML ({prov}): {len(g)} tasks x {nm} models from distinct flows, {proc}")
        else:
            parts.append(f"local learners ({nm} per task) on {len(g)} datasets listed in tasks.csv ({prov}), {proc}")
    return " + ".join(parts)


def _ci(m: float, lo: float, hi: float) -> str:
    if np.isnan(m):
        return ""
    return f"{m:.3f} [{lo:.3f}, {hi:.3f}]"


def _opt(summary: pd.DataFrame, col: str) -> pd.Series:
    return summary[col] if col in summary.columns else pd.Series(np.nan, index=summary.index)


def summary_markdown(summary: pd.DataFrame) -> pd.DataFrame:
    from prspace.experiments.ranking import METRIC_LABELS as lab

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


def learner_families(metrics: pd.DataFrame) -> pd.Series:
    """model id -> learner family (``local.learners.learner_family`` for local learners, if it exists)."""
    ids = pd.Series(sorted(metrics["model_id"].astype(str).unique()))
    try:
        from prspace.local.learners import (
            learner_family,  # provided by the learner panel's redesign
        )
    except ImportError:
        return pd.Series(ids.to_numpy(), index=ids.to_numpy())

    def fam(name: str) -> str:
        try:
            return str(learner_family(name))
        except Exception:  # an OpenML flow or a learner the panel does not know: its own family
            return name

    return pd.Series([fam(m) for m in ids], index=ids.to_numpy())
