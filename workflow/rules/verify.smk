# `snakemake verify`: after the study, compare its tables with the committed ones
# (git HEAD) cell by cell: prspace verify, docs in README "Reproducibility".
# Not part of `rule all`; the job fails (exit 1) when a table differs beyond tolerance,
# and its log names every differing cell.


rule verify:
    input: study_targets(config), per_task(PREDICTION_STATUS),
    output: f"{WORK}/verify/report.txt",
    log: JOBS.log(R.STEP_VERIFY),
    benchmark: JOBS.benchmark(R.STEP_VERIFY)
    params: cmd=f"{PRSPACE} verify {RESULTS}", code=command_code("verify"),
    shell:
        "{params.cmd} --out {output} > {log} 2>&1"
