# Boyd, Santos Costa, Davis and Page (ICML 2012): the unachievable region of PR space.
# Theory figures, checks of the paper's Tables 2 and 3, and the experiments of section 4:
# fold skew (4.1), aggregation over tasks (4.2), downsampling (4.3).  All logic lives in
# prspace (`prspace step <rule>`, prspace.experiments.boyd_steps; the per-task runs `prspace boyd
# downsample` / `fold-skew`); settings: the boyd: section (workflow/schemas/boyd.schema.yaml,
# docs/boyd.md).  The figures (rules figure_boyd_*) are drawn by the loop of figures.smk from the
# tables (full precision, under work/<study>/figure_data) that the rules here write.

from prspace.study.step_args import step_inputs, step_settings
from prspace.study.workflow_commands import own_data_args

BOYD = config["boyd"]
BOYD_DS = BOYD["downsampling"]
BOYD_FS = BOYD["fold_skew"]
BOYD_AG = BOYD["aggregation"]
BOYD_EV = BOYD["evidence"]
# your own data (local.data_dir): the downsampling step reads the files itself
BOYD_DATA_ARGS = own_data_args(config["local"])
# the tasks of sections 4.3 and 4.1 (prspace.study.workflow_inputs.StudyInputs), as input functions
BOYD_DS_RUNS = f"{WORK}/boyd/downsampling/{{task}}.parquet"
BOYD_FS_RUNS = f"{WORK}/boyd/fold_skew/{{task}}.parquet"


rule boyd_theory_data:
    """The tables of Boyd et al. Figures 1-4: exact curves from prspace.metrics (no data)."""
    output: tables=FILES.figure_data(R.STEP_BOYD_THEORY_DATA),
    log: JOBS.log(R.STEP_BOYD_THEORY_DATA),
    benchmark: JOBS.benchmark(R.STEP_BOYD_THEORY_DATA)
    params: step=R.STEP_BOYD_THEORY_DATA.name, prspace=PRSPACE, out=output_folder("tables"),
    shell:
        "{params.prspace} step {params.step} --figure-data-dir {params.out} > {log} 2>&1"


rule boyd_paper_tables:
    """Boyd's Table 3 (AUCNPR recomputed from AUCPR and skew) and Table 2 (implied skews)."""
    output: tables=FILES.tables(R.STEP_BOYD_PAPER_TABLES),
    log: JOBS.log(R.STEP_BOYD_PAPER_TABLES),
    benchmark: JOBS.benchmark(R.STEP_BOYD_PAPER_TABLES)
    params: step=R.STEP_BOYD_PAPER_TABLES.name, prspace=PRSPACE, tables=output_folder("tables"),
    shell:
        "{params.prspace} step {params.step} --tables-dir {params.tables} > {log} 2>&1"


rule boyd_pr_prg:
    """The tables of Flach and Kull Figure 2 (PR beside PRG) for one real model's scores on one test fold."""
    input: status=per_task(PREDICTION_STATUS),
    output: tables=FILES.figure_data(R.STEP_BOYD_PR_PRG), selection=FILES.csv(R.BOYD_FIG_PR_PRG_SOURCE),
    log: JOBS.log(R.STEP_BOYD_PR_PRG),
    benchmark: JOBS.benchmark(R.STEP_BOYD_PR_PRG)
    params:
        step=R.STEP_BOYD_PR_PRG.name,
        settings=step_settings(task=BOYD["pr_prg"]["task"], model=BOYD["pr_prg"]["model"],
                               target_positives=BOYD["pr_prg"]["target_positives"]),
        prspace=PRSPACE,
        out=output_folder("tables"),
        tables=output_folder("selection"),
    shell:
        "{params.prspace} step {params.step} --in status={input.status} {params.settings} --tables-dir {params.tables} "
        "--figure-data-dir {params.out} > {log} 2>&1"


rule boyd_downsample:
    """One task's downsampling runs: train at 1:k, test on downsampled and original test folds."""
    input:
        tasks=ancient(TASK_LIST),  # a new task list alone does not change this task's runs
        data=data_file,  # your own data file of the task (reruns when it changes)
    output: BOYD_DS_RUNS,
    log: JOBS.log(R.STEP_BOYD_DOWNSAMPLE, task=True),
    benchmark: JOBS.benchmark(R.STEP_BOYD_DOWNSAMPLE, task=True)
    threads: 1
    resources: mem_mb=3000, runtime=60,
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
    input: runs=INPUTS.downsampling_runs(BOYD_DS_RUNS),
    output:
        tables=FILES.tables(R.STEP_BOYD_DOWNSAMPLING_REPORT),
        figure_data=FILES.figure_data(R.STEP_BOYD_DOWNSAMPLING_REPORT),
    log: JOBS.log(R.STEP_BOYD_DOWNSAMPLING_REPORT),
    benchmark: JOBS.benchmark(R.STEP_BOYD_DOWNSAMPLING_REPORT)
    params:
        step=R.STEP_BOYD_DOWNSAMPLING_REPORT.name,
        inputs=step_inputs("runs"),
        settings=step_settings(study=STUDY, criteria=(
            f"pi <= {BOYD_DS['max_pi']}, at least {BOYD_DS['min_positives']} positives, "
            + ("every such task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks (lowest pi first)")
        )),
        prspace=PRSPACE,
        tables=output_folder("tables"),
        figure_data=output_folder("figure_data"),
    shell:
        "{params.prspace} step {params.step} {params.inputs} {params.settings} --tables-dir {params.tables} "
        "--figure-data-dir {params.figure_data} > {log} 2>&1"


rule boyd_fold_skew:
    """One task's fold-skew runs: aggregates on skewed vs stratified test folds."""
    input: status=PREDICTION_STATUS,
    output: BOYD_FS_RUNS,
    log: JOBS.log(R.STEP_BOYD_FOLD_SKEW, task=True),
    benchmark: JOBS.benchmark(R.STEP_BOYD_FOLD_SKEW, task=True)
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
    input: runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS),
    output:
        tables=FILES.tables(R.STEP_BOYD_FOLD_SKEW_REPORT),
        figure_data=FILES.figure_data(R.STEP_BOYD_FOLD_SKEW_REPORT),
    log: JOBS.log(R.STEP_BOYD_FOLD_SKEW_REPORT),
    benchmark: JOBS.benchmark(R.STEP_BOYD_FOLD_SKEW_REPORT)
    params:
        step=R.STEP_BOYD_FOLD_SKEW_REPORT.name,
        inputs=step_inputs("runs"),
        settings=step_settings(study=STUDY, criteria=(
            f"tasks with at least {BOYD_FS['min_positives']} positives"
            + (f", at most {BOYD_FS['max_tasks']} (lowest pi first)" if BOYD_FS["max_tasks"] else "")
            + f"; {BOYD_FS['seeds']} seeds per dispersion"
        )),
        prspace=PRSPACE,
        tables=output_folder("tables"),
        figure_data=output_folder("figure_data"),
    shell:
        "{params.prspace} step {params.step} {params.inputs} {params.settings} --tables-dir {params.tables} "
        "--figure-data-dir {params.figure_data} > {log} 2>&1"


rule boyd_fold_skew_mechanism:
    """Section 4.1 on one simulated model (no data): the sign of the averaging bias, worst ranking to good model."""
    output: tables=FILES.tables(R.STEP_BOYD_FOLD_SKEW_MECHANISM),
    log: JOBS.log(R.STEP_BOYD_FOLD_SKEW_MECHANISM),
    benchmark: JOBS.benchmark(R.STEP_BOYD_FOLD_SKEW_MECHANISM)
    params:
        step=R.STEP_BOYD_FOLD_SKEW_MECHANISM.name,
        prspace=PRSPACE,
        settings=step_settings(n_sim=BOYD_EV["mechanism_n_sim"], seed=SEED),
        tables=output_folder("tables"),
    shell:
        "{params.prspace} step {params.step} {params.settings} --tables-dir {params.tables} > {log} 2>&1"


rule boyd_aggregation:
    """Learners' mean AUPR / AUCNPR / AUPRG / AUROC over tasks of different skew, and the tables of the figure."""
    input: metrics=METRICS_TABLE,
    output: tables=FILES.tables(R.STEP_BOYD_AGGREGATION), figure_data=FILES.figure_data(R.STEP_BOYD_AGGREGATION),
    log: JOBS.log(R.STEP_BOYD_AGGREGATION),
    benchmark: JOBS.benchmark(R.STEP_BOYD_AGGREGATION)
    params:
        step=R.STEP_BOYD_AGGREGATION.name,
        prspace=PRSPACE,
        settings=step_settings(learner=BOYD_AG["learner"], skew_groups=BOYD_AG["skew_groups"], study=STUDY),
        tables=output_folder("tables"),
        figure_data=output_folder("figure_data"),
    shell:
        "{params.prspace} step {params.step} --in metrics={input.metrics} {params.settings} --tables-dir {params.tables} "
        "--figure-data-dir {params.figure_data} > {log} 2>&1"


BOYD_EVIDENCE_DS = BOYD_DS["enabled"] and SOURCE == "local"


rule boyd_evidence:
    """One evidence row per Boyd et al. claim of the registry (theorems, Tables 2-3, sections 4.1 and 4.3) and
    this project's exploratory rows about them, for rule verdicts."""
    input:
        tasks=TASKS_TABLE,
        metrics=[METRICS_TABLE] if BOYD_AG["enabled"] else [],
        mechanism=[FILES.csv(R.BOYD_FOLD_SKEW_MECHANISM)] if BOYD_FS["enabled"] else [],
        downsampling_runs=INPUTS.downsampling_runs(BOYD_DS_RUNS, enabled=BOYD_EVIDENCE_DS),
        fold_skew_runs=INPUTS.fold_skew_runs(BOYD_FS_RUNS, enabled=BOYD_FS["enabled"]),
    output: evidence=FILES.csv(R.BOYD_EVIDENCE), values=FILES.csv(R.BOYD_EVIDENCE_VALUES),
    log: JOBS.log(R.STEP_BOYD_EVIDENCE),
    benchmark: JOBS.benchmark(R.STEP_BOYD_EVIDENCE)
    params:
        step=R.STEP_BOYD_EVIDENCE.name,
        inputs=step_inputs("tasks", "metrics", "mechanism", "downsampling_runs", "fold_skew_runs"),
        settings=step_settings(
            learner=BOYD_AG["learner"], n_resamples=BOYD_EV["n_resamples"], seed=SEED, max_pi=BOYD_DS["max_pi"],
            min_positives=BOYD_DS["min_positives"], downsampling_scope=(
                f"Learners: panel {BOYD_DS['learners']}; {BOYD_DS['repeats']} x {BOYD_DS['folds']}-fold cross-validation; "
                + ("every eligible task" if BOYD_DS["max_tasks"] is None else f"at most {BOYD_DS['max_tasks']} tasks")
                + f". {BOYD_DS['scope_note']}")),
        prspace=PRSPACE,
        tables=output_folder("evidence"),
    shell:
        "{params.prspace} step {params.step} {params.inputs} {params.settings} --tables-dir {params.tables} > {log} 2>&1"
