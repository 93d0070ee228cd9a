"""Figures of the Boyd et al. (2012) experiments: downsampling, fold skew, task aggregation.

Inputs are the summary tables of :mod:`prspace.experiments.downsampling`,
:mod:`prspace.experiments.fold_skew` and :mod:`prspace.experiments.aggregation`; every function
returns a :class:`matplotlib.figure.Figure` and the CLI saves it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from prspace import metrics
from prspace.experiments import downsampling as ds
from prspace.experiments import fold_skew as fs

LABELS = {"aupr": "AUPR", "aucnpr": "AUCNPR", "auprg": "AUPRG", "auroc": "AUROC"}


def figure_downsampling(summary: pd.DataFrame, *, source: str = "") -> Figure:
    """Each metric against the training ratio: downsampled test folds vs original test folds.

    Thick lines: mean over tasks of the learners' mean, bars +- one standard deviation over tasks;
    thin lines: each learner's mean over tasks. In the AUPR panel the dotted line is AUCPR_MIN at
    the downsampled test set's skew pi = 1 / (1 + k) (Theorem 2).
    """
    fig = Figure(figsize=(11, 7.8), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True).ravel()
    all_ = summary[summary["learner"] == "all learners"]
    ks = list(all_["train_k"])
    x = np.arange(len(ks))
    labels = [ds.ratio_label(k) for k in ks]
    learners = [lrn for lrn in pd.unique(summary["learner"]) if lrn != "all learners"]
    styles = {"downsampled": ("C3", "-", "o", "test fold downsampled to the training ratio", -0.07),
              "original": ("C0", "--", "s", "original test fold", 0.07)}
    for ax, m in zip(axes, ds.METRICS, strict=True):
        for test, (color, ls, marker, lab, dx) in styles.items():
            for lrn in learners:
                sub = summary[summary["learner"] == lrn].set_index("train_k").reindex(ks)
                ax.plot(x + dx, sub[f"{test}_{m}"], color=color, ls=ls, lw=0.7, alpha=0.35)
            ax.errorbar(x + dx, all_[f"{test}_{m}"], yerr=all_[f"{test}_{m}_sd"], color=color, ls=ls, marker=marker,
                        lw=2, capsize=3, label=f"{lab}: mean over tasks of the learners' mean, bars +- sd over tasks")
        if m == "aupr":
            pis = np.array([1 / (1 + k) if k != ds.ORIGINAL else np.nan for k in ks])
            lo = np.full(len(ks), np.nan)
            ok = np.isfinite(pis)
            lo[ok] = np.asarray(metrics.aupr_min(pis[ok]), dtype=np.float64)
            ax.plot(x, lo, color="0.3", ls=":", marker=".", label="AUCPR_MIN at the downsampled test skew 1/(1+k)")
        if m in ("aupr", "aucnpr"):
            ax.set_ylim(0, 1)
        ax.set_title(LABELS[m], fontsize=11)
        ax.set_ylabel(LABELS[m])
        ax.grid(alpha=0.25)
        ax.set_xticks(x, labels)
    for ax in axes[2:]:
        ax.set_xlabel("training ratio (positives : negatives); 'original' = no subsampling")
    axes[0].plot([], [], color="0.5", lw=0.7, label="thin lines: single learners (mean over tasks)")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=8.5)
    n_tasks = int(all_["n_tasks"].max()) if len(all_) else 0
    fig.suptitle(f"Downsampling (after Boyd et al. 2012, Table 3): {n_tasks} tasks, {len(learners)} learners"
                 + (f" -- {source}" if source else ""), fontsize=11)
    return fig


def figure_fold_skew(summary: pd.DataFrame, *, source: str = "") -> Figure:
    """Bias (skewed minus stratified folds) of each aggregate, and how often the best model changes.

    Left: mean over tasks of the absolute per-task bias, on a log axis (fold means of AUPRG can
    fall by whole units when a fold keeps a single positive, other shifts are hundredths). Right:
    Kendall's tau with the whole data's order, stratified minus skewed folds.
    """
    fig = Figure(figsize=(12, 5.4), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    colors = {"aupr": "C3", "aucnpr": "C2", "auprg": "C1", "auroc": "C0"}
    for a in fs.AGGREGATES:
        kind, m = a.split("_", 1)
        sub = summary[summary["aggregate"] == a].sort_values("dispersion")
        ls, marker = ("-", "o") if kind == "mean" else ("--", "s")
        ax1.plot(sub["fold_pi_sd"], sub["abs_bias_mean"], color=colors[m], ls=ls, marker=marker, ms=4,
                 label=fs.AGGREGATE_LABELS[a])
        ax2.plot(sub["dispersion"], sub["kendall_loss"], color=colors[m], ls=ls, marker=marker, ms=4,
                 label=fs.AGGREGATE_LABELS[a])
    ax1.set_yscale("log")
    ax1.set_xlabel("spread of the skewed folds' pi (sd over folds, mean over tasks)")
    ax1.set_ylabel("|skewed minus stratified|, mean over tasks (log)")
    ax1.set_title("Size of the shift each aggregate takes from fold skew\n(per task: mean over models and seeds)",
                  fontsize=10)
    ax1.grid(alpha=0.25, which="both")
    ax2.axhline(0, color="k", lw=0.8)
    ax2.set_xlabel("dispersion d (share of one class dropped from half of the folds)")
    ax2.set_ylabel("Kendall's tau lost: stratified minus skewed")
    ax2.set_title("Agreement of the models' order with the order on the whole data:\nhow much the skew costs beyond thinning",
                  fontsize=10)
    ax2.grid(alpha=0.25)
    fig.legend(*ax1.get_legend_handles_labels(), loc="outside lower center", ncol=4, fontsize=8.5)
    n_tasks = int(summary["n_tasks"].max()) if len(summary) else 0
    fig.suptitle(f"Fold skew (after Boyd et al. 2012, section 4.1): {n_tasks} tasks" + (f" -- {source}" if source else ""),
                 fontsize=11)
    return fig


def figure_aggregation(per_task: pd.DataFrame, groups: pd.DataFrame, *, source: str = "") -> Figure:
    """Left: per-task metrics against pi, with AUCPR_MIN(pi) and pi (random ranking's AUPR).
    Right: heat map of each learner's rank by its mean metric, over all tasks and within pi groups."""
    from matplotlib.ticker import FixedLocator, NullLocator

    learners = sorted(pd.unique(groups["learner"]))
    height = max(5.5, 0.22 * len(learners) + 2.5)
    fig = Figure(figsize=(14, height), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[1, 1.25])
    colors = {"aupr": "C3", "aucnpr": "C2", "auprg": "C1", "auroc": "C0"}
    mean = per_task.groupby(["task_id", "pi"], sort=False)[list(LABELS)].mean().reset_index().sort_values("pi")
    for m in ("aupr", "aucnpr", "auprg"):
        ax1.scatter(per_task["pi"], per_task[m], color=colors[m], s=6, alpha=0.2, linewidths=0)
        ax1.plot(mean["pi"], mean[m], color=colors[m], marker="o", ms=4, ls="none", label=f"{LABELS[m]} (mean over learners)")
    lo_pi, hi_pi = max(per_task["pi"].min() * 0.8, 1e-3), min(per_task["pi"].max() * 1.2, 0.999)
    pi = np.geomspace(lo_pi, hi_pi, 200)
    ax1.plot(pi, np.asarray(metrics.aupr_min(pi), dtype=np.float64), color="k", ls=":", lw=1.5, label="AUCPR_MIN(pi)")
    ax1.plot(pi, pi, color="0.5", ls="--", lw=0.8, label="pi (random ranking's AUPR)")
    ax1.set_xscale("log")
    ticks = [t for t in (0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5) if lo_pi <= t <= hi_pi]
    ax1.xaxis.set_major_locator(FixedLocator(ticks))
    ax1.xaxis.set_minor_locator(NullLocator())
    ax1.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax1.set_xlabel("pi of the task (log scale)")
    ax1.set_ylabel("metric value (pooled cross-validated predictions)")
    ax1.set_ylim(-0.02, 1.02)
    ax1.set_title("Per task (faint dots: single learners)", fontsize=10)
    ax1.grid(alpha=0.25, which="both")
    ax1.legend(fontsize=8, loc="lower right")

    order = [g for g in sorted(pd.unique(groups["skew_group"])) if g != "all tasks"] + ["all tasks"]
    mets = ["aupr", "aucnpr", "auprg", "auroc"]
    piv = groups.pivot_table(index="learner", columns=["skew_group", "metric"], values="rank")
    cols = [(g, m) for g in order for m in mets]
    piv = piv.reindex(columns=pd.MultiIndex.from_tuples(cols)).sort_values(("all tasks", "aupr"))
    data = piv.to_numpy(dtype=np.float64)
    im = ax2.imshow(data, aspect="auto", cmap="viridis_r", interpolation="nearest")
    for (i, j), v in np.ndenumerate(data):
        if np.isfinite(v):
            ax2.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=6.5,
                     color="white" if v < 0.35 * np.nanmax(data) else "black")
    ax2.set_yticks(range(len(piv)), piv.index, fontsize=7.5)
    ax2.set_xticks(range(len(cols)), [LABELS[m] for _, m in cols], rotation=90, fontsize=8)
    for k in range(1, len(order)):
        ax2.axvline(k * len(mets) - 0.5, color="w", lw=3)
    sec = ax2.secondary_xaxis("top")
    sec.set_xticks([k * len(mets) + 1.5 for k in range(len(order))],
                   [g.split(": ", 1)[-1] if g != "all tasks" else g for g in order], fontsize=8)
    sec.tick_params(length=0)
    ax2.set_title("Rank of each learner's mean metric (1 = best), within pi groups of tasks", fontsize=10)
    fig.colorbar(im, ax=ax2, shrink=0.6, label="rank")
    n_tasks = per_task["task_id"].nunique()
    fig.suptitle(f"Aggregation over tasks (after Boyd et al. 2012, Table 2): {n_tasks} tasks, {len(learners)} learners"
                 + (f" -- {source}" if source else ""), fontsize=11)
    return fig
