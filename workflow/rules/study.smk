# The ranking study of Flach & Kull (2015), section 4: tasks -> predictions -> metrics ->
# ranks and disagreement -> scorecard and figures.  All logic lives in prspace.

from prspace.study.workflow_commands import (
    RANK_SET_TABLES,
    RANK_TABLES,
    SKEW_TABLES,
    predict_command,
    select_command,
    skew_reference_path,
    verdict_inputs,
)

# `prspace score` loads only its own sub-command module (prspace.cli imports the one named)
PRSPACE_SCORE = f"{PRSPACE} score"


checkpoint select_tasks:
    input:
        # your own data files: adding, removing or editing one makes a new task list
        sorted(str(p) for p in DATA_FILES.values()),
    output:
        TASK_LIST,
    log:
        JOBS.log("select_tasks"),
    benchmark:
        JOBS.benchmark("select_tasks")
    params:
        cmd=select_command(config, PRSPACE),
    resources:
        # global cap on connections to OpenML, set by the profile (profiles/*/config.yaml)
        openml_connections=1 if SOURCE == "openml" else 0,
    shell:
        "{params.cmd} --out {output} > {log} 2>&1"


rule predict:
    """One task's cross-validated predictions (local learners or OpenML runs)."""
    input:
        data=data_file,  # your own data file of the task (none for embedded and OpenML tasks)
    output:
        status=PREDICTION_STATUS,
    log:
        JOBS.log("predict", task=True),
    benchmark:
        JOBS.benchmark("predict", task=True)
    params:
        cmd=lambda wildcards: predict_command(config, wildcards.task, PRSPACE),
        parquet=PREDICTIONS,
    threads: 1
    resources:
        mem_mb=4000,
        runtime=120,
        openml_connections=config["openml"]["workers"] if SOURCE == "openml" else 0,
    shell:
        "{params.cmd} --out {params.parquet} --status {output.status} > {log} 2>&1"


rule score:
    """Per-model metrics of one task, pooled over folds and per fold (prspace.metrics.all_metrics)."""
    input:
        status=PREDICTION_STATUS,
    output:
        metrics=f"{WORK}/metrics/{{task}}.csv",
        folds=FOLD_METRICS,
    log:
        JOBS.log("score", task=True),
    benchmark:
        JOBS.benchmark("score", task=True)
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        prspace=PRSPACE_SCORE,
    shell:
        "{params.prspace} task --status {input.status} --out {output.metrics} "
        "--folds-out {output.folds} > {log} 2>&1"


rule collect:
    """The study's tidy metrics table and task table."""
    input:
        status=per_task(PREDICTION_STATUS),
        metrics=per_task(f"{WORK}/metrics/{{task}}.csv"),
        tasks=TASK_LIST,
    output:
        metrics=METRICS_TABLE,
        tasks=f"{TABLES}/tasks.csv",
        tasks_md=f"{TABLES}/tasks.md",
    log:
        JOBS.log("collect"),
    benchmark:
        JOBS.benchmark("collect")
    params:
        prspace=PRSPACE,
        study=STUDY,
    shell:
        "{params.prspace} score collect --study {params.study} --task-list {input.tasks} "
        "--status {input.status} --metrics {input.metrics} "
        "--out {output.metrics} --tasks-out {output.tasks} > {log} 2>&1"


NOISE_FLOORS = f"{TABLES}/noise_floor_per_task.csv"
NOISE_PAIRS = f"{TABLES}/noise_floor_pairs.csv"


rule noise_floor:
    """Per task: how often each metric disagrees with itself under a stratified bootstrap of the test rows."""
    input:
        status=per_task(PREDICTION_STATUS),
    output:
        floors=NOISE_FLOORS,
        pairs=NOISE_PAIRS,
    log:
        JOBS.log("noise_floor"),
    benchmark:
        JOBS.benchmark("noise_floor")
    params:
        metrics=",".join(config["analysis"]["metrics"]),
        n_boot=config["analysis"]["noise_boot"],
        alpha=config["analysis"]["noise_alpha"],
        prspace=PRSPACE,
        seed=SEED,
    shell:
        "{params.prspace} noise-floor --status {input.status} --rank-by {params.metrics} --n-boot {params.n_boot} "
        "--alpha {params.alpha} --seed {params.seed} --floors-out {output.floors} --pairs-out {output.pairs} > {log} 2>&1"


CALIBRATION = [f"{TABLES}/calibration.csv", f"{TABLES}/calibration_summary.csv"]


rule calibrate:
    """False rate and power of the noise floor's distinguishable check, by simulation at this study's task sizes."""
    input:
        tasks=f"{TABLES}/tasks.csv",
    output:
        table=CALIBRATION[0],
        summary=CALIBRATION[1],
        md=[p.replace(".csv", ".md") for p in CALIBRATION],
    log:
        JOBS.log("calibrate"),
    benchmark:
        JOBS.benchmark("calibrate")
    params:
        c=config["analysis"]["calibration"],
        sigmas=",".join(map(str, config["analysis"]["calibration"]["sigmas"])),
        sigmas_a=",".join(map(str, config["analysis"]["calibration"]["sigmas_a"])),
        n_boot=config["analysis"]["noise_boot"],
        alpha=config["analysis"]["noise_alpha"],
        prspace=PRSPACE,
    shell:
        "{params.prspace} calibrate --tasks {input.tasks} --n-sim {params.c[n_sim]} --n-sim-null {params.c[n_sim_null]} "
        "--n-boot {params.n_boot} --seed {params.c[seed]} --auroc {params.c[auroc]} --rho {params.c[rho]} "
        "--sigmas {params.sigmas} --sigmas-a {params.sigmas_a} --alpha {params.alpha} --mc-error {params.c[mc_error]} --out {output.table} --summary-out {output.summary} > {log} 2>&1"


rule auroc_bounds:
    """Top-1 disagreements with AUROC that the range of AUPR / AUPRG at a given AUROC permits (Mihelich et al. 2024)."""
    input:
        metrics=METRICS_TABLE,
    output:
        csv=f"{TABLES}/auroc_bounds.csv",
        md=f"{TABLES}/auroc_bounds.md",
    log:
        JOBS.log("auroc_bounds"),
    benchmark:
        JOBS.benchmark("auroc_bounds")
    params:
        prspace=PRSPACE,
    shell:
        "{params.prspace} auroc-bounds --metrics {input.metrics} --out {output.csv} > {log} 2>&1"


rule noise_evidence:
    """Evidence rows: distinguishable disagreements (k of n, read with the calibrated power) and cross- vs self-disagreement."""
    input:
        pairs=NOISE_PAIRS,
        tasks=f"{TABLES}/tasks.csv",
        calibration=CALIBRATION[1],
    output:
        csv=f"{TABLES}/noise_evidence.csv",
        md=f"{TABLES}/noise_evidence.md",
    log:
        JOBS.log("noise_evidence"),
    benchmark:
        JOBS.benchmark("noise_evidence")
    params:
        n_boot=config["analysis"]["n_boot"],
        prspace=PRSPACE,
        seed=SEED,
    shell:
        "{params.prspace} noise-evidence --pairs {input.pairs} --tasks {input.tasks} --calibration {input.calibration} "
        "--n-boot {params.n_boot} --seed {params.seed} --out {output.csv} > {log} 2>&1"


RANK_SETS = f"{TABLES}/rank_sets.csv"


rule rank_sets:
    """Per task and metric: every model's rank interval and the plausible-best set (one shared paired bootstrap)."""
    input:
        status=per_task(PREDICTION_STATUS),
    output:
        per_task=directory(f"{WORK}/rank_sets"),
        table=RANK_SETS,
    log:
        JOBS.log("rank_sets"),
    benchmark:
        JOBS.benchmark("rank_sets")
    params:
        c=config["analysis"]["rank_sets"],
        metrics=",".join(config["analysis"]["rank_sets"]["metrics"]),
        prspace=PRSPACE,
        seed=SEED,
    shell:
        "{params.prspace} rank-sets tasks --status {input.status} --metrics {params.metrics} --n-boot {params.c[n_boot]} "
        "--confidence {params.c[confidence]} --seed {params.seed} --per-task-dir {output.per_task} --out {output.table} > {log} 2>&1"


rule rank_set_summary:
    """Per metric pair: tasks whose plausible-best sets are disjoint vs plain top-1 disagreement, calibrated; evidence rows."""
    input:
        table=RANK_SETS,
        tasks=f"{TABLES}/tasks.csv",
    output:
        summary=f"{TABLES}/rank_set_summary.csv",
        calibration=f"{TABLES}/rank_set_calibration.csv",
        evidence=f"{TABLES}/rank_set_evidence.csv",
        md=expand(f"{TABLES}/{{name}}.md", name=RANK_SET_TABLES),
    log:
        JOBS.log("rank_set_summary"),
    benchmark:
        JOBS.benchmark("rank_set_summary")
    params:
        c=config["analysis"]["rank_sets"],
        n_boot=config["analysis"]["n_boot"],
        prspace=PRSPACE,
        seed=SEED,
    shell:
        "{params.prspace} rank-sets summary --rank-sets {input.table} --tasks {input.tasks} --n-boot {params.n_boot} "
        "--seed {params.seed} --n-sim {params.c[n_sim]} --n-sim-null {params.c[n_sim_null]} "
        "--sim-models {params.c[sim_models]} --sim-boot {params.c[sim_boot]} --mc-error {params.c[mc_error]} --out {output.summary} "
        "--calibration-out {output.calibration} --evidence-out {output.evidence} > {log} 2>&1"


#: The reference task table of the skew counterfactual (prspace.study.workflow_commands.skew_reference_path).
try:
    SKEW_REFERENCE = skew_reference_path(config["analysis"]["skew_reference"], own_tasks=f"{TABLES}/tasks.csv",
                                         work_dir=Path.cwd(), base_dir=workflow.basedir)
except InputError as _exc:
    raise WorkflowError(str(_exc)) from None


rule controlled_skew:
    """Rank disagreement against pi with the same models: every task's negatives reweighted."""
    input:
        status=per_task(PREDICTION_STATUS),
        tasks=f"{TABLES}/tasks.csv",
        per_task=f"{TABLES}/disagreement_per_task.csv",
        reference=SKEW_REFERENCE,
    output:
        per_task=f"{TABLES}/controlled_skew_per_task.csv",
        counterfactual_per_task=f"{TABLES}/controlled_skew_counterfactual_per_task.csv",
        tables=expand(f"{TABLES}/{{name}}.{{ext}}", name=SKEW_TABLES, ext=["csv", "md"]),
    log:
        JOBS.log("controlled_skew"),
    benchmark:
        JOBS.benchmark("controlled_skew")
    params:
        metrics=",".join(config["analysis"]["metrics"]),
        targets=",".join(map(str, config["analysis"]["skew_targets"])),
        n_boot=config["analysis"]["skew_n_boot"],
        prspace=PRSPACE,
        seed=SEED,
        tables=output_folder("tables"),
    shell:
        "{params.prspace} controlled-skew --status {input.status} --tasks {input.tasks} --per-task {input.per_task} "
        "--rank-by {params.metrics} --targets {params.targets} --n-boot {params.n_boot} --seed {params.seed} "
        "--reference {input.reference} --per-task-out {output.per_task} "
        "--counterfactual-per-task-out {output.counterfactual_per_task} --tables-dir {params.tables} > {log} 2>&1"


rule rank:
    """Ranks within tasks, pairwise disagreement with bootstrap CIs, learners across tasks, scorecard."""
    input:
        metrics=METRICS_TABLE,
        tasks=f"{TABLES}/tasks.csv",
        selfcheck=[f"{TABLES}/openml_selfcheck_summary.csv"] if SOURCE == "openml" else [],
        floors=NOISE_FLOORS,
        pairs=NOISE_PAIRS,
    output:
        ranks=f"{WORK}/ranks.csv",
        per_task=f"{TABLES}/disagreement_per_task.csv",
        csv=expand(f"{TABLES}/{{name}}.csv", name=RANK_TABLES),
        md=expand(f"{TABLES}/{{name}}.md", name=RANK_TABLES),
    log:
        JOBS.log("rank"),
    benchmark:
        JOBS.benchmark("rank")
    params:
        metrics=",".join(config["analysis"]["metrics"]),
        n_boot=config["analysis"]["n_boot"],
        selfcheck=lambda wc, input: f"--selfcheck {input.selfcheck}" if input.selfcheck else "",
        prspace=PRSPACE,
        seed=SEED,
        tables=output_folder("per_task"),
    shell:
        "{params.prspace} rank --metrics {input.metrics} --tasks {input.tasks} {params.selfcheck} "
        "--rank-by {params.metrics} --n-boot {params.n_boot} --seed {params.seed} "
        "--noise-floors {input.floors} --noise-pairs {input.pairs} "
        "--out-dir {params.tables} --ranks-out {output.ranks} > {log} 2>&1"


#: The tables of `prspace figure-data` (full precision, for drawing, not for readers: under work/).
FIGURE_DATA = f"{WORK}/figure_data"


rule figure_data:
    """The tables Figures 4 (left, right) and 5 of Flach & Kull (2015) are drawn from, and the selection."""
    input:
        metrics=METRICS_TABLE,
        ranks=f"{WORK}/ranks.csv",
        per_task=f"{TABLES}/disagreement_per_task.csv",
        tasks=f"{TABLES}/tasks.csv",
        status=per_task(PREDICTION_STATUS),
    output:
        counts=f"{FIGURE_DATA}/fig4_rank_counts.csv",
        scatter=f"{FIGURE_DATA}/fig4_scatter.csv",
        points=f"{FIGURE_DATA}/fig5_curve_points.csv",
        areas=f"{FIGURE_DATA}/fig5_curve_areas.csv",
        bands=f"{FIGURE_DATA}/fig5_curve_bands.csv",
        text=f"{FIGURE_DATA}/figure_text.csv",
        selection=f"{TABLES}/figure_selection.csv",
        selection_md=f"{TABLES}/figure_selection.md",
    log:
        JOBS.log("figure_data"),
    benchmark:
        JOBS.benchmark("figure_data")
    params:
        predictions=f"{WORK}/predictions",
        prspace=PRSPACE,
        out=output_folder("counts"),
        band_resamples=config["analysis"]["bands"]["n_resamples"],
        band_level=config["analysis"]["bands"]["level"],
        seed=SEED,
    shell:
        "{params.prspace} figure-data --metrics {input.metrics} --ranks {input.ranks} "
        "--per-task {input.per_task} --tasks {input.tasks} --predictions-dir {params.predictions} "
        "--out-dir {params.out} --selection-out {output.selection} --band-resamples {params.band_resamples} "
        "--band-level {params.band_level} --seed {params.seed} > {log} 2>&1"


rule verdicts:
    """A verdict per claim of both papers (docs/verdicts.md), the answer-first summary and the findings page."""
    input:
        unpack(lambda wc: verdict_inputs(config, TABLES)),
        intro=os.path.join(workflow.basedir, "workflow", "report", "workflow.rst"),
    output:
        csv=f"{TABLES}/verdicts.csv",
        md=f"{TABLES}/verdicts.md",
        sensitivity=f"{TABLES}/sensitivity.csv",
        sensitivity_md=f"{TABLES}/sensitivity.md",
        summary=f"{RESULTS}/summary.md",
        findings=f"{RESULTS}/findings.md",
        front=f"{WORK}/report/front.rst",
    log:
        JOBS.log("verdicts"),
    benchmark:
        JOBS.benchmark("verdicts")
    params:
        recorded=f"{WORK}/config.yaml",
        prspace=PRSPACE,
        study=STUDY,
        tables=output_folder("csv"),
        results=output_folder("summary"),
        n_boot=config["analysis"]["verdicts"]["n_boot"],
        seed=SEED,
    shell:
        "{params.prspace} verdicts --tables-dir {params.tables} --study {params.study} --out-dir {params.results} "
        "--n-boot {params.n_boot} --seed {params.seed} "
        "--config {params.recorded} --report-rst {output.front} --report-intro {input.intro} > {log} 2>&1"
