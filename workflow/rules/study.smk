# The ranking study of Flach & Kull (2015), section 4: tasks -> predictions -> metrics ->
# ranks and disagreement -> scorecard and figures.  All logic lives in prspace; every table a rule
# writes is declared once, in prspace.core.registry (R), and named here through it.

from prspace.study.registry import verdict_inputs
from prspace.study.step_args import step_settings
from prspace.study.workflow_commands import predict_command, select_command, skew_reference_path

ANALYSIS = config["analysis"]


checkpoint select_tasks:
    input:
        # your own data files: adding, removing or editing one makes a new task list
        sorted(str(p) for p in DATA_FILES.values()),
    output: TASK_LIST,
    log: JOBS.log(R.STEP_SELECT_TASKS),
    benchmark: JOBS.benchmark(R.STEP_SELECT_TASKS)
    params: cmd=select_command(config, PRSPACE),
    resources:
        # global cap on connections to OpenML, set by the profile (profiles/*/config.yaml)
        openml_connections=1 if SOURCE == "openml" else 0,
    shell:
        "{params.cmd} --out {output} > {log} 2>&1"


rule predict:
    """One task's cross-validated predictions (local learners or OpenML runs)."""
    input:
        data=data_file,  # your own data file of the task (none for embedded and OpenML tasks)
    output: status=PREDICTION_STATUS,
    log: JOBS.log(R.STEP_PREDICT, task=True),
    benchmark: JOBS.benchmark(R.STEP_PREDICT, task=True)
    params: cmd=lambda wildcards: predict_command(config, wildcards.task, PRSPACE), parquet=PREDICTIONS,
    threads: 1
    resources: mem_mb=4000, runtime=120, openml_connections=config["openml"]["workers"] if SOURCE == "openml" else 0,
    shell:
        "{params.cmd} --out {params.parquet} --status {output.status} > {log} 2>&1"


rule score:
    """Per-model metrics of one task, pooled over folds and per fold (prspace.metrics.all_metrics)."""
    input: status=PREDICTION_STATUS,
    output: metrics=f"{WORK}/metrics/{{task}}.csv", folds=FOLD_METRICS,
    log: JOBS.log(R.STEP_SCORE, task=True),
    benchmark: JOBS.benchmark(R.STEP_SCORE, task=True)
    resources: mem_mb=2000, runtime=30,
    params: step=R.STEP_SCORE.name, prspace=PRSPACE,
    shell:
        "{params.prspace} step {params.step} --in status={input.status} --out metrics={output.metrics} "
        "--out folds={output.folds} > {log} 2>&1"


rule collect:
    """The study's tidy metrics table and task table."""
    input: status=per_task(PREDICTION_STATUS), metrics=per_task(f"{WORK}/metrics/{{task}}.csv"), tasks=TASK_LIST,
    output: metrics=METRICS_TABLE, tasks=TASKS_TABLE, tasks_md=R.TASKS.markdown(TABLES),
    log: JOBS.log(R.STEP_COLLECT),
    benchmark: JOBS.benchmark(R.STEP_COLLECT)
    params:
        step=R.STEP_COLLECT.name,
        settings=step_settings(study=STUDY),
        prspace=PRSPACE,
        tables=output_folder("metrics"),
    shell:
        "{params.prspace} step {params.step} --in status={input.status} --in metrics={input.metrics} "
        "--in task_list={input.tasks} {params.settings} --tables-dir {params.tables} > {log} 2>&1"


rule noise_floor:
    """Per task: how often each metric disagrees with itself under a stratified bootstrap of the test rows."""
    input: status=per_task(PREDICTION_STATUS),
    output: floors=FILES.csv(R.NOISE_FLOOR_PER_TASK), pairs=FILES.csv(R.NOISE_FLOOR_PAIRS),
    log: JOBS.log(R.STEP_NOISE_FLOOR),
    benchmark: JOBS.benchmark(R.STEP_NOISE_FLOOR)
    params:
        step=R.STEP_NOISE_FLOOR.name,
        settings=step_settings(metrics=ANALYSIS["metrics"], n_boot=ANALYSIS["noise_boot"], seed=SEED,
                               alpha=ANALYSIS["noise_alpha"]),
        prspace=PRSPACE,
        tables=output_folder("floors"),
    shell:
        "{params.prspace} step {params.step} --in status={input.status} {params.settings} --tables-dir {params.tables} "
        "> {log} 2>&1"


rule calibrate:
    """False rate and power of the noise floor's distinguishable check, by simulation at this study's task sizes."""
    input: tasks=TASKS_TABLE,
    output:
        table=FILES.csv(R.CALIBRATION),
        summary=FILES.csv(R.CALIBRATION_SUMMARY),
        md=[t.markdown(TABLES) for t in R.STEP_CALIBRATE.tables],
    log: JOBS.log(R.STEP_CALIBRATE),
    benchmark: JOBS.benchmark(R.STEP_CALIBRATE)
    params:
        step=R.STEP_CALIBRATE.name,
        settings=step_settings(**{k: ANALYSIS["calibration"][k] for k in ("n_sim", "n_sim_null", "seed", "auroc", "rho",
                                                                       "sigmas", "sigmas_a", "mc_error")},
                               n_boot=ANALYSIS["noise_boot"], alpha=ANALYSIS["noise_alpha"]),
        prspace=PRSPACE,
        tables=output_folder("table"),
    shell:
        "{params.prspace} step {params.step} --in tasks={input.tasks} {params.settings} --tables-dir {params.tables} "
        "> {log} 2>&1"


rule auroc_bounds:
    """Top-1 disagreements with AUROC that the range of AUPR / AUPRG at a given AUROC permits (Mihelich et al. 2024)."""
    input: metrics=METRICS_TABLE,
    output: csv=FILES.csv(R.AUROC_BOUNDS), md=R.AUROC_BOUNDS.markdown(TABLES),
    log: JOBS.log(R.STEP_AUROC_BOUNDS),
    benchmark: JOBS.benchmark(R.STEP_AUROC_BOUNDS)
    params: step=R.STEP_AUROC_BOUNDS.name, prspace=PRSPACE, tables=output_folder("csv"),
    shell:
        "{params.prspace} step {params.step} --in metrics={input.metrics} --tables-dir {params.tables} > {log} 2>&1"


rule noise_evidence:
    """Evidence rows: distinguishable disagreements (k of n, read with the calibrated power) and cross- vs self-disagreement."""
    input: pairs=FILES.csv(R.NOISE_FLOOR_PAIRS), tasks=TASKS_TABLE, calibration=FILES.csv(R.CALIBRATION_SUMMARY),
    output: csv=FILES.csv(R.NOISE_EVIDENCE), md=R.NOISE_EVIDENCE.markdown(TABLES),
    log: JOBS.log(R.STEP_NOISE_EVIDENCE),
    benchmark: JOBS.benchmark(R.STEP_NOISE_EVIDENCE)
    params:
        step=R.STEP_NOISE_EVIDENCE.name,
        settings=step_settings(n_boot=ANALYSIS["n_boot"], seed=SEED),
        prspace=PRSPACE,
        tables=output_folder("csv"),
    shell:
        "{params.prspace} step {params.step} --in pairs={input.pairs} --in tasks={input.tasks} "
        "--in calibration={input.calibration} {params.settings} --tables-dir {params.tables} > {log} 2>&1"


rule rank_sets:
    """Per task and metric: every model's rank interval and the plausible-best set (one shared paired bootstrap)."""
    input: status=per_task(PREDICTION_STATUS),
    output: per_task=directory(f"{WORK}/{R.STEP_RANK_SETS.name}"), table=FILES.csv(R.RANK_SETS),
    log: JOBS.log(R.STEP_RANK_SETS),
    benchmark: JOBS.benchmark(R.STEP_RANK_SETS)
    params:
        step=R.STEP_RANK_SETS.name,
        settings=step_settings(**{k: ANALYSIS["rank_sets"][k] for k in ("metrics", "n_boot", "confidence")}, seed=SEED),
        prspace=PRSPACE,
        tables=output_folder("table"),
    shell:
        "{params.prspace} step {params.step} --in status={input.status} {params.settings} --tables-dir {params.tables} "
        "--out per_task={output.per_task} > {log} 2>&1"


rule rank_set_summary:
    """Per metric pair: tasks whose plausible-best sets are disjoint vs plain top-1 disagreement, calibrated; evidence rows."""
    input: table=FILES.csv(R.RANK_SETS), tasks=TASKS_TABLE,
    output:
        summary=FILES.csv(R.RANK_SET_SUMMARY),
        calibration=FILES.csv(R.RANK_SET_CALIBRATION),
        evidence=FILES.csv(R.RANK_SET_EVIDENCE),
        md=[t.markdown(TABLES) for t in R.STEP_RANK_SET_SUMMARY.tables],
    log: JOBS.log(R.STEP_RANK_SET_SUMMARY),
    benchmark: JOBS.benchmark(R.STEP_RANK_SET_SUMMARY)
    params:
        step=R.STEP_RANK_SET_SUMMARY.name,
        settings=step_settings(**{k: ANALYSIS["rank_sets"][k] for k in ("n_sim", "n_sim_null", "sim_models", "sim_boot",
                                                                     "mc_error")},
                               n_boot=ANALYSIS["n_boot"], seed=SEED),
        prspace=PRSPACE,
        tables=output_folder("summary"),
    shell:
        "{params.prspace} step {params.step} --in rank_sets={input.table} --in tasks={input.tasks} {params.settings} "
        "--tables-dir {params.tables} > {log} 2>&1"


#: The reference task table of the skew counterfactual (prspace.study.workflow_commands.skew_reference_path).
try:
    SKEW_REFERENCE = skew_reference_path(ANALYSIS["skew_reference"], own_tasks=TASKS_TABLE, work_dir=Path.cwd(),
                                         base_dir=workflow.basedir)
except InputError as _exc:
    raise WorkflowError(str(_exc)) from None
_PER_TASK_SKEW = (R.CONTROLLED_SKEW_PER_TASK, R.CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK)


rule controlled_skew:
    """Rank disagreement against pi with the same models: every task's negatives reweighted."""
    input:
        status=per_task(PREDICTION_STATUS),
        tasks=TASKS_TABLE,
        per_task=FILES.csv(R.DISAGREEMENT_PER_TASK),
        reference=SKEW_REFERENCE,
    output:
        per_task=FILES.csv(R.CONTROLLED_SKEW_PER_TASK),
        counterfactual_per_task=FILES.csv(R.CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK),
        tables=FILES.tables(R.STEP_CONTROLLED_SKEW, skip=_PER_TASK_SKEW),
    log: JOBS.log(R.STEP_CONTROLLED_SKEW),
    benchmark: JOBS.benchmark(R.STEP_CONTROLLED_SKEW)
    params:
        step=R.STEP_CONTROLLED_SKEW.name,
        settings=step_settings(metrics=ANALYSIS["metrics"], targets=ANALYSIS["skew_targets"],
                               n_boot=ANALYSIS["skew_n_boot"], seed=SEED),
        prspace=PRSPACE,
        tables=output_folder("per_task"),
    shell:
        "{params.prspace} step {params.step} --in status={input.status} --in tasks={input.tasks} "
        "--in per_task={input.per_task} --in reference={input.reference} {params.settings} "
        "--tables-dir {params.tables} > {log} 2>&1"


rule rank:
    """Ranks within tasks, pairwise disagreement with bootstrap CIs, learners across tasks, scorecard."""
    input:
        metrics=METRICS_TABLE,
        tasks=TASKS_TABLE,
        selfcheck=[FILES.csv(R.OPENML_SELFCHECK_SUMMARY)] if SOURCE == "openml" else [],
        floors=FILES.csv(R.NOISE_FLOOR_PER_TASK),
        pairs=FILES.csv(R.NOISE_FLOOR_PAIRS),
    output: ranks=f"{WORK}/ranks.csv", tables=FILES.tables(R.STEP_RANK),
    log: JOBS.log(R.STEP_RANK),
    benchmark: JOBS.benchmark(R.STEP_RANK)
    params:
        step=R.STEP_RANK.name,
        settings=step_settings(metrics=ANALYSIS["metrics"], n_boot=ANALYSIS["n_boot"], seed=SEED),
        selfcheck=lambda wc, input: f"--in selfcheck={input.selfcheck}" if input.selfcheck else "",
        prspace=PRSPACE,
        tables=output_folder("tables"),
    shell:
        "{params.prspace} step {params.step} --in metrics={input.metrics} --in tasks={input.tasks} {params.selfcheck} "
        "--in floors={input.floors} --in pairs={input.pairs} {params.settings} --tables-dir {params.tables} "
        "--out ranks={output.ranks} > {log} 2>&1"


rule figure_data:
    """The tables Figures 4 (left, right) and 5 of Flach & Kull (2015) are drawn from, and the selection."""
    input:
        metrics=METRICS_TABLE,
        ranks=f"{WORK}/ranks.csv",
        per_task=FILES.csv(R.DISAGREEMENT_PER_TASK),
        tasks=TASKS_TABLE,
        status=per_task(PREDICTION_STATUS),
    output:
        data=FILES.figure_data(R.STEP_FIGURE_DATA),
        selection=FILES.csv(R.FIGURE_SELECTION),
        selection_md=R.FIGURE_SELECTION.markdown(TABLES),
    log: JOBS.log(R.STEP_FIGURE_DATA),
    benchmark: JOBS.benchmark(R.STEP_FIGURE_DATA)
    params:
        step=R.STEP_FIGURE_DATA.name,
        settings=step_settings(band_resamples=ANALYSIS["bands"]["n_resamples"], band_level=ANALYSIS["bands"]["level"],
                               seed=SEED),
        prspace=PRSPACE,
        data=output_folder("data"),
        tables=output_folder("selection"),
    shell:
        "{params.prspace} step {params.step} --in metrics={input.metrics} --in ranks={input.ranks} "
        "--in per_task={input.per_task} --in tasks={input.tasks} --in status={input.status} {params.settings} "
        "--figure-data-dir {params.data} --tables-dir {params.tables} > {log} 2>&1"


rule verdicts:
    """A verdict per claim of both papers (docs/verdicts.md), the answer-first summary and the findings page."""
    input:
        unpack(lambda wc: verdict_inputs(config, TABLES)),
        intro=R.WORKFLOW_PAGE.path(os.path.join(workflow.basedir, "workflow", "report")),
    output:
        tables=FILES.tables(R.STEP_VERDICTS),
        summary=R.SUMMARY.path(RESULTS),
        findings=R.FINDINGS.path(RESULTS),
        front=R.FRONT_PAGE.path(f"{WORK}/report"),
    log: JOBS.log(R.STEP_VERDICTS),
    benchmark: JOBS.benchmark(R.STEP_VERDICTS)
    params:
        recorded=f"{WORK}/config.yaml",
        prspace=PRSPACE,
        study=STUDY,
        tables=output_folder("tables"),
        results=output_folder("summary"),
        n_boot=ANALYSIS["verdicts"]["n_boot"],
        seed=SEED,
    shell:
        "{params.prspace} verdicts --tables-dir {params.tables} --study {params.study} --out-dir {params.results} "
        "--n-boot {params.n_boot} --seed {params.seed} "
        "--config {params.recorded} --report-rst {output.front} --report-intro {input.intro} > {log} 2>&1"
