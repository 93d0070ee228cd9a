# The ranking study of Flach & Kull (2015), section 4: tasks -> predictions -> metrics (this file) ->
# ranks and disagreement -> scorecard, figures and verdicts (the registry's steps: steps.smk).  All logic
# lives in prspace; every table a rule writes is declared once, in prspace.core.registry (R), and named
# here through it.

from prspace.study.workflow_commands import predict_commands, select_command, skew_reference_path

ANALYSIS = config["analysis"]


checkpoint select_tasks:
    input:
        # your own data files: adding, removing or editing one makes a new task list
        sorted(str(p) for p in DATA_FILES.values()),
    output: TASK_LIST,
    log: JOBS.log(R.STEP_SELECT_TASKS),
    benchmark: JOBS.benchmark(R.STEP_SELECT_TASKS)
    params: cmd=select_command(config, PRSPACE), code=command_code("list-datasets" if SOURCE == "local" else "fetch-openml"),
    resources:
        # global cap on connections to OpenML, set by the profile (profiles/*/config.yaml)
        openml_connections=1 if SOURCE == "openml" else 0,
    shell:
        "{params.cmd} --out {output} > {log} 2>&1"


# One job per task: its predictions, then, in the same process, step score (R.STEP_SCORE.within): the
# task's metrics, pooled and per fold (one Python process per task instead of two).
rule predict:
    input:
        data=data_file,  # your own data file of the task (none for embedded and OpenML tasks)
    output: status=PREDICTION_STATUS, metrics=TASK_METRICS, folds=FOLD_METRICS,
    log: JOBS.log(R.STEP_PREDICT, task=True),
    benchmark: JOBS.benchmark(R.STEP_PREDICT, task=True)
    params:
        cmd=predict_commands(config, PRSPACE), parquet=PREDICTIONS,
        code=command_code("predict-local" if SOURCE == "local" else "fetch-openml", R.STEP_SCORE.run),
    threads: 1
    # one of the profile's fetch jobs at a time; inside, its requests share the study's openml.workers
    # connections with every other fetch job (prspace.openml.connections: a cap across processes)
    resources: mem_mb=4000, runtime=120, openml_connections=1 if SOURCE == "openml" else 0,
    shell:
        "{params.cmd} --out {params.parquet} --status {output.status} --metrics-out {output.metrics} "
        "--folds-out {output.folds} > {log} 2>&1"


#: The reference task table of the skew counterfactual (prspace.study.workflow_commands.skew_reference_path).
try:
    SKEW_REFERENCE = skew_reference_path(ANALYSIS["skew_reference"], own_tasks=TASKS_TABLE, work_dir=Path.cwd(),
                                         base_dir=workflow.basedir)
except InputError as _exc:
    raise WorkflowError(str(_exc)) from None

