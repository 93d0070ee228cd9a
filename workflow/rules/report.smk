# HTML renderings of every table of the study, so `snakemake --report` shows them (the report
# displays images, PDFs and HTML; CSVs would only be offered for download): one job for the study's
# tables, one for an OpenML study's own (prspace.study.study_plan.report_tables, openml_report_tables).
# Each caption is its file beside the workflow, workflow/report/captions/tables/<name>.rst
# (prspace.study.study_plan.caption_file: the report reads it where it is).

from prspace.study.study_plan import caption_file, openml_report_tables, report_tables
from prspace.study.workflow_commands import table_html_args

for _step, _tables in [(R.STEP_REPORT_TABLES, report_tables(config)),
                       (R.STEP_OPENML_REPORT_TABLES, openml_report_tables())]:
    _html = [f"{WORK}/report/{name}.html" for name in _tables]

    rule:
        name: _step.name
        input: [f"{TABLES}/{name}.csv" for name in _tables],
        output:
            [
                report(html, caption=caption_file(R.table(name), workflow.basedir), category=t.category, subcategory=t.subcategory,
                       labels={"table": name.replace("_", " ")})
                for html, (name, t) in zip(_html, _tables.items())
            ],
        log: JOBS.log(_step),
        benchmark: JOBS.benchmark(_step)
        params:
            tables=table_html_args(_tables, [f"{TABLES}/{name}.csv" for name in _tables], _html, study=STUDY),
            prspace=PRSPACE,
            code=command_code("table-html"),
        shell:
            "{params.prspace} table-html {params.tables} > {log} 2>&1"
