# OpenML studies only (source: openml): the frozen draw (manifest) and the self-check against
# OpenML's own evaluation engine; their tables in the report come from report.smk.  All logic lives
# in prspace (`prspace fetch-openml manifest|selfcheck`); see docs/openml.md.


rule openml_manifest:
    input: status=per_task(PREDICTION_STATUS), tasks=TASK_LIST,
    output:
        manifest=R.OPENML_MANIFEST.path(RESULTS),
        study=FILES.csv(R.OPENML_STUDY),
        study_md=R.OPENML_STUDY.markdown(TABLES),
    log: JOBS.log(R.STEP_OPENML_MANIFEST),
    benchmark: JOBS.benchmark(R.STEP_OPENML_MANIFEST)
    params:
        server=config["openml"]["server"],
        replayed=(f"--replayed-from '{config['openml']['replay']}'" if config["openml"]["replay"] else ""),
        downsampling="enabled" if config["boyd"]["downsampling"]["enabled"] else "disabled",
        prspace=PRSPACE,
        seed=SEED,
        code=command_code("fetch-openml"),
    shell:
        "{params.prspace} fetch-openml manifest --status {input.status} --task-list {input.tasks} "
        "--server '{params.server}' --seed {params.seed} {params.replayed} --downsampling {params.downsampling} "
        "--out {output.manifest} --study-table {output.study} > {log} 2>&1"


rule openml_selfcheck:
    input: status=per_task(PREDICTION_STATUS),
    output:
        checks=FILES.csv(R.OPENML_SELFCHECK),
        summary=FILES.csv(R.OPENML_SELFCHECK_SUMMARY),
        md=[t.markdown(TABLES) for t in R.STEP_OPENML_SELFCHECK.tables],
    log: JOBS.log(R.STEP_OPENML_SELFCHECK),
    benchmark: JOBS.benchmark(R.STEP_OPENML_SELFCHECK)
    params: prspace=PRSPACE, code=command_code("fetch-openml"),
    shell:
        "{params.prspace} fetch-openml selfcheck --status {input.status} --out {output.checks} "
        "--summary-out {output.summary} > {log} 2>&1"
