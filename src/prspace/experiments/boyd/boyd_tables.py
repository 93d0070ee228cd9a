"""The tables of the Boyd et al. (2012) steps: titles, notes, columns, shapes; and the tables
their figures are drawn from.

One function per step, each returning the :class:`~prspace.core.steps.StepOutput` that
:func:`prspace.core.steps.write_step` writes (the step functions that read a rule's files are in
:mod:`prspace.experiments.steps.boyd_steps`; ``prspace figure`` draws each figure from its tables,
:mod:`prspace.experiments.boyd.boyd_figure_data`):

- :func:`paper_tables_report`: Boyd et al.'s Tables 3 and 2 checked against Theorem 2;
- :func:`downsampling_report`: section 4.3, Table 3 per task and learner, over tasks, beside the paper;
- :func:`fold_skew_report`: section 4.1, the bias of each aggregate and ranking changes;
- :func:`fold_skew_mechanism_report`: section 4.1 on one simulated model, the sign of the bias;
- :func:`aggregation_report`: section 4.2, learners' means over tasks of different skew;
- :func:`pr_prg_report`: Flach and Kull's Figure 2 on one real model's scores.

The numbers come from :mod:`prspace.experiments.boyd.downsampling`, :mod:`~prspace.experiments.boyd.fold_skew`
and :mod:`~prspace.experiments.boyd.aggregation`; this module only chooses what each table shows and says.
When no task qualified, the step's tables are empty and say why (a warning), and its figure's
text holds that message (the figure shows it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.core import registry as R
from prspace.core.contracts import ok_statuses
from prspace.core.errors import InputError
from prspace.core.registry import Figure, Table
from prspace.core.schema import read_predictions, read_task_info
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.boyd import aggregation as ag
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.boyd import fold_skew as fs
from prspace.experiments.boyd.boyd_figure_data import (
    aggregation_tables,
    downsampling_tables,
    fold_skew_tables,
    message_tables,
)
from prspace.experiments.boyd.boyd_mechanism import mechanism_table
from prspace.experiments.boyd.boyd_theory_data import pr_prg_tables
from prspace.experiments.fk import figure_selection as S

__all__ = [
    "aggregation_report",
    "downsampling_report",
    "fold_skew_mechanism_report",
    "fold_skew_report",
    "paper_tables_report",
    "pr_prg_report",
]


def _study_source(study: str) -> str:
    return f"study {study}" if study else ""


def _nothing_qualified(msg: str, tables: Sequence[Table], columns: list[str], title: str, figure: Figure) -> StepOutput:
    out = [TableOut(t, pd.DataFrame(columns=columns), note=msg, title=title) for t in tables]
    return StepOutput(out, figure_data=message_tables(figure, msg), warnings=[msg])


# --- Boyd's Tables 2 and 3 ---------------------------------------------------------------------------


def paper_tables_report() -> StepOutput:
    """Boyd's Table 3 (AUCNPR recomputed from AUCPR and the skew) and Table 2 (the skews it implies)."""
    t3 = ds.table3_check()
    worst = float(t3["difference"].abs().max())
    return StepOutput([
        TableOut(
            R.BOYD_TABLE3_CHECK, t3,
            title="Boyd et al. 2012, Table 3: published AUCNPR vs AUCNPR recomputed from the published AUCPR",
            note=("Source: Boyd et al. 2012, Table 3 (SAYU, UW-CSE advisedBy), transcribed. "
                  "test_pi = 1/(1+k) for a 1:k test set; aucpr_min = prspace.metrics.aupr_min(test_pi) (Theorem 2); "
                  "aucnpr_computed = (aucpr_published - aucpr_min) / (1 - aucpr_min). "
                  f"Largest |difference|: {worst:.4f} (published values have three decimals).")),
        TableOut(
            R.BOYD_TABLE2_CHECK, ag.table2_check(),
            title="Boyd et al. 2012, Table 2: skews implied by the published AUCPR and AUCNPR",
            note=("Source: Boyd et al. 2012, Table 2 (LSM on IMDB), transcribed. implied_aucpr_min = "
                  "(AUCPR - AUCNPR) / (1 - AUCNPR); implied_pi inverts Theorem 2 (prspace.metrics.aupr_min). "
                  "stated_pi: the skew the paper's text gives (section 4.2); aucnpr_at_stated_pi: the AUCNPR that "
                  "skew implies.")),
    ])


# --- section 4.3: downsampling -----------------------------------------------------------------------


def downsampling_report(runs: pd.DataFrame, *, study: str = "", criteria: str = "") -> StepOutput:
    """Table 3 per task and learner, the summary over tasks, the comparison with the paper, the figure.

    ``runs``: the runs of every qualifying task (:func:`prspace.experiments.steps.boyd_steps.read_runs`); ``criteria`` says how the tasks
    were chosen, for the notes.
    """
    if runs.empty:
        msg = (f"No task of {'study ' + study if study else 'this study'} qualified for the downsampling "
               f"experiment ({criteria or 'see boyd.downsampling'}); raise boyd.downsampling.max_pi, "
               "lower min_positives or add skewed datasets.")
        return _nothing_qualified(msg, (R.BOYD_DOWNSAMPLING_TABLE3, R.BOYD_DOWNSAMPLING_SUMMARY,
                                        R.BOYD_DOWNSAMPLING_VS_PAPER),
                                  ["learner", "train_ratio"], "Downsampling", R.FIGURE_BOYD_DOWNSAMPLING)
    per_task = ds.table3(runs)
    summary = ds.table3_summary(per_task)
    n_tasks = runs["task_id"].nunique()
    src = _study_source(study)
    cols = ["learner", "train_ratio", "n_tasks", "n_learners", "downsampled_test_pi"]
    for m in ds.METRICS:
        cols += [f"downsampled_{m}", f"original_{m}", f"gap_{m}", f"gap_{m}_sd"]
    tables = [
        TableOut(
            R.BOYD_DOWNSAMPLING_TABLE3, per_task,
            title="Downsampling per task and learner (Boyd et al. 2012, Table 3 generalised)",
            note=("Mean over repeats x folds. downsampled_*: test fold with negatives subsampled to the training ratio; "
                  "original_*: the whole test fold. 'original' training ratio = no subsampling (the task's own ratio). "
                  f"{n_tasks} tasks ({criteria or 'all given'}); source: {src or 'local data'}, "
                  "learners trained here by prspace (scikit-learn).")),
        TableOut(
            R.BOYD_DOWNSAMPLING_SUMMARY, summary,
            title="Downsampling summarised over tasks (mean over tasks; gap = downsampled minus original test, sd over tasks)",
            note=(f"Sample: {n_tasks} tasks ({criteria or 'all given'}), {ds.learners_text(runs)}, "
                  f"{runs['repeat'].nunique()} repeat(s) of {runs['fold'].nunique()}-fold cross-validation; task "
                  "families and why not more in boyd_evidence.csv (the boyd.sec4_3 rows). Full columns including "
                  f"standard deviations over tasks: {R.BOYD_DOWNSAMPLING_SUMMARY.csv('').name}."),
            markdown=summary[cols]),
        TableOut(
            R.BOYD_DOWNSAMPLING_VS_PAPER, ds.compare_with_paper(summary),
            title=("Boyd et al. 2012, Table 3 (SAYU, UW-CSE advisedBy, transcribed) beside this study "
                   "(mean of all learners and tasks)"),
            note=("Boyd's 1:24 row is their task's original ratio; ours is each task's own ratio (our_test_pi: mean "
                  "skew). Other data and learners: compare the pattern, not the digits.")),
    ]
    return StepOutput(tables, figure_data=downsampling_tables(summary, source=src))


# --- section 4.1: fold skew --------------------------------------------------------------------------


def fold_skew_report(runs: pd.DataFrame, *, study: str = "", criteria: str = "") -> StepOutput:
    """The bias of each aggregate and the ranking changes against dispersion (over tasks and per task), the figure."""
    if runs.empty:
        msg = (f"No task of {'study ' + study if study else 'this study'} qualified for the fold-skew "
               f"experiment ({criteria or 'see boyd.fold_skew'}); lower boyd.fold_skew.min_positives.")
        return _nothing_qualified(msg, (R.BOYD_FOLD_SKEW_SUMMARY, R.BOYD_FOLD_SKEW_PER_TASK),
                                  ["dispersion", "aggregate"], "Fold skew", R.FIGURE_BOYD_FOLD_SKEW)
    summary = fs.fold_skew_summary(runs)
    per_task = fs.fold_skew_per_task(runs)
    src = _study_source(study)
    tables = [
        TableOut(
            R.BOYD_FOLD_SKEW_SUMMARY, summary,
            title="Fold skew: bias of each aggregate (skewed minus stratified folds) and ranking changes",
            note=("Same models, same rows, same fold sizes: skewed folds swap a share d of one fold's positives with as "
                  "many negatives of its partner fold (fold pi about pi(1+d) and pi(1-d)); the control makes the same "
                  "moves class for class (fold pi unchanged). Pooled metrics are the same rows and scores in every "
                  "design (bias 0 by construction). bias_mean: mean over tasks (each task averaged "
                  "over models and seeds); abs_bias_mean: mean over tasks of |per-task bias|. top1_change_<design>: share "
                  "of task x seed where the best model on the reassigned folds differs from the best on the original "
                  "folds; kendall_<design>: Kendall's tau with the original folds' order; kendall_loss = stratified - "
                  f"skewed. {runs['task_id'].nunique()} tasks ({criteria or 'all given'}); {src}.")),
        TableOut(
            R.BOYD_FOLD_SKEW_PER_TASK, per_task,
            title="Fold skew: bias of each aggregate per task and dispersion (mean over models and seeds)"),
    ]
    return StepOutput(tables, figure_data=fold_skew_tables(summary, source=src))


def fold_skew_mechanism_report(*, n_sim: int = 400, seed: int = 0) -> StepOutput:
    """Section 4.1 on a single simulated model (:mod:`prspace.experiments.boyd.boyd_mechanism`): the
    sign of the averaging bias from near the worst ranking to a good model."""
    t = mechanism_table(n_sim=n_sim, seed=seed)
    return StepOutput([TableOut(
        R.BOYD_FOLD_SKEW_MECHANISM, t,
        title="Boyd et al. 2012, section 4.1 on one simulated model: is averaging per-fold AUPR optimistic?",
        note=("Simulated, no data: binormal scores (negatives N(0, 1), positives N(separation, 1); auroc = "
              "Phi(separation / sqrt 2)), one model and one population, stratified folds made to differ in skew by "
              "prspace.experiments.boyd.fold_skew.reassign_folds (dispersion d) against the stratified control. bias = "
              "(mean of per-fold AUPR - merged AUPR) on skewed folds minus the same on the control; mc_lo, mc_hi: its "
              "Monte Carlo interval over n_sim simulations; sign where that interval excludes 0. Precision at a fixed "
              "ROC point is concave in pi for a better-than-random model (fold mean pessimistic) and convex for a "
              "worse-than-random one (optimistic, as Boyd's floor argument says)."))])


# --- section 4.2: aggregation over tasks -------------------------------------------------------------


def aggregation_report(metrics: pd.DataFrame, *, learner: str = "flow_id", skew_groups: int = 3,
                       study: str = "") -> StepOutput:
    """Learners' mean AUPR / AUCNPR / AUPRG / AUROC over tasks, their agreement, the skew correlations
    and skew groups (``skew_groups`` equal-size groups of tasks by pi), and the figure."""
    per_task = ag.per_task_table(metrics, learner=learner)
    common = ag.common_learners(metrics, learner=learner)
    if common:
        means, agree = ag.learner_means(metrics, learner=learner)
        learners, none = ag.order_changes(means, learner=learner), None
    else:  # no learner on every task (an OpenML draw): the learner tables empty, saying why
        learners, agree = pd.DataFrame(columns=[learner, "n_tasks"]), pd.DataFrame(columns=["metric_a", "metric_b"])
        none = ag.no_common_learner(metrics, learner=learner) + "."
    corr = ag.skew_correlation(metrics, learner=learner)
    groups = ag.skew_group_means(metrics, learner=learner, n_groups=skew_groups)
    src = _study_source(study)
    n = per_task["task_id"].nunique()
    tables = [
        TableOut(R.BOYD_AGGREGATION_TASKS, per_task,
                    title="Per task and learner: pi, AUCPR_MIN and the metrics (Boyd et al. 2012, Table 2 generalised)",
                    note=f"Pooled cross-validated predictions; {n} tasks; {src}."),
        TableOut(R.BOYD_AGGREGATION_LEARNERS, learners,
                    title="Learners' mean over tasks and their rank by each metric (1 = best)", note=none),
        TableOut(R.BOYD_AGGREGATION_AGREEMENT, agree,
                    title="Do the learners' orders by mean metric agree? (pairs of metrics)", note=none),
        TableOut(R.BOYD_AGGREGATION_SKEW_CORRELATION, corr,
                    title="Spearman's rho of each metric with pi across tasks; free_share = mean AUCPR_MIN / mean AUPR"),
        TableOut(R.BOYD_AGGREGATION_SKEW_GROUPS, ag.skew_groups_wide(groups) if len(groups) else groups,
                    title="Learners' mean metric and rank within pi groups of tasks", note=none),
    ]
    return StepOutput(tables, figure_data=aggregation_tables(per_task, groups, source=src))


# --- Flach and Kull Figure 2 from the study's predictions -------------------------------------------


def pr_prg_report(status_paths: Sequence[str | Path], *, task: str = "auto", model: str = "auto",
                  target_positives: int = 30) -> StepOutput:
    """Flach and Kull Figure 2 (PR beside PRG) for one real model's scores on one test fold.

    ``task`` / ``model``: ids, or ``auto`` (the task whose test fold's positives are closest to
    ``target_positives``; the model with the median AUPRG on the fold:
    :mod:`prspace.experiments.fk.figure_selection`).  Its one table names the task, model and fold drawn
    (a CSV only).
    """
    tasks = sorted((st.task_id, st.predictions) for st in ok_statuses(status_paths))
    if not tasks:
        raise InputError("no task has predictions (every status is 'skipped'); run the predictions step first")
    if task != "auto":
        chosen = [t for t in tasks if t[0] == task]
        if not chosen:
            raise InputError(f"task {task!r} has no predictions; choose one of {', '.join(t for t, _ in tasks)} or auto")
        df, info = read_predictions(chosen[0][1])
        sub, median_model, _ = S.median_model(df)
    else:
        infos = [read_task_info(path_) for _, path_ in tasks]
        picks = S.pr_prg_candidates(infos, target_positives=target_positives)
        read = (read_predictions(tasks[i][1]) for i in picks)
        info, sub, median_model = S.choose_pr_prg([(info_, df_) for df_, info_ in read])
    model = median_model if model == "auto" else model
    if model not in set(sub["model_id"]):
        raise InputError(f"model {model!r} not in task {info.task_id}; choose one of "
                         f"{', '.join(sorted(set(sub['model_id'])))} or auto")
    rep, fold = int(sub["repeat"].iloc[0]), int(sub["fold"].iloc[0])
    g = sub[sub["model_id"] == model]
    y, s = g["y_true"].to_numpy(bool), g["score"].to_numpy(np.float64)
    source = (f"data: {info.dataset_name} ({info.task_id}; {info.provenance.split(';')[0]}); "
              f"model: {model}, test fold {fold} of repeat {rep}")
    selection = pd.DataFrame([{"task_id": info.task_id, "dataset": info.dataset_name, "provenance": info.provenance,
                               "model_id": model, "repeat": rep, "fold": fold, "n": int(y.size), "n_pos": int(y.sum()),
                               "aupr": float(metrics.aupr(y, s)), "auprg": float(metrics.auprg(y, s))}])
    tables = pr_prg_tables(y, s, source=source)
    figure = R.FIGURE_BOYD_FIG_PR_PRG
    return StepOutput([TableOut(R.BOYD_FIG_PR_PRG_SOURCE, selection)],
                      figure_data=[(d, tables[d.name]) for d in (*figure.data, figure.text)])
