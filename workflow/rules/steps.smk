# Every `prspace step NAME` rule of both studies, made by one loop from the registry's steps
# (prspace.core.registry: a Step with a `run` declares its inputs by role as typed objects, its settings as
# configuration keys, the files it writes besides its tables; prspace.study.step_rules resolves
# them for this study).  Adding a step edits no rules file.  The shell line is one string literal:
# Snakemake evaluates it again when a job runs, when the loop variable has its last value, so
# everything of a step reaches it through params.

from prspace.study.step_rules import StepRules

_FILE = R.StudyFile
STEP_RULES = StepRules(config, files=FILES, inputs=INPUTS, paths={
    _FILE.STATUS: PREDICTION_STATUS, _FILE.METRICS: TASK_METRICS, _FILE.FOLDS: FOLD_METRICS,
    _FILE.TASK_LIST: TASK_LIST, _FILE.RANKS: f"{WORK}/ranks.csv", _FILE.SKEW_REFERENCE: SKEW_REFERENCE,
    _FILE.DOWNSAMPLING_RUNS: BOYD_DS_RUNS, _FILE.FOLD_SKEW_RUNS: BOYD_FS_RUNS,
    _FILE.RANK_SETS_PER_TASK: directory(f"{WORK}/{R.STEP_RANK_SETS.name}"),
    # step verdicts' pages, and the report's static intro its front page starts with
    _FILE.SUMMARY: R.SUMMARY.path(RESULTS), _FILE.FINDINGS: R.FINDINGS.path(RESULTS),
    _FILE.FRONT_PAGE: R.FRONT_PAGE.path(f"{WORK}/report"),
    _FILE.REPORT_INTRO: R.WORKFLOW_PAGE.path(os.path.join(workflow.basedir, "workflow", "report"))},
    # per-task files that one job writes into one folder (the rule's output): a step depends on the folder
    folders={_FILE.DOWNSAMPLING_RUNS: BOYD_DS_DIR, _FILE.FOLD_SKEW_RUNS: BOYD_FS_DIR}, task_list=ancient(TASK_LIST))

# (a step run inside another rule's jobs, `within`, has no rule: score runs in the predict jobs, study.smk)
for _step in R.OWN_RULE_STEPS:

    rule:
        name: _step.name
        input: **STEP_RULES.input(_step)
        output: **STEP_RULES.output(_step)
        log: JOBS.log(_step, task=STEP_RULES.per_task(_step)),
        benchmark: JOBS.benchmark(_step, task=STEP_RULES.per_task(_step))
        resources: **dict(_step.resources)
        # processes the step may use (Snakemake gives at most --cores); the same bytes whatever it gets
        threads: _step.threads
        params:
            step=_step.name,
            args=STEP_RULES.arguments(_step),
            prspace=PRSPACE,
            code=command_code("step", _step.run),
        shell:
            "{params.prspace} step {params.step} {params.args} --jobs {threads} > {log} 2>&1"

