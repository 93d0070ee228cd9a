# Critical-difference diagrams across tasks (Demsar 2006), one panel per metric, and whether two
# metrics order the learners differently beyond noise (prspace.stats.cd; docs/analysis.md).


rule cd:
    """Friedman, Nemenyi critical difference and cliques per metric; the metric-order test over families of tasks, calibrated."""
    input: metrics=METRICS_TABLE, tasks=TASKS_TABLE,
    output: tables=FILES.tables(R.STEP_CD),
    log: JOBS.log(R.STEP_CD),
    benchmark: JOBS.benchmark(R.STEP_CD)
    params: prspace=PRSPACE, study=STUDY, seed=SEED, tables=output_folder("tables"),
    shell:
        "{params.prspace} cd --metrics {input.metrics} --tasks {input.tasks} --study {params.study} --seed {params.seed} "
        "--tables-dir {params.tables} > {log} 2>&1"
