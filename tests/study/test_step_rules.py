"""The `prspace step` rules made from the registry's steps (prspace.study.step_rules): every declared
role and setting is one the step's function takes, every setting's key exists in the shipped
configurations, and the arguments equal the command line that recomputes a committed table."""

from __future__ import annotations

import inspect
import shlex
import typing
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from prspace.cli import step as S
from prspace.core import registry as R
from prspace.study.step_rules import COMPOSED, StepRules, config_value
from prspace.study.study_config import check_config
from prspace.study.workflow_inputs import StepFiles

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"
CONFIGS = [ROOT / "config.yaml", ROOT / "config" / "paperlike.yaml", ROOT / "config" / "openml-tasks.yaml"]


def _config(path: Path) -> dict:
    cfg = yaml.safe_load(path.read_text())
    check_config(cfg, SCHEMAS)
    return cfg


def _rules(cfg: dict) -> StepRules:
    over = SimpleNamespace(per_task=lambda p: ("each", p), downsampling_runs=lambda p: ("ds", p),
                           fold_skew_runs=lambda p: ("fs", p))
    F = R.StudyFile
    paths = {F.STATUS: "s/{task}.json", F.RANKS: "w/ranks.csv", F.METRICS: "w/m/{task}.csv", F.FOLDS: "w/{task}.f.csv",
             F.TASK_LIST: "w/t.csv", F.SKEW_REFERENCE: "ref.csv", F.DOWNSAMPLING_RUNS: "d/{task}.parquet",
             F.FOLD_SKEW_RUNS: "f/{task}.parquet", F.RANK_SETS_PER_TASK: "w/dir", F.SUMMARY: "r/summary.md",
             F.FINDINGS: "r/findings.md", F.FRONT_PAGE: "w/report/front.rst", F.REPORT_INTRO: "workflow.rst"}
    return StepRules(cfg, files=StepFiles("T", "FD"), inputs=over, paths=paths)


def test_every_rule_step_declares_roles_and_settings_its_function_takes():
    steps = R.COMMAND_STEPS
    assert len(steps) >= 20 and all(s.description for s in steps)
    for step in steps:
        fn = S._step_function(step.name)
        roles = set(typing.get_type_hints(typing.get_type_hints(fn)["inputs"]))
        assert {r for r, _ in step.inputs} <= roles, step.name
        several, required = S._role_kinds(fn)
        assert required <= {r for r, _ in step.inputs}, step.name
        keyword = {p.name for p in inspect.signature(fn).parameters.values() if p.kind is p.KEYWORD_ONLY}
        assert {k for k, _ in step.settings} <= keyword, step.name


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_every_setting_resolves_in_the_shipped_configurations(path):
    rules = _rules(_config(path))
    for step in R.COMMAND_STEPS:
        words = shlex.split(rules.settings(step))
        assert words[::2] == ["--set"] * len(step.settings), step.name
        assert [w.partition("=")[0] for w in words[1::2]] == [k for k, _ in step.settings], step.name


def test_config_value_reads_a_key_path_and_names_a_missing_one():
    cfg = {"analysis": {"calibration": {"n_sim": 40}}, "seed": 0}
    assert config_value(cfg, "analysis.calibration.n_sim") == 40 and config_value(cfg, "seed") == 0
    with pytest.raises(KeyError, match="'analysis.calibration.n_sims', which has no 'n_sims'"):
        config_value(cfg, "analysis.calibration.n_sims")


def test_composed_settings_state_the_configured_scope():
    assert set(COMPOSED) == set(R.Composed)  # every composed setting has its function
    cfg = {"boyd": {"downsampling": {"max_pi": 0.1, "min_positives": 5, "max_tasks": None, "learners": "small",
                                     "repeats": 2, "folds": 5, "scope_note": "Note."},
                    "fold_skew": {"min_positives": 10, "max_tasks": 3, "seeds": 4}}}
    assert COMPOSED[R.Composed.DOWNSAMPLING_CRITERIA](cfg) == "pi <= 0.1, at least 5 positives, every such task"
    assert COMPOSED[R.Composed.FOLD_SKEW_CRITERIA](cfg) == ("tasks with at least 10 positives, at most 3 (lowest pi first); "
                                                   "4 seeds per dispersion")
    cfg["boyd"]["downsampling"]["max_tasks"] = 7
    assert COMPOSED[R.Composed.DOWNSAMPLING_SCOPE](cfg) == ("Learners: panel small; 2 x 5-fold cross-validation; at most 7 tasks. "
                                                   "Note.")


def test_inputs_outputs_and_conditions_of_the_rules():
    cfg = _config(ROOT / "config.yaml")
    rules = _rules(cfg)
    assert rules.input(R.STEP_SCORE) == {"status": "s/{task}.json"}
    assert rules.output(R.STEP_SCORE) == {"metrics": "w/m/{task}.csv", "folds": "w/{task}.f.csv"}
    assert [s.name for s in R.COMMAND_STEPS if rules.per_task(s)] == [R.STEP_SCORE.name]
    # ... which has no rule of its own: each predict job runs it (no per-task rule is made by the loop)
    assert R.STEP_SCORE.within == R.STEP_PREDICT.name and R.STEP_SCORE not in R.OWN_RULE_STEPS
    assert not [s.name for s in R.OWN_RULE_STEPS if rules.per_task(s)]
    assert rules.input(R.STEP_COLLECT)["status"] == ("each", "s/{task}.json")
    assert rules.input(R.STEP_RANK)["selfcheck"] == []  # a local study has no OpenML self-check
    openml = _rules({**cfg, "source": "openml"})
    assert openml.input(R.STEP_RANK)["selfcheck"] == str(R.OPENML_SELFCHECK_SUMMARY.csv("T"))
    assert rules.output(R.STEP_RANK_SETS)["per_task"] == "w/dir"
    assert rules.output(R.STEP_CD)["tables"] == [str(p) for t in R.STEP_CD.tables for p in t.files("T")]


def test_arguments_are_the_command_that_recomputes_the_committed_noise_evidence():
    """Oracle: tests/core/test_steps.py's command line, which rewrites the committed table byte for byte."""
    cfg = _config(ROOT / "config.yaml")
    step, rules = R.STEP_NOISE_EVIDENCE, _rules(cfg)
    inputs = SimpleNamespace(**rules.input(step))
    output = SimpleNamespace(**rules.output(step))
    args = rules.arguments(step)(None, inputs, output)
    assert shlex.split(args) == ["--in", "pairs=T/noise_floor_pairs.csv", "--in", "tasks=T/tasks.csv", "--in",
                                 "calibration=T/calibration_summary.csv", "--set", f"n_boot={cfg['analysis']['n_boot']}",
                                 "--set", f"seed={cfg['seed']}", "--tables-dir", "T"]


def test_per_task_files_of_one_job_in_a_folder_are_named_by_the_command():
    """Rule boyd_fold_skew writes every task's runs into one folder: a step reading them depends on
    the folder (its input) and its command names each task's file, in the selection's order; with the
    experiment off (an If), neither."""
    cfg = _config(ROOT / "config.yaml")
    F = R.StudyFile
    tasks = ["a", "b"]
    over = SimpleNamespace(per_task=lambda p: ("each", p), downsampling_runs=lambda p: ("ds", p),
                           fold_skew_runs=lambda p: lambda wildcards: [p.format(task=t) for t in tasks])
    paths = {F.STATUS: "s/{task}.json", F.METRICS: "w/m/{task}.csv", F.TASK_LIST: "w/t.csv",
             F.DOWNSAMPLING_RUNS: "d/{task}.parquet", F.FOLD_SKEW_RUNS: "f/{task}.parquet"}
    rules = StepRules(cfg, files=StepFiles("T", "FD"), inputs=over, paths=paths, folders={F.FOLD_SKEW_RUNS: "f"},
                      task_list="w/t.csv")
    step = R.STEP_BOYD_FOLD_SKEW_REPORT
    assert rules.input(step) == {"runs": "f", "selected_from": "w/t.csv"}  # the task list: the files are named from it
    args = rules.arguments(step)(None, SimpleNamespace(**rules.input(step)), SimpleNamespace(**rules.output(step)))
    assert shlex.split(args)[:4] == ["--in", "runs=f/a.parquet", "f/b.parquet", "--set"]
    assert rules.input(R.STEP_BOYD_EVIDENCE)["fold_skew_runs"] == "f"
    off = {**cfg, "boyd": {**cfg["boyd"], "fold_skew": {**cfg["boyd"]["fold_skew"], "enabled": False}}}
    rules_off = StepRules(off, files=StepFiles("T", "FD"), inputs=over, paths=paths, folders={F.FOLD_SKEW_RUNS: "f"},
                          task_list="w/t.csv")
    assert rules_off.input(R.STEP_BOYD_EVIDENCE)["fold_skew_runs"] == []
    assert "selected_from" not in rules_off.input(R.STEP_BOYD_EVIDENCE)
    assert "f/a.parquet" not in rules_off.arguments(R.STEP_BOYD_EVIDENCE)(
        None, SimpleNamespace(**{k: v if isinstance(v, (str, list)) else ["x"] for k, v in
                                 rules_off.input(R.STEP_BOYD_EVIDENCE).items()}),
        SimpleNamespace(**rules_off.output(R.STEP_BOYD_EVIDENCE)))
