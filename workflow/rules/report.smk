# HTML renderings of every table of the study, so `snakemake --report` shows them (the report
# displays images, PDFs and HTML; CSVs would only be offered for download).  One job.

from prspace.study.workflow_commands import report_tables, table_html_args

#: name -> (title, category, subcategory, caption) of every table in the report (prspace.study.workflow_commands)
REPORT_TABLES = report_tables(config)


rule report_tables:
    """HTML pages of every result table, for the Snakemake report."""
    input:
        [f"{TABLES}/{name}.csv" for name in REPORT_TABLES],
    output:
        [
            report(
                f"{WORK}/report/{name}.html",
                caption=caption or f"../report/{name}.rst",
                category=category,
                subcategory=sub,
                labels={"table": name.replace("_", " ")},
            )
            for name, (title, category, sub, caption) in REPORT_TABLES.items()
        ],
    log:
        JOBS.log("report_tables"),
    benchmark:
        JOBS.benchmark("report_tables")
    params:
        tables=lambda wildcards, input, output: table_html_args(REPORT_TABLES, input, output, study=STUDY),
        prspace=PRSPACE,
    shell:
        "{params.prspace} table-html {params.tables} > {log} 2>&1"
