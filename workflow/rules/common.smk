# Shared conventions of every rules file (see docs/architecture.md, "Workflow contract").
# Included first by the Snakefile.  Defines: R (prspace.core.registry), STUDY, WORK, RESULTS, PRSPACE, JOBS, FILES,
# DATA_FILES, INPUTS, data_file(), task_ids(), per_task(), output_folder(), PREDICTIONS, PREDICTION_STATUS,
# FIGURE_DATA, METRICS_TABLE, TASKS_TABLE, TASK_METRICS, FOLD_METRICS.  The rules files define no functions (snakemake --lint): input and
# params functions come from prspace.study.workflow_inputs.

import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError

try:
    import prspace  # noqa: F401  (installed, or on PYTHONPATH)
except ImportError:  # a fresh clone run without `pip install -e .`
    sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from prspace.core import registry as R  # noqa: E402
from prspace.core.errors import InputError  # noqa: E402
from prspace.study.code_version import command_code  # noqa: E402
from prspace.study.interrupts import install_workflow_interrupt_handler  # noqa: E402
from prspace.study.setup_check import check_setup, data_files, stop_run  # noqa: E402
from prspace.study.study_config import check_config, config_given, report_request  # noqa: E402
from prspace.study.workflow_inputs import JobFiles, StepFiles, StudyInputs, output_folder  # noqa: E402

# A second Ctrl-C must not cut Snakemake's stop short (prspace.study.interrupts).
install_workflow_interrupt_handler()

# `snakemake --report results/<study>/report.html`: use the configuration that study's last run
# recorded (work/<study>/config.yaml), so the run's --config / --configfile need not be repeated.
try:
    _report_study_config = report_request(sys.argv[1:], config, config_given=config_given(sys.argv[1:]))
except InputError as _exc:
    raise WorkflowError(str(_exc)) from None
if _report_study_config is not None:
    config.clear()
    config.update(_report_study_config)

_SCHEMAS = Path(workflow.basedir) / "workflow" / "schemas"
try:
    check_config(config, _SCHEMAS)
except InputError as _exc:
    raise WorkflowError(str(_exc)) from None

# The meaning of the setup, before any job: data folder, class column, pos_label, suite,
# learners, datasets (prspace.study.setup_check).  Each problem is one line naming the key and the fix.
# Your own files are read whole once, by the main process; cluster jobs read the Snakefile again and
# check only the files' headers.
_setup_problems = check_setup(config, workdir=Path.cwd(), read_files=workflow.is_main_process)
if _setup_problems:
    raise WorkflowError(
        f"the setup of study {config['study']!r} has {len(_setup_problems)} problem(s); nothing was run:\n"
        + "\n".join(f"  {p}" for p in _setup_problems)
        + "\nFix them in your config file or --config overrides (docs/workflow.md lists every key)."
    )

STUDY = config["study"]
SOURCE = config["source"]
SEED = config["seed"]
WORK = f"work/{STUDY}"  # intermediates (git-ignored)
RESULTS = f"results/{STUDY}"  # tables, figures, report
TABLES = f"{RESULTS}/tables"
FIGURES = f"{RESULTS}/figures"
FIGURE_DATA = f"{WORK}/figure_data"  # the tables figures are drawn from (full precision, not for readers)
LOGS = f"{WORK}/logs"
BENCHMARKS = f"{WORK}/benchmarks"
#: every rule's log and benchmark, from its name: log: JOBS.log(R.STEP_CD), benchmark: JOBS.benchmark(R.STEP_CD)
JOBS = JobFiles(LOGS, BENCHMARKS)
#: the paths of the registry's tables: FILES.csv(R.TASKS), FILES.tables(R.STEP_CD), FILES.figure_data(step)
FILES = StepFiles(TABLES, FIGURE_DATA)

#: The prspace command line, run by the interpreter that runs Snakemake (no PATH needed).
PRSPACE = f'"{sys.executable}" -m prspace'
#: Every rule that runs prspace takes params code=command_code(COMMAND, ...): a digest of the code it runs,
#: so that a job reruns when that code changes (prspace.study.code_version).

#: Per-task predictions (written only for tasks whose status is "ok") and status JSON (always).
PREDICTIONS = f"{WORK}/predictions/{{task}}.parquet"
PREDICTION_STATUS = f"{WORK}/predictions/{{task}}.json"
#: The task list made by the select_tasks checkpoint.
TASK_LIST = str(R.TASK_LIST.path(WORK))
#: The study's tidy metrics table (one row per task x model), columns in docs/architecture.md, and task table.
METRICS_TABLE = FILES.csv(R.METRICS)
TASKS_TABLE = FILES.csv(R.TASKS)
#: Per-model metrics of one task and its per-fold metrics (one row per task x model x repeat x fold):
#: step score, run by the task's predict job (prspace.core.registry.STEP_SCORE.within).
TASK_METRICS = f"{WORK}/metrics/{{task}}.csv"
FOLD_METRICS = f"{WORK}/metrics/{{task}}.folds.csv"


#: The input functions of the rules (prspace.study.workflow_inputs): the study's tasks are read from the
#: select_tasks checkpoint, so call these only inside input functions.  Your own data files
#: (task id -> path; empty for the embedded suites and OpenML) are inputs of the rules that read
#: them, so that editing, adding or removing a file reruns what depends on it.
DATA_FILES = data_files(config["local"]) if SOURCE == "local" else {}
# no usable task ends the run with one line (stop_run: an exception in an input function would reach
# the console with a traceback); for your own files the setup check says it before any job
INPUTS = StudyInputs(config, checkpoints, task_list=TASK_LIST, data_files=DATA_FILES, warn=logger.warning,
                     stop=stop_run)
#: input function: the own data file of task {task} ([] unless it is one of your own files)
data_file = INPUTS.data_file
#: the study's task ids, sorted (reads the checkpoint: call only inside input functions)
task_ids = INPUTS.task_ids
#: per_task(pattern): an input function expanding ``pattern``'s {task} over task_ids()
per_task = INPUTS.per_task
