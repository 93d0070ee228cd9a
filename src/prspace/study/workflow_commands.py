"""The command lines the workflow's rules run, and the tables its report shows.

Rules name inputs, outputs and a ``prspace`` command (docs/architecture.md, "Workflow
contract"); what goes into that command, given the validated configuration, is decided
here, where tests reach it: :func:`select_command` (the task list), :func:`predict_command`
(one task's predictions), :func:`table_html_args` (the report's HTML tables), and which
tables each kind of study puts in its report (:data:`STUDY_TABLES`,
:data:`OPENML_TABLES`, :func:`boyd_report_tables`), and the list of a study's outputs, the targets
of rules ``all`` and ``verify`` (:func:`study_targets`, from the names below, which the rule files
import for their outputs).

Every value from the configuration is shell-quoted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from shlex import quote
from typing import Any, NamedTuple

from prspace.core.errors import InputError

__all__ = [
    "OPENML_TABLES",
    "STUDY_TABLES",
    "ReportTable",
    "boyd_report_tables",
    "own_data_args",
    "predict_command",
    "report_tables",
    "select_command",
    "skew_reference_path",
    "study_targets",
    "table_html_args",
    "verdict_inputs",
    "report_front_page",
]


class ReportTable(NamedTuple):
    """How one result table appears in the Snakemake report."""

    title: str
    category: str
    subcategory: str | None
    #: caption file relative to ``workflow/rules`` (None: ``../report/<name>.rst``)
    caption: str | None = None


#: name -> report entry of the tables every study makes (rule report_tables)
STUDY_TABLES: dict[str, ReportTable] = {
    "verdicts": ReportTable("Verdicts: every claim of both papers, by the rule of docs/verdicts.md", "Tables", "0 Verdicts"),
    "sensitivity": ReportTable("Sensitivity: each primary claim's verdict on other views of the population", "Tables", "0 Verdicts"),
    "scorecard": ReportTable("Replication scorecard: Flach & Kull (2015), section 4", "Tables", "1 Ranking"),
    "disagreement_summary": ReportTable("Rank disagreement between metrics, with bootstrap 95% intervals", "Tables", "1 Ranking"),
    "disagreement_per_task": ReportTable("Rank disagreement per task and metric pair", "Tables", "1 Ranking"),
    "auroc_bounds": ReportTable("What a given AUROC allows: top-1 disagreements with AUROC that the AUROC gap permits", "Tables", "1 Ranking"),
    "learner_ranking": ReportTable("Learners ranked across tasks by mean AUPR, AUCNPR and AUPRG", "Tables", "2 Learners across tasks"),
    "learner_agreement": ReportTable("Do the learners' orders by mean metric agree?", "Tables", "2 Learners across tasks"),
    "tasks": ReportTable("Tasks of the study", "Tables", "3 Data"),
    "figure_selection": ReportTable("Tasks and models drawn in Figures 4 (right) and 5", "Tables", "3 Data"),
    "metrics": ReportTable("Metrics per task and model (pooled over folds; fold mean and spread)", "Tables", "3 Data"),
    "noise_floor_per_task": ReportTable("Noise floor: how often a metric disagrees with itself on resampled test rows", "Tables", "4 Noise, skew and panel"),
    "noise_floor_pairs": ReportTable("Noise floor: are the two preferred models distinguishable?", "Tables", "4 Noise, skew and panel"),
    "calibration_summary": ReportTable("Calibration of the distinguishable check: false rate and the smallest reversal detected with 80% power", "Tables", "4 Noise, skew and panel"),
    "calibration": ReportTable("Calibration of the distinguishable check: every simulated scenario", "Tables", "4 Noise, skew and panel"),
    "noise_evidence": ReportTable("Evidence rows: is the metrics' disagreement more than noise?", "Tables", "4 Noise, skew and panel"),
    "rank_sets": ReportTable("Confidence sets for ranks per task and metric: rank intervals and plausible-best sets", "Tables", "4 Noise, skew and panel"),
    "rank_set_summary": ReportTable("Disjoint plausible-best sets: disagreement on the best model real by construction", "Tables", "4 Noise, skew and panel"),
    "rank_set_calibration": ReportTable("Calibration of disjoint plausible-best sets: false rate and power by simulation", "Tables", "4 Noise, skew and panel"),
    "rank_set_evidence": ReportTable("Evidence rows: disjoint plausible-best sets per metric pair", "Tables", "4 Noise, skew and panel"),
    "controlled_skew": ReportTable("Skew isolated: the same models with the negatives reweighted", "Tables", "4 Noise, skew and panel", "../report/controlled_skew_table.rst"),
    "controlled_skew_observed": ReportTable("Observed disagreement by pi bin and by number of positives", "Tables", "4 Noise, skew and panel"),
    "controlled_skew_trend": ReportTable("Skew isolated: how fast each pair's disagreement rises as pi falls", "Tables", "4 Noise, skew and panel"),
    "controlled_skew_counterfactual": ReportTable("Skew counterfactual: this study's disagreement at a reference population's pi", "Tables", "4 Noise, skew and panel"),
    "disagreement_by_balance": ReportTable("Observed disagreement by balance level of the task", "Tables", "4 Noise, skew and panel"),
    "skew_evidence": ReportTable("Evidence rows: skew as the explanation of the disagreement", "Tables", "4 Noise, skew and panel"),
    "controlled_skew_per_task": ReportTable("Skew isolated, per task: disagreement at each target pi with the negatives reweighted", "Tables", "4 Noise, skew and panel"),
    "controlled_skew_counterfactual_per_task": ReportTable("Skew counterfactual, per task: each task's disagreement at its reference pi", "Tables", "4 Noise, skew and panel"),
    "panel_sensitivity": ReportTable("Panel sensitivity: every model vs one model per learner family", "Tables", "4 Noise, skew and panel"),
    "learner_winners": ReportTable("The best learner across tasks, its margin and the tasks that decide it", "Tables", "2 Learners across tasks"),
    "cd_tests": ReportTable("Critical-difference diagrams: Friedman test and Nemenyi critical difference per metric", "Tables", "2 Learners across tasks"),
    "cd_metric_pairs": ReportTable("Do two metrics order the learners differently across tasks beyond noise?", "Tables", "2 Learners across tasks"),
    "cd_cliques": ReportTable("Cliques of the critical-difference diagrams: learners not significantly different", "Tables", "2 Learners across tasks"),
    "cd_ranks": ReportTable("Learners' average ranks across tasks per metric (critical-difference diagrams)", "Tables", "2 Learners across tasks"),
}  # fmt: skip

#: name -> report entry of the tables of an OpenML study (rule openml_report_tables)
OPENML_TABLES: dict[str, ReportTable] = {
    name: ReportTable(title, "OpenML", None, f"../report/openml/{name}.rst")
    for name, title in {
        "openml_study": "This OpenML study: source, draw, experiments run and left out",
        "openml_selfcheck_summary": "Self-check: our AUROC vs OpenML's evaluation engine (summary)",
        "openml_selfcheck": "Self-check: our AUROC vs OpenML's evaluation engine, per run and fold",
    }.items()
}


def boyd_report_tables(config: Mapping[str, Any]) -> dict[str, ReportTable]:
    """The Boyd et al. tables a study makes (as ``boyd.smk`` decides from ``config['boyd']``;
    the downsampling experiment needs a local source), for the report."""
    b = config["boyd"]
    if not b["enabled"]:
        return {}
    groups: list[tuple[str, dict[str, str]]] = [
        ("Verdict evidence", {"boyd_evidence": "Boyd et al.: the evidence row of every claim the study checked",
                              "boyd_evidence_values": "Boyd et al.: the per-task values each interval row resampled"}),
    ]
    if b["theory"]:
        groups.append(("Paper tables", {
            "boyd_table3_check": "Boyd Table 3: AUCNPR recomputed from AUCPR and skew",
            "boyd_table2_check": "Boyd Table 2: the skews the table implies",
        }))
        groups.append(("Theory", {"boyd_fig_pr_prg_source": "Scores drawn in the PR/PRG figure"}))
    if b["downsampling"]["enabled"] and config["source"] == "local":
        groups.append(("Downsampling (section 4.3)", {
            "boyd_downsampling_table3": "Downsampling: Boyd Table 3 per task and learner",
            "boyd_downsampling_summary": "Downsampling: summary over tasks",
            "boyd_downsampling_vs_paper": "Downsampling: this study beside the paper",
        }))
    if b["fold_skew"]["enabled"]:
        groups.append(("Fold skew (section 4.1)", {
            "boyd_fold_skew_summary": "Fold skew: bias of each aggregate per dispersion",
            "boyd_fold_skew_per_task": "Fold skew: bias per task and dispersion",
            "boyd_fold_skew_mechanism": "Fold skew on one simulated model: the sign of the averaging bias",
        }))
    if b["aggregation"]["enabled"]:
        groups.append(("Aggregation over tasks (section 4.2)", {
            "boyd_aggregation_tasks": "Aggregation: metrics per task and learner",
            "boyd_aggregation_learners": "Aggregation: learners' means over tasks",
            "boyd_aggregation_agreement": "Aggregation: do the learners' orders agree?",
            "boyd_aggregation_skew_correlation": "Aggregation: metrics against skew",
            "boyd_aggregation_skew_groups": "Aggregation: learners within skew groups",
        }))
    return {
        name: ReportTable(title, "Boyd et al. 2012", sub, f"../report/boyd/{name}.rst")
        for sub, tables in groups
        for name, title in tables.items()
    }  # fmt: skip


def report_tables(config: Mapping[str, Any]) -> dict[str, ReportTable]:
    """Every table of a study's report except the OpenML ones: :data:`STUDY_TABLES` and
    :func:`boyd_report_tables`."""
    return {**STUDY_TABLES, **boyd_report_tables(config)}


#: Tables of ``prspace rank`` (rule rank), each as CSV and Markdown.
RANK_TABLES = ("disagreement_summary", "scorecard", "learner_ranking", "learner_agreement", "learner_winners",
               "panel_sensitivity")
#: Tables of ``prspace controlled-skew``: the grid, the observed bins, the trend, the counterfactual at
#: analysis.skew_reference's pi, the observed shares by balance level and the evidence rows.
SKEW_TABLES = ("controlled_skew", "controlled_skew_observed", "controlled_skew_trend", "controlled_skew_counterfactual",
               "disagreement_by_balance", "skew_evidence")
#: Tables of ``prspace rank-sets summary`` (rule rank_set_summary); ``rank_sets.csv`` is the per-task table.
RANK_SET_TABLES = ("rank_set_summary", "rank_set_calibration", "rank_set_evidence")
#: Tables of ``prspace cd`` (rule cd): critical-difference diagrams across tasks.
CD_TABLES = ("cd_ranks", "cd_cliques", "cd_tests", "cd_metric_pairs")
#: Flach & Kull's Figures 4 and 5 (rules figure_<name>), drawn from the tables of ``prspace figure-data``.
STUDY_FIGURES = ("fig4_rank_heatmap", "fig4_auprg_vs_aupr", "fig5_curves")
#: Boyd et al.'s Figures 1-4 (rules figure_<name>), drawn from the tables of ``prspace boyd theory-data``.
BOYD_THEORY_FIGURES = ("boyd_fig1_min_pr_curve", "boyd_fig2_min_pr_curves", "boyd_fig3_aucpr_min",
                       "boyd_fig4_f1_contours")
#: Tables of ``prspace boyd aggregation``.
BOYD_AGGREGATION_TABLES = ("boyd_aggregation_tasks", "boyd_aggregation_learners", "boyd_aggregation_agreement",
                           "boyd_aggregation_skew_correlation", "boyd_aggregation_skew_groups")


def boyd_formats(config: Mapping[str, Any]) -> list[str]:
    """The formats of the Boyd figures: the study's ``analysis.figure_formats`` and always PNG (the report's)."""
    return sorted(set(config["analysis"]["figure_formats"]) | {"png"})


def study_targets(config: Mapping[str, Any]) -> list[str]:
    """Every output a study makes (the inputs of rules ``all`` and ``verify``), from its validated
    configuration, as paths relative to the working directory; the one list of them.

    Every study: the metrics and task tables, the tables of ``rank``, ``noise-floor``, ``calibrate``,
    ``noise-evidence``, ``controlled-skew``, ``auroc-bounds``, ``rank-sets`` and ``cd`` (CSV and
    Markdown), Figures 4 and 5, the controlled-skew figure and the critical-difference diagrams (``analysis.figure_formats``), the verdicts and their sensitivity table, summary and findings, and the
    report's HTML tables (:func:`report_tables`).  ``boyd.enabled``: the evidence rows, and with
    ``boyd.theory`` the theory figures, the PR/PRG figure and the paper tables; the downsampling
    experiment (``boyd.downsampling.enabled``, a local source only), the fold-skew experiment and the
    aggregation over tasks, each when enabled (figures in :func:`boyd_formats`).  An OpenML study
    adds its manifest and its report tables (:data:`OPENML_TABLES`).
    """
    study = config["study"]
    results, work = f"results/{study}", f"work/{study}"
    tables, figures = f"{results}/tables", f"{results}/figures"
    formats = list(config["analysis"]["figure_formats"])

    def both(*names: str) -> list[str]:
        return [f"{tables}/{n}.{ext}" for n in names for ext in ("csv", "md")]

    def figs(names: Iterable[str], exts: Iterable[str]) -> list[str]:
        exts = list(exts)
        return [f"{figures}/{n}.{ext}" for n in names for ext in exts]

    out = [f"{tables}/metrics.csv", f"{tables}/tasks.csv", f"{tables}/tasks.md", f"{tables}/disagreement_per_task.csv",
           *both(*RANK_TABLES), *figs(STUDY_FIGURES, formats), f"{tables}/figure_selection.csv",
           f"{tables}/noise_floor_per_task.csv", f"{tables}/noise_floor_pairs.csv", *both("calibration", "calibration_summary"),
           *both("noise_evidence"), *both(*SKEW_TABLES), *figs(["controlled_skew"], formats),
           f"{tables}/controlled_skew_per_task.csv", f"{tables}/controlled_skew_counterfactual_per_task.csv",
           *both("auroc_bounds"), f"{tables}/rank_sets.csv", *both(*RANK_SET_TABLES), *both(*CD_TABLES),
           *figs(["cd_diagram"], formats),
           f"{work}/report/front.rst", *both("verdicts", "sensitivity"), f"{results}/summary.md", f"{results}/findings.md",
           *(f"{work}/report/{name}.html" for name in report_tables(config))]
    b = config["boyd"]
    if b["enabled"]:
        bf = boyd_formats(config)
        out += [f"{tables}/boyd_evidence.csv", f"{tables}/boyd_evidence_values.csv"]
        if b["theory"]:
            out += [*figs([*BOYD_THEORY_FIGURES, "boyd_fig_pr_prg"], bf), *both("boyd_table3_check", "boyd_table2_check"),
                    f"{tables}/boyd_fig_pr_prg_source.csv"]
        if b["downsampling"]["enabled"] and config["source"] == "local":
            out += [*figs(["boyd_downsampling"], bf),
                    *both("boyd_downsampling_table3", "boyd_downsampling_summary", "boyd_downsampling_vs_paper")]
        if b["fold_skew"]["enabled"]:
            out += [*figs(["boyd_fold_skew"], bf), *both("boyd_fold_skew_summary", "boyd_fold_skew_per_task",
                                                                    "boyd_fold_skew_mechanism")]
        if b["aggregation"]["enabled"]:
            out += [*figs(["boyd_aggregation"], bf), *both(*BOYD_AGGREGATION_TABLES)]
    if config["source"] == "openml":
        out += [f"{results}/openml-manifest.json", *(f"{work}/report/{name}.html" for name in OPENML_TABLES)]
    return out


def table_html_args(
    tables: Mapping[str, ReportTable], inputs: Iterable[str], outputs: Iterable[str], *, study: str
) -> str:
    """The ``--table CSV HTML TITLE`` arguments of ``prspace table-html``, one per table
    (``inputs`` and ``outputs`` in the order of ``tables``)."""
    return " ".join(
        f"--table {quote(str(i))} {quote(str(o))} {quote(f'{t.title} (study {study})')}"
        for t, i, o in zip(tables.values(), inputs, outputs, strict=True)
    )


def own_data_args(local: Mapping[str, Any]) -> str:
    """``--data-dir DIR --target COL [--pos-label L]`` for your own data (``local.data_dir``),
    else empty."""
    return " ".join(_data_args(local)) if local["data_dir"] else ""


def _data_args(local: Mapping[str, Any]) -> list[str]:
    """Where a local study's data come from: your own folder or an embedded suite."""
    if not local["data_dir"]:
        return [f"--suite {quote(str(local['suite']))}"]
    args = [f"--data-dir {quote(str(local['data_dir']))}", f"--target {quote(str(local['target']))}"]
    if local.get("pos_label") is not None:
        args.append(f"--pos-label {quote(str(local['pos_label']))}")
    return args


def select_command(config: Mapping[str, Any], prspace: str) -> str:
    """The command that writes the study's task list (checkpoint ``select_tasks``), without
    ``--out``: ``prspace list-datasets`` for a local source, ``prspace fetch-openml select``
    for OpenML (with ``openml.replay``: from the manifest, no listing call)."""
    if config["source"] == "local":
        c = config["local"]
        return " ".join(
            [f"{prspace} list-datasets", f"--min-minority {c['min_minority']}", *_data_args(c)]
        )
    c = config["openml"]
    args = [
        f"{prspace} fetch-openml select",
        f"--server {quote(str(c['server']))}",
        f"--cache-dir {quote(str(c['cache_dir']))}",
        f"--min-flows {c['min_flows']}",
        f"--seed {config['seed']}",
        f"--page-size {c['page_size']}",
    ]
    if c["replay"]:
        return " ".join([*args, f"--manifest {quote(str(c['replay']))}"])
    if c["task_ids"]:
        args.append("--task-ids " + ",".join(map(str, c["task_ids"])))
    for key in ("tag", "suite", "study"):
        if c[key] is not None:
            args.append(f"--{key} {quote(str(c[key]))}")
    if c["discover"]:
        args.append("--discover")
    if c["max_tasks"] is not None:
        args.append(f"--max-tasks {c['max_tasks']}")
    return " ".join(args)


def predict_command(config: Mapping[str, Any], task: str, prspace: str) -> str:
    """The command that writes one task's predictions (rule ``predict``), without ``--out``
    and ``--status``: ``prspace predict-local`` (local learners) or ``prspace fetch-openml
    task`` (the task's OpenML runs)."""
    if config["source"] == "local":
        c = config["local"]
        return " ".join(
            [
                f"{prspace} predict-local --dataset {quote(task)}",
                *_data_args(c),
                f"--learners {quote(str(c['learners']))} --folds {c['folds']} --seed {config['seed']}",
            ]
        )
    c = config["openml"]
    args = [
        f"{prspace} fetch-openml task --server {quote(str(c['server']))}",
        f"--cache-dir {quote(str(c['cache_dir']))} --task-id {quote(task.removeprefix('openml-'))}",
        f"--n-models {c['n_models']} --min-flows {c['min_flows']} --seed {config['seed']}",
        f"--repeats {c['repeats']} --workers {c['workers']} --page-size {c['page_size']}",
    ]
    if c["replay"]:
        args.append(f"--manifest {quote(str(c['replay']))}")
    return " ".join(args)


#: evidence tables every study writes (rule verdicts reads them), and those of Boyd's experiments
STUDY_EVIDENCE = ("disagreement_summary", "disagreement_per_task", "tasks", "learner_winners", "noise_evidence",
                  "rank_set_evidence", "skew_evidence", "cd_metric_pairs", "metrics", "rank_sets")
BOYD_EVIDENCE = ("boyd_evidence",)


def verdict_inputs(config: Mapping[str, Any], tables: str) -> dict[str, str]:
    """The tables rule ``verdicts`` reads: the study's, plus Boyd's when his experiments run."""
    names = STUDY_EVIDENCE + (BOYD_EVIDENCE if config.get("boyd", {}).get("enabled", False) else ())
    return {name: f"{tables}/{name}.csv" for name in names}


def report_front_page(config: Mapping[str, Any], basedir: str) -> str:
    """The report's front page: the one rule ``verdicts`` generated (the static description, then
    the answer first) once the study has run, else the static description."""
    generated = os.path.join("work", str(config["study"]), "report", "front.rst")
    return os.path.abspath(generated) if os.path.isfile(generated) else os.path.join(basedir, "workflow", "report", "workflow.rst")


def skew_reference_path(reference: str, *, own_tasks: str, work_dir: str | Path, base_dir: str | Path) -> str:
    """The file the controlled-skew rule reads as ``analysis.skew_reference``.

    The study's own task table (``own_tasks``) is made by this run and named as is; any other
    relative path is read in the working directory if it is there, else in the workflow's own
    folder (the committed table of a clone, when the study runs with ``--directory``).
    Raises :class:`prspace.core.errors.InputError` naming the key when neither holds it.
    """
    p = Path(reference)
    if reference == own_tasks or (Path(work_dir) / p).exists():
        return reference
    shipped = Path(base_dir) / p
    if not p.is_absolute() and shipped.exists():
        return str(shipped)
    raise InputError(f"config key analysis.skew_reference: no file {reference} (looked in {work_dir} and {base_dir}); "
                     "name a finished study's tables/tasks.csv, e.g. results/paperlike/tables/tasks.csv")
