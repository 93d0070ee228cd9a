# HTML renderings of the study's tables, so `snakemake --report` shows them (the report
# displays images, PDFs and HTML; CSVs would only be offered for download).

REPORT_TABLES = {
    # name: (title, subcategory, decimals)
    "scorecard": ("Replication scorecard: Flach & Kull (2015), section 4", "Ranking", 3),
    "disagreement_summary": ("Rank disagreement between metrics, with bootstrap 95% intervals", "Ranking", 3),
    "disagreement_per_task": ("Rank disagreement per task and metric pair", "Ranking", 3),
    "learner_ranking": ("Learners ranked across tasks by mean AUPR, AUCNPR and AUPRG", "Learners across tasks", 3),
    "learner_agreement": ("Do the learners' orders by mean metric agree?", "Learners across tasks", 3),
    "tasks": ("Tasks of the study", "Data", 4),
    "figure_selection": ("Tasks and models drawn in Figures 4 (right) and 5", "Data", 3),
    "metrics": ("Metrics per task and model (pooled over folds, and fold mean / spread)", "Data", 4),
}

for _name, (_title, _sub, _dec) in REPORT_TABLES.items():

    rule:
        name:
            f"report_table_{_name}"
        input:
            f"{TABLES}/{_name}.csv",
        output:
            report(
                f"{WORK}/report/{_name}.html",
                caption=f"../report/{_name}.rst",
                category="Tables",
                subcategory=_sub,
                labels={"table": _name},
            ),
        log:
            f"{LOGS}/report_table/{_name}.log",
        benchmark:
            f"{BENCHMARKS}/report_table/{_name}.tsv"
        params:
            title=f"{_title} (study {STUDY})",
            decimals=_dec,
        shell:
            "{PRSPACE} table-html --csv {input} --out {output} --title '{params.title}' "
            "--decimals {params.decimals} > {log} 2>&1"


ALL_TARGETS.extend(f"{WORK}/report/{name}.html" for name in REPORT_TABLES)
