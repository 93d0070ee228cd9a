# Boyd, Santos Costa, Davis and Page (ICML 2012): the unachievable region of PR space.
# Theory figures, checks of the paper's Tables 2 and 3, and the experiments of section 4:
# fold skew (4.1), aggregation over tasks (4.2), downsampling (4.3).  All logic lives in
# prspace (`prspace step <rule>`, prspace.experiments.steps.boyd_steps, declared in steps.smk; the per-task runs `prspace boyd
# downsample` / `fold-skew`); settings: the boyd: section (workflow/schemas/boyd.schema.yaml,
# docs/boyd.md).  The figures (rules figure_boyd_*) are drawn by the loop of figures.smk from the
# tables (full precision, under work/<study>/figure_data) that the rules here write.

from prspace.study.workflow_commands import own_data_args

BOYD = config["boyd"]
BOYD_DS = BOYD["downsampling"]
BOYD_FS = BOYD["fold_skew"]
# your own data (local.data_dir): the downsampling step reads the files itself
BOYD_DATA_ARGS = own_data_args(config["local"])
# the tasks of sections 4.3 and 4.1 (prspace.study.workflow_inputs.StudyInputs), as input functions
BOYD_DS_RUNS = f"{WORK}/boyd/downsampling/{{task}}.parquet"
BOYD_FS_RUNS = f"{WORK}/boyd/fold_skew/{{task}}.parquet"
# ... each experiment's written by one job, the output of rule boyd_downsample / boyd_fold_skew
BOYD_DS_DIR = f"{WORK}/boyd/downsampling"
BOYD_FS_DIR = f"{WORK}/boyd/fold_skew"


# One job for every downsampling task (a task's runs take a few seconds, a process's start-up about two):
# one file per task in BOYD_DS_DIR, which the steps read through StepRules(folders=...).
rule boyd_downsample:
    input:
        # the checkpoint params.tasks reads (its mtime alone reruns nothing: a change of the tasks does, as params)
        tasks=ancient(TASK_LIST),
        data=INPUTS.downsampling_data,  # your own data files of the tasks (reruns when one changes)
    output: directory(BOYD_DS_DIR),
    log: JOBS.log(R.STEP_BOYD_DOWNSAMPLE),
    benchmark: JOBS.benchmark(R.STEP_BOYD_DOWNSAMPLE)
    # its tasks shared by up to 8 processes (Snakemake gives at most --cores; each task's file the same
    # bytes whatever the number, tests/cli/test_local_cli.py)
    threads: 8
    resources: mem_mb=3000, runtime=60,
    params:
        tasks=INPUTS.downsampling_tasks,
        data=BOYD_DATA_ARGS,
        learners=BOYD_DS["learners"],
        ratios=",".join(str(r) for r in BOYD_DS["ratios"]),
        prspace=PRSPACE,
        seed=SEED,
        folds=BOYD_DS["folds"],
        repeats=BOYD_DS["repeats"],
        max_pi=BOYD_DS["max_pi"],
        code=command_code("boyd"),
    shell:
        "{params.prspace} boyd downsample --dataset {params.tasks:q} {params.data} --learners '{params.learners}' "
        "--ratios {params.ratios} --folds {params.folds} --repeats {params.repeats} --seed {params.seed} "
        "--max-pi {params.max_pi} --jobs {threads} --out-dir {output} > {log} 2>&1"


# One job for every fold-skew task (a task's runs take about a second, less than a process's start-up):
# one file per task in BOYD_FS_DIR, which the steps read through StepRules(folders=...).
rule boyd_fold_skew:
    input: status=INPUTS.fold_skew_runs(PREDICTION_STATUS),
    output: directory(BOYD_FS_DIR),
    log: JOBS.log(R.STEP_BOYD_FOLD_SKEW),
    benchmark: JOBS.benchmark(R.STEP_BOYD_FOLD_SKEW)
    # on the studies' critical path: its tasks shared by up to 8 processes (Snakemake gives at most --cores;
    # each task's file the same bytes whatever the number, tests/cli/test_local_cli.py)
    threads: 8
    params:
        dispersions=",".join(str(d) for d in BOYD_FS["dispersions"]),
        prspace=PRSPACE,
        seed=SEED,
        seeds=BOYD_FS["seeds"],
        max_repeats=BOYD_FS["max_repeats"],
        code=command_code("boyd"),
    shell:
        "{params.prspace} boyd fold-skew --status {input.status} --dispersions {params.dispersions} "
        "--seeds {params.seeds} --max-repeats {params.max_repeats} --seed {params.seed} --jobs {threads} --out-dir {output} "
        "> {log} 2>&1"
