# prspace: the replication workflow (Flach & Kull 2015; Boyd et al. 2012).
#
#   snakemake --cores 2                                   # the default, offline study (config.yaml)
#   snakemake --cores 2 --configfile config/openml-paper.yaml   # the paper's study on live OpenML
#   snakemake --report results/<study>/report.html        # the HTML report of a finished run
#                                                          # (uses the config the run recorded)
#   snakemake --cores 2 verify                            # does the run reproduce the committed tables?
#
# Thin: every rule calls the prspace command line; see docs/workflow.md.

import os
import time

from snakemake.utils import min_version

from prspace.study.study_plan import study_targets
from prspace.study.workflow_commands import report_front_page

min_version("9.0")


configfile: os.path.join(workflow.basedir, "config.yaml")


# the front page opens with the study's verdicts once rule verdicts has written them
report: report_front_page(config, workflow.basedir)


include: "workflow/rules/common.smk"


_RUN_STARTED = time.time()


onstart:
    from prspace.study.eta import start as start_eta
    from prspace.study.study_config import record_config

    record_config(config)
    # after each "k of n steps done": "k of n jobs, ~X min left" (prspace.study.eta)
    start_eta(workflow, config, os.path.join(workflow.basedir, "workflow", "job_seconds.csv"))


onerror:
    # Snakemake itself only says "check log file(s)": print each failed job's own message.
    from prspace.study.joblogs import print_job_errors

    print_job_errors(LOGS, since=_RUN_STARTED)


onsuccess:
    # the wall time of this run, for benchmarks/bench_stages.py
    from prspace.study.joblogs import record_run_time

    record_run_time(f"{WORK}/run_times.jsonl", time.time() - _RUN_STARTED)


rule all:
    """Every output of the study (prspace.study.study_plan.study_targets) and every task's predictions."""
    input:
        # every output of the study, from its config and the registry (prspace.study.study_plan.study_targets)
        study_targets(config),
        # every task's predictions (git-ignored, under work/): so a fresh clone recomputes the study
        # from its data instead of finding the committed tables up to date
        per_task(PREDICTION_STATUS),
    default_target: True


include: "workflow/rules/study.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/boyd.smk"
include: "workflow/rules/steps.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/openml.smk"
include: "workflow/rules/verify.smk"

# Each rule's description (`snakemake --list-rules`) is its step's in the registry
# (prspace.core.registry.Step.description; listed with inputs and outputs in docs/workflow.md).
for _rule_step in R.STEPS:
    if _rule_step.name in {r.name for r in workflow.rules}:
        workflow.get_rule(_rule_step.name).docstring = _rule_step.description
