"""The arguments of a rule's ``prspace step NAME`` command as steps.smk's one loop builds them
(prspace.study.step_args.step_arguments): split as the shell splits them, the step command reads back
every role, setting and folder."""

from __future__ import annotations

import shlex
from types import SimpleNamespace

from prspace.cli import step as S
from prspace.core import registry as R
from prspace.study.step_args import step_arguments, step_settings


def test_step_arguments_reach_the_step_command_by_role_in_the_declared_order(tmp_path):
    tables, data = tmp_path / "my tables", tmp_path / "figure data"
    given = SimpleNamespace(table=str(tmp_path / "rank sets.csv"), tasks=str(tmp_path / "tasks.csv"))
    output = SimpleNamespace(summary=str(tables / "s.csv"), data=[str(data / "a.csv"), str(data / "b.csv")],
                             ranks=str(tmp_path / "ranks.csv"))
    settings = step_settings(n_boot=10, seed=3)
    args = step_arguments({"rank_sets": "table", "tasks": "tasks"}, settings=settings, tables="summary",
                          figure_data="data", outs=("ranks",))(None, given, output)
    words = shlex.split(args)
    assert words == ["--in", f"rank_sets={given.table}", "--in", f"tasks={given.tasks}", *shlex.split(settings),
                     "--tables-dir", str(tables), "--figure-data-dir", str(data), "--out", f"ranks={output.ranks}"]
    (tmp_path / "rank sets.csv").touch()
    (tmp_path / "tasks.csv").touch()
    summary = S._step_function(R.STEP_RANK_SET_SUMMARY.name)  # the step command reads the roles back
    assert S._inputs(R.STEP_RANK_SET_SUMMARY.name, summary, [words[1:2], words[3:4]]) == {
        "rank_sets": tmp_path / "rank sets.csv", "tasks": tmp_path / "tasks.csv"}


def test_a_role_without_files_keeps_its_place_unless_the_roles_are_grouped():
    """A role of its own with no file leaves an empty word group (two spaces: the command line the
    rule had before the loop); grouped roles drop it (prspace.study.step_args.step_inputs)."""
    given = SimpleNamespace(metrics="m.csv", selfcheck=[], pairs=["p.csv"])
    output = SimpleNamespace()
    ins = {"metrics": "metrics", "selfcheck": "selfcheck", "pairs": "pairs"}
    assert step_arguments(ins)(None, given, output) == "--in metrics=m.csv  --in pairs=p.csv"
    assert step_arguments(ins, grouped=True)(None, given, output) == "--in metrics=m.csv --in pairs=p.csv"
