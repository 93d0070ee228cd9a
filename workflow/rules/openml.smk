# OpenML studies only (source: openml): the frozen draw (manifest) and the self-check against
# OpenML's own evaluation engine, with their tables in the report.  All logic lives in
# prspace (`prspace fetch-openml manifest|selfcheck`); see docs/openml.md.

from prspace.study.workflow_commands import OPENML_TABLES, table_html_args

OPENML_MANIFEST = f"{RESULTS}/openml-manifest.json"


rule openml_manifest:
    """The frozen draw: server, client version, date; per task the run and flow ids and checksums."""
    input:
        status=per_task(PREDICTION_STATUS),
        tasks=TASK_LIST,
    output:
        manifest=OPENML_MANIFEST,
        study=f"{TABLES}/openml_study.csv",
        study_md=f"{TABLES}/openml_study.md",
    log:
        JOBS.log("openml_manifest"),
    benchmark:
        JOBS.benchmark("openml_manifest")
    params:
        server=config["openml"]["server"],
        replayed=(f"--replayed-from '{config['openml']['replay']}'" if config["openml"]["replay"] else ""),
        downsampling="enabled" if config["boyd"]["downsampling"]["enabled"] else "disabled",
        prspace=PRSPACE,
        seed=SEED,
    shell:
        "{params.prspace} fetch-openml manifest --status {input.status} --task-list {input.tasks} "
        "--server '{params.server}' --seed {params.seed} {params.replayed} --downsampling {params.downsampling} "
        "--out {output.manifest} --study-table {output.study} > {log} 2>&1"


rule openml_selfcheck:
    """Our AUROC of every drawn run's predictions vs the server's area_under_roc_curve."""
    input:
        status=per_task(PREDICTION_STATUS),
    output:
        checks=f"{TABLES}/openml_selfcheck.csv",
        checks_md=f"{TABLES}/openml_selfcheck.md",
        summary=f"{TABLES}/openml_selfcheck_summary.csv",
        summary_md=f"{TABLES}/openml_selfcheck_summary.md",
    log:
        JOBS.log("openml_selfcheck"),
    benchmark:
        JOBS.benchmark("openml_selfcheck")
    params:
        prspace=PRSPACE,
    shell:
        "{params.prspace} fetch-openml selfcheck --status {input.status} --out {output.checks} "
        "--summary-out {output.summary} > {log} 2>&1"


rule openml_report_tables:
    """HTML pages of the OpenML tables for the Snakemake report."""
    input:
        [f"{TABLES}/{name}.csv" for name in OPENML_TABLES],
    output:
        [
            report(
                f"{WORK}/report/{name}.html",
                caption=OPENML_TABLES[name].caption,
                category=OPENML_TABLES[name].category,
                labels={"table": name.replace("_", " ")},
            )
            for name in OPENML_TABLES
        ],
    log:
        JOBS.log("openml_report_tables"),
    benchmark:
        JOBS.benchmark("openml_report_tables")
    params:
        tables=lambda wildcards, input, output: table_html_args(OPENML_TABLES, input, output, study=STUDY),
        prspace=PRSPACE,
    shell:
        "{params.prspace} table-html {params.tables} > {log} 2>&1"
