# Shared conventions of every rules file (see docs/architecture.md, "Workflow contract").
# Included first by the Snakefile.  Defines: ALL_TARGETS, STUDY, WORK, RESULTS, PRSPACE,
# task_ids(), per_task(), PREDICTIONS, PREDICTION_STATUS, METRICS_TABLE, FOLD_METRICS.

import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

try:
    import prspace  # noqa: F401  (installed, or on PYTHONPATH)
except ImportError:  # a fresh clone run without `pip install -e .`
    sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from prspace.contracts import read_task_list, selected_task_ids  # noqa: E402
from prspace.errors import InputError  # noqa: E402
from prspace.interrupts import install_workflow_interrupt_handler  # noqa: E402
from prspace.setup_check import check_setup, data_files, stop_run  # noqa: E402
from prspace.study_config import config_given, prepare_config, report_request  # noqa: E402

# A second Ctrl-C must not cut Snakemake's stop short (prspace.interrupts).
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
# Each schema violation is one line naming the key (prspace.study_config.prepare_config); then
# Snakemake's validate fills in the schema's defaults.
try:
    prepare_config(config, _SCHEMAS / "config.schema.yaml")
    validate(config, str(_SCHEMAS / "config.schema.yaml"))
    prepare_config(config["boyd"], _SCHEMAS / "boyd.schema.yaml", section="boyd")
    validate(config["boyd"], str(_SCHEMAS / "boyd.schema.yaml"))
except InputError as _exc:
    raise WorkflowError(str(_exc)) from None

# The meaning of the setup, before any job: data folder, class column, pos_label, suite,
# learners, datasets (prspace.setup_check).  Each problem is one line naming the key and the fix.
# Your own files are read whole once, by the main process; cluster jobs read the Snakefile again and
# check only the files' headers.
_setup_problems = check_setup(config, workdir=Path.cwd(), read_files=workflow.is_main_process)
if _setup_problems:
    raise WorkflowError(
        f"the setup of study {config['study']!r} has {len(_setup_problems)} problem(s); nothing was run:\n"
        + "\n".join(f"  {p}" for p in _setup_problems)
        + "\nFix them in your config file or --config overrides (docs/workflow.md lists every key)."
    )

#: Your own data files (task id -> path), inputs of the rules that read them, so that editing,
#: adding or removing a file reruns what depends on it.  Empty for the embedded suites and OpenML.
DATA_FILES = data_files(config["local"]) if config["source"] == "local" else {}


def data_file(wildcards):
    """Input function: the data file of task {task} ([] unless it is one of your own files)."""
    path = DATA_FILES.get(wildcards.task)
    return [str(path)] if path is not None else []

#: Targets of `rule all`; every rules file extends it: ALL_TARGETS.extend([...]).
ALL_TARGETS = []

STUDY = config["study"]
SOURCE = config["source"]
SEED = config["seed"]
WORK = f"work/{STUDY}"  # intermediates (git-ignored)
RESULTS = f"results/{STUDY}"  # tables, figures, report
TABLES = f"{RESULTS}/tables"
FIGURES = f"{RESULTS}/figures"
LOGS = f"{WORK}/logs"
BENCHMARKS = f"{WORK}/benchmarks"

#: The prspace command line, run by the interpreter that runs Snakemake (no PATH needed).
PRSPACE = f'"{sys.executable}" -m prspace'

#: Per-task predictions (written only for tasks whose status is "ok") and status JSON (always).
PREDICTIONS = f"{WORK}/predictions/{{task}}.parquet"
PREDICTION_STATUS = f"{WORK}/predictions/{{task}}.json"
#: The task list made by the select_tasks checkpoint.
TASK_LIST = f"{WORK}/tasks.csv"
#: The study's tidy metrics table (one row per task x model), columns in docs/architecture.md.
METRICS_TABLE = f"{TABLES}/metrics.csv"
#: Per-fold metrics of one task (one row per task x model x repeat x fold).
FOLD_METRICS = f"{WORK}/metrics/{{task}}.folds.csv"


def task_ids():
    """The task ids of the study, sorted (call only inside input functions: it reads a checkpoint).

    Local source: the usable datasets of the suite (or of local.data_dir), restricted to
    local.datasets if given.  OpenML: the tasks the select step marked selected.
    Tasks may still turn out skipped in the predictions step (status JSON).  No usable task ends the
    run with one line (stop_run: an exception here would reach the console with a traceback); for
    your own files the setup check says it before any job.
    """
    table = read_task_list(checkpoints.select_tasks.get().output[0])
    ids = selected_task_ids(table)
    if not ids:
        reasons = "; ".join(
            f"{r.task_id}: {r.reason}" for r in table.head(5).itertuples() if str(getattr(r, "reason", ""))
        )
        stop_run(
            f"study {STUDY}: no usable task ({len(table)} candidate(s) in {TASK_LIST}"
            + (f"; {reasons}" if reasons else "")
            + "); fix the data or the selection and run again"
        )
    if SOURCE == "local" and config["local"]["datasets"]:
        wanted = config["local"]["datasets"]
        unknown = sorted(set(wanted) - set(table["task_id"].astype(str)))
        if unknown:
            stop_run(
                f"config key local.datasets names unknown dataset(s) {', '.join(unknown)}; "
                f"see {TASK_LIST} for the available task ids"
            )
        ids = [t for t in ids if t in set(wanted)]
    return sorted(ids)


def per_task(pattern):
    """Input function: ``pattern`` (with {task}) expanded over task_ids()."""
    return lambda wc: expand(pattern, task=task_ids())

