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
        f"{LOGS}/cd.log",
    benchmark:
        f"{BENCHMARKS}/cd.tsv"
    params:
        prspace=PRSPACE,
        study=STUDY,
        seed=SEED,
        tables=output_folder("csv"),
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} cd --metrics {input.metrics} --tasks {input.tasks} --study {params.study} --seed {params.seed} "
        "--tables-dir {params.tables} > {log} 2>&1"


rule figure_cd_diagram:
    """Critical-difference diagrams side by side, one per metric, drawn from the tables of `prspace cd`."""
    input:
        ranks=f"{TABLES}/cd_ranks.csv",
        cliques=f"{TABLES}/cd_cliques.csv",
        tests=f"{TABLES}/cd_tests.csv",
    output:
        figure=report(f"{FIGURES}/cd_diagram.png", caption="../report/cd_diagram.rst", category="Figures",
                      labels={"figure": "cd_diagram"}),
        other=expand(f"{FIGURES}/cd_diagram.{{ext}}", ext=[e for e in config["analysis"]["figure_formats"] if e != "png"]),
    log:
        f"{LOGS}/figures/cd_diagram.log",
    benchmark:
        f"{BENCHMARKS}/figures/cd_diagram.tsv"
    params:
        formats=",".join(config["analysis"]["figure_formats"]),
        prspace=PRSPACE,
    conda:
        "../../environment.yml"
    shell:
        "{params.prspace} figure cd_diagram --tables {input.ranks} {input.cliques} {input.tests} --out {output.figure} "
        "--formats png,{params.formats} > {log} 2>&1"

