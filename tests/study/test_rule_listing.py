"""docs/rules.md, every rule of the workflow as Snakemake runs it (issue 79.6): regenerated in memory from the
workflow Snakemake loads, it equals the committed page; it names every rule, and no absolute path."""

from __future__ import annotations

import re
import sys

import pytest

from prspace.study import rule_listing as RL


@pytest.fixture(scope="module")
def page() -> str:
    return RL.page()


def test_the_committed_page_is_the_generated_one(page):
    committed = (RL.ROOT / RL.PAGE).read_text(encoding="utf-8")
    assert committed == page, f"{RL.PAGE} is out of date: python -m prspace.study.rule_listing"


def test_every_rule_has_its_inputs_outputs_log_benchmark_threads_and_command(page):
    default = page.split("## The paper-like study")[0]
    sections = re.split(r"^### ", default, flags=re.MULTILINE)[1:]
    names = [s.split("`")[1] for s in sections]
    assert {"all", "select_tasks", "predict", "collect", "rank", "verdicts", "figure_cd_diagram", "verify"} <= set(names)
    assert len(names) == len(set(names)) > 40
    for name, s in zip(names, sections, strict=True):
        assert "- input:" in s and "- output:" in s, name
        if name not in ("all",):
            assert "- log: `work/default/logs/" in s and "- benchmark: `work/default/benchmarks/" in s, name
            assert "- threads: " in s and "```sh" in s, name
    step = sections[names.index("rank")]
    assert "python -m prspace step rank --in metrics=results/default/tables/metrics.csv" in step
    assert "--jobs 1 > work/default/logs/rank.log 2>&1" in step


def test_the_page_holds_no_machine_path(page):
    assert str(RL.ROOT) not in page and sys.executable not in page
    assert "/tmp" not in page and "/home/" not in page


def test_a_function_over_the_task_list_gives_its_pattern_and_the_class_is_put_back():
    from prspace.study.workflow_inputs import StudyInputs

    before = StudyInputs.downsampling_tasks
    with RL._over_tasks():
        assert StudyInputs.downsampling_tasks(object()) == [RL.TASK]
        assert StudyInputs.task_ids(object()) == [RL.TASK]
    assert StudyInputs.downsampling_tasks is before


def test_a_function_reading_a_checkpoint_not_run_is_written_as_what_it_stands_for():
    from snakemake.exceptions import IncompleteCheckpointException

    def selected(wildcards):
        raise IncompleteCheckpointException(None, "work/default/tasks.csv")

    assert RL._evaluated(selected, None) == "<per selected task: " + selected.__qualname__ + ">"
    assert RL._evaluated(lambda wildcards: ["a"], None) == ["a"]
