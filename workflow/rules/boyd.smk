# Boyd, Santos Costa, Davis and Page (ICML 2012): the unachievable region of PR space.
# Theory figures, checks of the paper's Tables 2 and 3, and the experiments of section 4:
# fold skew (4.1), aggregation over tasks (4.2), downsampling (4.3).  All logic lives in
# prspace (`prspace boyd ...`); settings: the boyd: section (workflow/schemas/boyd.schema.yaml,
# docs/boyd.md).

# The figures (rules figure_boyd_*) are drawn by the one loop of figures.smk from the tables
# (full precision, under work/<study>/figure_data) that the analysis rules here write.

import shlex

from prspace.study.workflow_commands import BOYD_AGGREGATION_TABLES as BOYD_AG_TABLES
from prspace.study.workflow_commands import BOYD_THEORY_FIGURES, own_data_args

BOYD = config["boyd"]
BOYD_WORK = f"{WORK}/boyd"
BOYD_DS = BOYD["downsampling"]
BOYD_FS = BOYD["fold_skew"]
BOYD_AG = BOYD["aggregation"]
BOYD_EV = BOYD["evidence"]
BOYD_TABLE_SUBCATEGORY = {
    "boyd_table3_check": "Paper tables",
    "boyd_table2_check": "Paper tables",
    **{n: "Downsampling (section 4.3)" for n in ["boyd_downsampling_table3", "boyd_downsampling_summary",
                                                   "boyd_downsampling_vs_paper"]},
    "boyd_fold_skew_summary": "Fold skew (section 4.1)",
    "boyd_fold_skew_mechanism": "Fold skew (section 4.1)",
    **{n: "Aggregation over tasks (section 4.2)" for n in BOYD_AG_TABLES},
}
# tables are shown in the report as HTML pages (rule report_tables in report.smk), not CSV downloads
BOYD_TAB = {n: f"{TABLES}/{n}.csv" for n in BOYD_TABLE_SUBCATEGORY}
# your own data (local.data_dir): the downsampling step reads the files itself
BOYD_DATA_ARGS = own_data_args(config["local"])

# the tasks of sections 4.3 and 4.1 (prspace.study.workflow_inputs.StudyInputs), as input functions
BOYD_DS_RUNS = f"{BOYD_WORK}/downsampling/{{task}}.parquet"
BOYD_FS_RUNS = f"{BOYD_WORK}/fold_skew/{{task}}.parquet"


rule boyd_theory_data:
    """The tables of Boyd et al. Figures 1-4: exact curves from prspace.metrics (no data)."""
    output:
        tables=expand(f"{FIGURE_DATA}/{{name}}.csv", name=BOYD_THEORY_FIGURES),
    log:
        JOBS.log("boyd_theory_data"),
    benchmark:
        JOBS.benchmark("boyd_theory_data")
    params:
        prspace=PRSPACE,
        out=output_folder("tables"),
    shell:
        "{params.prspace} boyd theory-data --out-dir {params.out} > {log} 2>&1"


rule boyd_paper_tables:
    """Boyd's Table 3 (AUCNPR recomputed from AUCPR and skew) and Table 2 (implied skews)."""
    output:
        t3=BOYD_TAB["boyd_table3_check"],
        t3_md=f"{TABLES}/boyd_table3_check.md",
        t2=BOYD_TAB["boyd_table2_check"],
        t2_md=f"{TABLES}/boyd_table2_check.md",
    log:
        JOBS.log("boyd_paper_tables"),
    benchmark:
        JOBS.benchmark("boyd_paper_tables")
    params:
        prspace=PRSPACE,
        tables=output_folder("t3"),
    shell:
        "{params.prspace} boyd paper-tables --out-dir {params.tables} > {log} 2>&1"


rule boyd_pr_prg:
    """The tables of Flach and Kull Figure 2 (PR beside PRG) for one real model's scores on one test fold."""
    input:
        status=per_task(PREDICTION_STATUS),
    output:
        tables=expand(f"{FIGURE_DATA}/boyd_fig_pr_prg_{{name}}.csv", name=["points", "areas", "hull", "isometrics", "text"]),
        selection=f"{TABLES}/boyd_fig_pr_prg_source.csv",
    log:
        JOBS.log("boyd_pr_prg"),
    benchmark:
        JOBS.benchmark("boyd_pr_prg")
    params:
        task=BOYD["pr_prg"]["task"],
        model=BOYD["pr_prg"]["model"],
        target=BOYD["pr_prg"]["target_positives"],
        prspace=PRSPACE,
        out=output_folder("tables"),
    shell:
        "{params.prspace} boyd pr-prg --status {input.status} --task '{params.task}' --model '{params.model}' "
        "--target-positives {params.target} --figure-data-dir {params.out} "
        "--selection-out {output.selection} > {log} 2>&1"


rule boyd_downsample:
    """One task's downsampling runs: train at 1:k, test on downsampled and original test folds."""
    input:
        tasks=ancient(TASK_LIST),  # a new task list alone does not change this task's runs
        data=data_file,  # your own data file of the task (reruns when it changes)
    output:
        BOYD_DS_RUNS,
    log:
        JOBS.log("boyd_downsample", task=True),
    benchmark:
        JOBS.benchmark("boyd_downsample", task=True)
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    params:
        data=BOYD_DATA_ARGS,
        learners=BOYD_DS["learners"],
        ratios=",".join(str(r) for r in BOYD_DS["ratios"]),
        prspace=PRSPACE,
        seed=SEED,
        folds=BOYD_DS["folds"],
        repeats=BOYD_DS["repeats"],
        max_pi=BOYD_DS["max_pi"],
    shell:
        "{params.prspace} boyd downsample --dataset {wildcards.task} {params.data} --learners '{params.learners}' "
        "--ratios {params.ratios} --folds {params.folds} --repeats {params.repeats} --seed {params.seed} "
        "--max-pi {params.max_pi} --out {output} > {log} 2>&1"


rule boyd_downsampling_report:
    """Table 3 per task and learner, summary over tasks, and the tables of the downsampling figure."""
    input:
        runs=INPUTS.downsampling_runs(BOYD_DS_RUNS),
    output:
        table3=BOYD_TAB["boyd_downsampling_table3"],
        table3_md=f"{TABLES}/boyd_downsampling_table3.md",
        summary=BOYD_TAB["boyd_downsampling_summary"],
        summary_md=f"{TABLES}/boyd_downsampling_summary.md",
        vs_paper=BOYD_TAB["boyd_downsampling_vs_paper"],
        vs_paper_md=f"{TABLES}/boyd_downsampling_vs_paper.md",
        figure_data=expand(f"{FIGURE_DATA}/boyd_downsampling_{{name}}.csv", name=["levels", "axis", "paper", "text"]),
    log:
        JOBS.log("boyd_downsampling_report"),
    benchmark:
        JOBS.benchmark("boyd_downsampling_report")
    params:
        criteria=(
            f"pi <= {BOYD_DS['max_pi']}, at least {BOYD_DS['min_positives']} positives, "
            + ("every such task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks (lowest pi first)")
        ),
        prspace=PRSPACE,
        study=STUDY,
        tables=output_folder("table3"),
        figure_data=output_folder("figure_data"),
    shell:
        "{params.prspace} boyd downsampling-report --runs {input.runs} --tables-dir {params.tables} --figure-data-dir {params.figure_data} "
        "--study {params.study} --criteria '{params.criteria}' > {log} 2>&1"


rule boyd_fold_skew:
    """One task's fold-skew runs: aggregates on skewed vs stratified test folds."""
    input:
        status=PREDICTION_STATUS,
    output:
        BOYD_FS_RUNS,
    log:
        JOBS.log("boyd_fold_skew", task=True),
    benchmark:
        JOBS.benchmark("boyd_fold_skew", task=True)
    threads: 1
    params:
        dispersions=",".join(str(d) for d in BOYD_FS["dispersions"]),
        prspace=PRSPACE,
        seed=SEED,
        seeds=BOYD_FS["seeds"],
        max_repeats=BOYD_FS["max_repeats"],
    shell:
        "{params.prspace} boyd fold-skew --status {input.status} --dispersions {params.dispersions} "
        "--seeds {params.seeds} --max-repeats {params.max_repeats} --seed {params.seed} --out {output} > {log} 2>&1"


rule boyd_fold_skew_report:
    """Bias of each aggregate and ranking changes against dispersion, and the tables of the figure."""
    input:
        runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS),
    output:
        summary=BOYD_TAB["boyd_fold_skew_summary"],
        summary_md=f"{TABLES}/boyd_fold_skew_summary.md",
        per_task=f"{TABLES}/boyd_fold_skew_per_task.csv",
        per_task_md=f"{TABLES}/boyd_fold_skew_per_task.md",
        figure_data=expand(f"{FIGURE_DATA}/boyd_fold_skew_{{name}}.csv", name=["lines", "text"]),
    log:
        JOBS.log("boyd_fold_skew_report"),
    benchmark:
        JOBS.benchmark("boyd_fold_skew_report")
    params:
        criteria=(
            f"tasks with at least {BOYD_FS['min_positives']} positives"
            + (f", at most {BOYD_FS['max_tasks']} (lowest pi first)" if BOYD_FS["max_tasks"] else "")
            + f"; {BOYD_FS['seeds']} seeds per dispersion"
        ),
        prspace=PRSPACE,
        study=STUDY,
        tables=output_folder("summary"),
        figure_data=output_folder("figure_data"),
    shell:
        "{params.prspace} boyd fold-skew-report --runs {input.runs} --tables-dir {params.tables} --figure-data-dir {params.figure_data} "
        "--study {params.study} --criteria '{params.criteria}' > {log} 2>&1"


rule boyd_fold_skew_mechanism:
    """Section 4.1 on one simulated model (no data): the sign of the averaging bias, worst ranking to good model."""
    output:
        table=BOYD_TAB["boyd_fold_skew_mechanism"],
        table_md=f"{TABLES}/boyd_fold_skew_mechanism.md",
    log:
        JOBS.log("boyd_fold_skew_mechanism"),
    benchmark:
        JOBS.benchmark("boyd_fold_skew_mechanism")
    params:
        prspace=PRSPACE,
        seed=SEED,
        n_sim=BOYD_EV["mechanism_n_sim"],
        tables=output_folder("table"),
    shell:
        "{params.prspace} boyd fold-skew-mechanism --n-sim {params.n_sim} --seed {params.seed} "
        "--tables-dir {params.tables} > {log} 2>&1"


rule boyd_aggregation:
    """Learners' mean AUPR / AUCNPR / AUPRG / AUROC over tasks of different skew, and the tables of the figure."""
    input:
        metrics=METRICS_TABLE,
    output:
        tasks=BOYD_TAB["boyd_aggregation_tasks"],
        learners=BOYD_TAB["boyd_aggregation_learners"],
        corr=BOYD_TAB["boyd_aggregation_skew_correlation"],
        other=expand(f"{TABLES}/{{name}}.{{ext}}", name=BOYD_AG_TABLES, ext=["md"])
        + [f"{TABLES}/boyd_aggregation_agreement.csv", f"{TABLES}/boyd_aggregation_skew_groups.csv"],
        figure_data=expand(f"{FIGURE_DATA}/boyd_aggregation_{{name}}.csv", name=["points", "task_means", "min_curve", "ranks", "text"]),
    log:
        JOBS.log("boyd_aggregation"),
    benchmark:
        JOBS.benchmark("boyd_aggregation")
    params:
        prspace=PRSPACE,
        study=STUDY,
        learner=BOYD_AG["learner"],
        skew_groups=BOYD_AG["skew_groups"],
        tables=output_folder("tasks"),
        figure_data=output_folder("figure_data"),
    shell:
        "{params.prspace} boyd aggregation --metrics {input.metrics} --learner {params.learner} "
        "--skew-groups {params.skew_groups} --tables-dir {params.tables} --figure-data-dir {params.figure_data} "
        "--study {params.study} > {log} 2>&1"


BOYD_EVIDENCE_DS = BOYD_DS["enabled"] and SOURCE == "local"


rule boyd_evidence:
    """One evidence row per Boyd et al. claim of the registry (theorems, Tables 2-3, sections 4.1 and 4.3) and
    this project's exploratory rows about them, for rule verdicts."""
    input:
        tasks=f"{TABLES}/tasks.csv",
        metrics=[METRICS_TABLE] if BOYD_AG["enabled"] else [],
        mechanism=[BOYD_TAB["boyd_fold_skew_mechanism"]] if BOYD_FS["enabled"] else [],
        ds_runs=INPUTS.downsampling_runs(BOYD_DS_RUNS, enabled=BOYD_EVIDENCE_DS),
        fs_runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS, enabled=BOYD_FS["enabled"]),
    output:
        evidence=f"{TABLES}/boyd_evidence.csv",
        values=f"{TABLES}/boyd_evidence_values.csv",
    log:
        JOBS.log("boyd_evidence"),
    benchmark:
        JOBS.benchmark("boyd_evidence")
    params:
        metrics="--metrics" if BOYD_AG["enabled"] else "",
        mechanism="--mechanism" if BOYD_FS["enabled"] else "",
        ds_runs="--downsampling-runs" if BOYD_EVIDENCE_DS else "",
        fs_runs="--fold-skew-runs" if BOYD_FS["enabled"] else "",
        n_resamples=BOYD_EV["n_resamples"],
        prspace=PRSPACE,
        seed=SEED,
        learner=BOYD_AG["learner"],
        max_pi=BOYD_DS["max_pi"],
        min_positives=BOYD_DS["min_positives"],
        scope=shlex.quote(
            f"Learners: panel {BOYD_DS['learners']}; {BOYD_DS['repeats']} x {BOYD_DS['folds']}-fold cross-validation; "
            + ("every eligible task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks")
            + f". {BOYD_DS['scope_note']}"
        ),
    shell:
        "{params.prspace} boyd evidence --tasks {input.tasks} {params.metrics} {input.metrics} "
        "{params.mechanism} {input.mechanism} {params.ds_runs} {input.ds_runs} {params.fs_runs} {input.fs_runs} "
        "--learner {params.learner} --n-resamples {params.n_resamples} --seed {params.seed} "
        "--max-pi {params.max_pi} --min-positives {params.min_positives} --downsampling-scope {params.scope} "
        "--out {output.evidence} --values-out {output.values} > {log} 2>&1"
