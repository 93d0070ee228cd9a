# Critical-difference diagrams across tasks (Demsar 2006), one panel per metric, and whether two
# metrics order the learners differently beyond noise (prspace.stats.cd; docs/analysis.md).

from prspace.study.workflow_commands import CD_TABLES


rule cd:
    """Friedman, Nemenyi critical difference and cliques per metric; the metric-order test over families of tasks, calibrated."""
    input:
        metrics=METRICS_TABLE,
        tasks=f"{TABLES}/tasks.csv",
    output:
        csv=expand(f"{TABLES}/{{name}}.csv", name=CD_TABLES),
        md=expand(f"{TABLES}/{{name}}.md", name=CD_TABLES),
    log:
        JOBS.log("cd"),
    benchmark:
        JOBS.benchmark("cd")
    params:
        prspace=PRSPACE,
        study=STUDY,
        seed=SEED,
        tables=output_folder("csv"),
    shell:
        "{params.prspace} cd --metrics {input.metrics} --tasks {input.tasks} --study {params.study} --seed {params.seed} "
        "--tables-dir {params.tables} > {log} 2>&1"
