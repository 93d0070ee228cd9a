# Critical-difference diagrams across tasks (Demsar 2006), one panel per metric, and whether two
# metrics order the learners differently beyond noise (prspace.stats.cd; docs/analysis.md).

from prspace.study.step_args import step_settings


rule cd:
    """Friedman, Nemenyi critical difference and cliques per metric; the metric-order test over families of tasks, calibrated."""
    input: metrics=METRICS_TABLE, tasks=TASKS_TABLE,
    output: tables=FILES.tables(R.STEP_CD),
    log: JOBS.log(R.STEP_CD),
    benchmark: JOBS.benchmark(R.STEP_CD)
    params:
        step=R.STEP_CD.name,
        settings=step_settings(study=STUDY, seed=SEED),
        prspace=PRSPACE,
        tables=output_folder("tables"),
    shell:
        "{params.prspace} step {params.step} --in metrics={input.metrics} --in tasks={input.tasks} {params.settings} "
        "--tables-dir {params.tables} > {log} 2>&1"
