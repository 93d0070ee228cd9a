# HTML renderings of the study's tables, so `snakemake --report` shows them (the report
# displays images, PDFs and HTML; CSVs would only be offered for download).  One job.

REPORT_TABLES = {
    # name: (title, subcategory)
    "scorecard": ("Replication scorecard: Flach & Kull (2015), section 4", "1 Ranking"),
    "disagreement_summary": ("Rank disagreement between metrics, with bootstrap 95% intervals", "1 Ranking"),
    "disagreement_per_task": ("Rank disagreement per task and metric pair", "1 Ranking"),
    "learner_ranking": ("Learners ranked across tasks by mean AUPR, AUCNPR and AUPRG", "2 Learners across tasks"),
    "learner_agreement": ("Do the learners' orders by mean metric agree?", "2 Learners across tasks"),
    "tasks": ("Tasks of the study", "3 Data"),
    "figure_selection": ("Tasks and models drawn in Figures 4 (right) and 5", "3 Data"),
    "metrics": ("Metrics per task and model (pooled over folds; fold mean and spread)", "3 Data"),
}


def _table_args(wildcards, input, output):
    from shlex import quote

    return " ".join(
        f"--table {i} {o} {quote(REPORT_TABLES[n][0] + f' (study {STUDY})')}"
        for n, i, o in zip(REPORT_TABLES, input, output)
    )


rule report_tables:
    """HTML pages of the result tables for the Snakemake report."""
    input:
        [f"{TABLES}/{name}.csv" for name in REPORT_TABLES],
    output:
        [
            report(
                f"{WORK}/report/{name}.html",
                caption=f"../report/{name}.rst",
                category="Tables",
                subcategory=sub,
                labels={"table": name.replace("_", " ")},
            )
            for name, (title, sub) in REPORT_TABLES.items()
        ],
    log:
        f"{LOGS}/report_tables.log",
    benchmark:
        f"{BENCHMARKS}/report_tables.tsv"
    params:
        tables=lambda wildcards, input, output: _table_args(wildcards, input, output),
    shell:
        "{PRSPACE} table-html {params.tables} > {log} 2>&1"


ALL_TARGETS.extend(f"{WORK}/report/{name}.html" for name in REPORT_TABLES)
