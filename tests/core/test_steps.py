"""The step framework: one writer of what a step makes (prspace.core.steps) and one command that runs
any step (``prspace step``, prspace.cli.step): roles, settings and outputs checked against the step's
function before any work; each mistake one line, exit 2."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pandas as pd
import pytest

from prspace.cli import main
from prspace.cli import step as S
from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.output import to_csv_text, to_markdown
from prspace.core.steps import StepOutput, TableOut, write_step

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "results" / "default" / "tables"


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"task_id": ["a", "b"], "n": [3.0, 4.0], "value": [0.123456789, 2.5], "hidden": [1, 2]})


def _tables_with(md: bool) -> R.Table:
    return next(t for s in R.STEPS for t in s.tables if t.md is md)


def test_write_step_writes_csv_markdown_figure_data_and_files(tmp_path):
    with_md, csv_only = _tables_with(True), _tables_with(False)
    data = next(f for s in R.STEPS for f in s.figure_data)
    df = _frame()
    out = StepOutput(tables=[TableOut(with_md, df, "a note", "A title", df.drop(columns="hidden")),
                             TableOut(csv_only, df)],
                     figure_data=[(data, df)], files={"one": df, "many": {"t1": df, "t2": df.head(1)}})
    written = write_step(out, tables_dir=tmp_path / "t", figure_data_dir=tmp_path / "f",
                         files={"one": tmp_path / "one.csv", "many": tmp_path / "dir"})
    assert with_md.csv(tmp_path / "t").read_text() == to_csv_text(df)
    assert with_md.markdown(tmp_path / "t").read_text() == to_markdown(df.drop(columns="hidden"), title="A title",
                                                                       note="a note")
    assert csv_only.csv(tmp_path / "t").read_text() == to_csv_text(df)
    assert not csv_only.markdown(tmp_path / "t").exists()
    assert pd.read_csv(data.csv(tmp_path / "f"))["value"].tolist() == [0.123456789, 2.5]  # full precision
    assert (tmp_path / "dir" / "t2.csv").read_text() == to_csv_text(df.head(1))
    assert len(written) == 7


def test_write_step_writes_text_pages_as_given(tmp_path):
    """A page (step verdicts' summary.md, findings.md, front page; verdicts.md, the table's Markdown page)
    goes through the same writer, its text byte for byte."""
    table = _tables_with(True)
    page = "# A page\n\n| a | b |\n| --- | --- |\n| 1 | é |\n"
    write_step(StepOutput(tables=[TableOut(table, _frame(), markdown=page)], files={"summary": page + "more\n"}),
               tables_dir=tmp_path, files={"summary": tmp_path / "summary.md"})
    assert table.markdown(tmp_path).read_bytes() == page.encode()
    assert table.csv(tmp_path).read_text() == to_csv_text(_frame())
    assert (tmp_path / "summary.md").read_bytes() == (page + "more\n").encode()


def test_the_verdicts_read_every_steps_evidence_and_write_their_pages_as_files():
    """Step verdicts is a step like every other (issue 61): its inputs are the evidence tables of the steps
    before it, each by its name and under its step's switch, its pages its files, its resamples a setting."""
    before = R.STEPS[:R.STEPS.index(R.STEP_VERDICTS)]
    want = [(t.name, t if s.when is None else R.If(s.when, t)) for s in before for t in s.evidence]
    assert list(R.STEP_VERDICTS.inputs[:-1]) == want and R.STEP_VERDICTS.inputs[-1][1] is R.StudyFile.REPORT_INTRO
    assert not [s for s in R.STEPS[R.STEPS.index(R.STEP_VERDICTS):] if s.evidence]
    assert dict(R.STEP_VERDICTS.files) == {"summary": R.StudyFile.SUMMARY, "findings": R.StudyFile.FINDINGS,
                                           "front": R.StudyFile.FRONT_PAGE}
    assert dict(R.STEP_VERDICTS.settings)["verdicts_n_boot"] == "analysis.verdicts.n_boot"
    assert R.STEP_VERDICTS in R.OWN_RULE_STEPS and R.STEP_VERDICTS.name in S.STEPS


def test_write_step_uses_the_registry_title_unless_the_step_gives_one(tmp_path):
    table = _tables_with(True)
    write_step(StepOutput(tables=[TableOut(table, _frame())]), tables_dir=tmp_path)
    assert table.markdown(tmp_path).read_text().startswith(f"### {table.title}\n")


def test_write_step_names_what_is_missing_before_writing(tmp_path):
    table = _tables_with(True)
    other = next(s for s in R.STEPS if table not in s.tables)
    out = StepOutput(tables=[TableOut(table, _frame())], files={"ranks": _frame()})
    with pytest.raises(InputError, match=r"--out ROLE=PATH"):
        write_step(out, tables_dir=tmp_path)
    with pytest.raises(InputError, match="--tables-dir"):
        write_step(out, files={"ranks": tmp_path / "r.csv"})
    with pytest.raises(InputError, match="does not list for it"):
        write_step(out, tables_dir=tmp_path, files={"ranks": tmp_path / "r.csv"}, step=other)
    assert list(tmp_path.iterdir()) == []


def test_every_step_the_registry_runs_is_a_command_with_typed_roles_and_settings():
    runs = [s for s in R.STEPS if s.run is not None]
    assert [s.name for s in runs] == list(S.STEPS) and len(runs) >= 20
    assert all(s.run for s in R.STEPS if s.files)  # --out roles only for a step the command runs
    for step in runs:
        name = step.name
        assert step.run.count(":") == 1 and step.run.startswith("prspace."), name
        fn = S._step_function(name)
        assert callable(fn) and fn.__name__ == step.run.split(":")[1], name
        assert typing.is_typeddict(typing.get_type_hints(fn)["inputs"]), name
        several, required = S._role_kinds(fn)
        assert required <= set(several), name  # a step may read no file (Boyd's theory tables)


def _noise_evidence_argv(tables: Path, out: Path) -> list[str]:
    return ["step", R.STEP_NOISE_EVIDENCE.name, "--in", f"pairs={tables / 'noise_floor_pairs.csv'}",
            "--in", f"tasks={tables / 'tasks.csv'}", "--in", f"calibration={tables / 'calibration_summary.csv'}",
            "--set", "n_boot=1000", "--set", "seed=0", "--tables-dir", str(out)]


def test_the_step_command_recomputes_the_committed_noise_evidence_byte_for_byte(tmp_path):
    """Oracle: the committed table of the default study (config: n_boot 1000, seed 0)."""
    assert main(_noise_evidence_argv(COMMITTED, tmp_path)) == 0
    for path in R.NOISE_EVIDENCE.files(tmp_path):
        assert path.read_bytes() == (COMMITTED / path.name).read_bytes(), path.name


@pytest.mark.parametrize(("change", "message"), [
    (lambda a: a[:1] + ["bogus"] + a[2:], "no step 'bogus'"),
    (lambda a: [x.replace("pairs=", "pears=") for x in a], "has no input 'pears'; its inputs: pairs, tasks"),
    (lambda a: a[:4] + a[6:], "needs --in tasks=PATH"),
    (lambda a: [x.replace("n_boot=1000", "n_boot=1e") for x in a], "--set n_boot: '1e' is not JSON"),
    (lambda a: [x.replace("n_boot=1000", "n_boot=\"1000\"") for x in a], "--set n_boot: \"1000\" is not of type int"),
    (lambda a: [x.replace("seed=0", "sead=0") for x in a], "has no setting 'sead'; its settings: n_boot, seed"),
    (lambda a: a[:8] + a[10:], "needs --set n_boot=VALUE"),
    (lambda a: [x.replace("pairs=", "pairs") for x in a], "is not ROLE=PATH"),
    (lambda a: a + ["--out", "x=y.csv"], "writes no file besides its tables"),
    (lambda a: a[:-2], "--tables-dir"),
    (lambda a: [x.replace("tasks.csv", "nowhere.csv") for x in a], "--in tasks: no file at"),
])
def test_the_step_command_names_each_mistake_in_one_line_before_any_work(tmp_path, capsys, monkeypatch, change,
                                                                          message):
    def no_work(*args, **kwargs):
        raise AssertionError("the step ran")

    monkeypatch.setattr("prspace.experiments.noise.noise_evidence.noise_evidence", no_work)
    argv = change(_noise_evidence_argv(COMMITTED, tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("prspace step: error: ") or err.startswith("usage"), err
    if message:
        assert message in err, err
    assert list(tmp_path.iterdir()) == []


def test_step_settings_reach_the_step_as_the_configuration_holds_them():
    """The rules' --set arguments, split as the shell splits them, parse back to the same values."""
    import shlex

    from prspace.study.step_args import step_settings

    given = {"metrics": ["aupr", "auroc"], "n_boot": 1000, "alpha": 0.05, "study": "my study's", "mc_error": None,
             "targets": [0.5, 2]}
    words = shlex.split(step_settings(**given))
    assert words[::2] == ["--set"] * len(given)
    parsed = {k: json.loads(v) for k, _, v in (w.partition("=") for w in words[1::2])}
    assert parsed == given
    cd = S._step_function(R.STEP_CD.name)  # and the step command reads them with their types
    words = shlex.split(step_settings(metrics=["aupr", "auroc"], study="s", seed=3, alpha=1))
    assert S._settings(R.STEP_CD.name, cd, words[1::2]) == {"metrics": ["aupr", "auroc"], "study": "s", "seed": 3,
                                                            "alpha": 1.0}


def test_settings_may_be_written_plainly():
    """Issue 43, point 1: ``--set study=my-study --set metrics=aupr,auroc`` as well as the JSON the rules write;
    a plain word is text only where the setting takes text, and a list's items keep their type."""
    cd = S._step_function(R.STEP_CD.name)  # metrics: list[str], study: str, seed: int, alpha: float
    plain = ["metrics=aupr, auroc", "study=0", "seed=3", "alpha=1"]
    assert S._settings(R.STEP_CD.name, cd, plain) == {"metrics": ["aupr", "auroc"], "study": "0", "seed": 3,
                                                      "alpha": 1.0}
    assert S._settings(R.STEP_CD.name, cd, ["metrics=auroc", "study=", "seed=1"]) == {
        "metrics": ["auroc"], "study": "", "seed": 1}
    assert S._plain("0.3,4", list[float]) == [0.3, 4] and S._plain("0.3,x", list[float]) is S._NOT_GIVEN
    assert S._plain("7", int | None) is S._NOT_GIVEN and S._plain("a,b", list[str] | None) == ["a", "b"]
    for bad, message in [("seed=three", "'three' is not JSON"), ("alpha=high", "'high' is not JSON"),
                         ("seed=[1]", "[1] is not of type int")]:
        with pytest.raises(InputError, match=re.escape(message)):
            S._settings(R.STEP_CD.name, cd, [bad])


def test_step_inputs_leave_out_a_role_without_files_and_reach_the_step_as_given(tmp_path):
    """The rules' --in arguments, split as the shell splits them, are the files of each role; a role
    with no file is left out (the step reads none); the step command reads them back by role."""
    import shlex
    from types import SimpleNamespace

    from prspace.study.step_args import step_inputs

    files = [tmp_path / f"run {i}.parquet" for i in range(2)]
    for f in files:
        f.touch()
    given = SimpleNamespace(tasks=str(tmp_path / "tasks.csv"), metrics=[], downsampling_runs=[str(f) for f in files])
    words = shlex.split(step_inputs("tasks", "metrics", "downsampling_runs")(None, given))
    assert words == ["--in", f"tasks={tmp_path / 'tasks.csv'}", "--in", f"downsampling_runs={files[0]}", str(files[1])]
    assert step_inputs("metrics")(None, given) == ""
    (tmp_path / "tasks.csv").touch()
    evidence = S._step_function(R.STEP_BOYD_EVIDENCE.name)
    assert S._inputs(R.STEP_BOYD_EVIDENCE.name, evidence, [words[1:2], words[3:]]) == {
        "tasks": tmp_path / "tasks.csv", "downsampling_runs": files}


def test_the_step_command_names_the_files_a_step_writes_besides_its_tables(tmp_path, capsys):
    """``Step.files`` (role -> StudyFile): the command asks for each role by name before any work."""
    (tmp_path / "s.json").write_text("{}")
    assert main(["step", R.STEP_SCORE.name, "--in", f"status={tmp_path / 's.json'}"]) == 2
    assert "give --out metrics=PATH --out folds=PATH" in capsys.readouterr().err
    assert main(["step", R.STEP_SCORE.name, "--in", f"status={tmp_path / 's.json'}", "--out", "ranks=x"]) == 2
    assert list(tmp_path.iterdir()) == [tmp_path / "s.json"]
