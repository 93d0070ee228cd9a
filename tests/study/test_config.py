"""The workflow's configuration: every shipped config is valid, bad ones fail at once, naming the key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
SNAKEMAKE = Path(sys.executable).with_name("snakemake")
CONFIGS = [ROOT / "config.yaml", *sorted((ROOT / "config").glob("*.yaml")), ROOT / "tests/fixtures/config-reduced.yaml"]


def _validator() -> Draft202012Validator:
    schema = yaml.safe_load(SCHEMA.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_are_valid(path):
    cfg = yaml.safe_load(path.read_text())
    errors = [e.message for e in _validator().iter_errors(cfg)]
    assert errors == []


def test_studies_have_distinct_names():
    names = [yaml.safe_load(p.read_text())["study"] for p in CONFIGS]
    assert len(names) == len(set(names))


def _schema_objects(node, path="config"):
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            yield path, node
        for key, child in node.get("properties", {}).items():
            yield from _schema_objects(child, f"{path}.{key}")


def test_every_level_forbids_unknown_keys():
    schema = yaml.safe_load(SCHEMA.read_text())
    levels = list(_schema_objects(schema))
    assert len(levels) >= 4
    for path, node in levels:
        assert node.get("additionalProperties") is False, path


def _dry_run(tmp_path, config: dict) -> subprocess.CompletedProcess:
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(yaml.safe_dump(config))
    return subprocess.run(
        [str(SNAKEMAKE), "-n", "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path),
         "--configfile", str(cfg), "--cores", "1"],
        capture_output=True, text=True, timeout=300,
    )


def _reduced() -> dict:
    return yaml.safe_load((ROOT / "tests/fixtures/config-reduced.yaml").read_text())


@pytest.mark.slow
def test_schema_violations_fail_at_once_naming_each_key(tmp_path):
    """A misspelt key, two wrong types, an unknown top-level key and a bad source, in one config: the
    workflow's schema check names every violation at once (``study_config.config_problems`` lists them
    all, tests/study/test_workflow_commands.py), so one dry run shows each is caught and named and that
    nothing ran.  It was one dry run per defect (three Snakemake start-ups instead of one)."""
    cfg = _reduced()
    cfg["local"]["fold"] = 5  # misspelt 'folds'
    cfg["local"]["folds"] = "ten"
    cfg["analysis"]["n_boot"] = 1.5
    cfg["studdy"] = "x"
    cfg["source"] = "kaggle"
    res = _dry_run(tmp_path, cfg)
    assert res.returncode != 0
    out = res.stdout + res.stderr
    assert "config key local" in out and "'fold' was unexpected" in out
    assert "config key local.folds: 'ten' is not of type 'integer'" in out
    assert "config key analysis.n_boot" in out
    assert "'studdy' was unexpected" in out
    assert "config key source: 'kaggle' is not one of ['local', 'openml']" in out
    assert not (tmp_path / "work").exists()  # nothing ran


@pytest.mark.slow
def test_nested_command_line_overrides_are_typed(tmp_path):
    """Snakemake reads key={...} overrides as strings; numbers and booleans are converted, words still fail."""
    cfg = tmp_path / "reduced.yaml"
    cfg.write_text(yaml.safe_dump(_reduced()))
    base = [str(SNAKEMAKE), "-n", "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path),
            "--configfile", str(cfg), "--cores", "1", "--config"]
    ok = subprocess.run([*base, 'local={"folds": 5}', 'analysis={"n_boot": 50}'],
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr[-2000:]
    bad = subprocess.run([*base, 'local={"folds": "five"}'], capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0
    assert "config key local.folds: 'five' is not of type 'integer'" in bad.stdout + bad.stderr


# ------------------------------------------------------- the setup check (issue 15, item 2)

from prspace.study.setup_check import check_setup  # noqa: E402


def _local(tmp_path, **local) -> dict:
    return {"study": "s", "source": "local", "seed": 0,
            "local": {"suite": "default", "data_dir": None, "target": None, "pos_label": None,
                      "datasets": [], "learners": "small", **local}}


@pytest.fixture
def data_dir(tmp_path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    (d / "a.csv").write_text("x,label\n" + "".join(f"{i},{'yes' if i % 4 else 'no'}\n" for i in range(40)))
    return d


def test_setup_check_accepts_a_good_own_data_setup(tmp_path, data_dir):
    assert check_setup(_local(tmp_path, data_dir=str(data_dir), target="label"), workdir=tmp_path) == []
    assert check_setup(_local(tmp_path, data_dir="data", target="label", pos_label="no"), workdir=tmp_path) == []
    assert check_setup(_local(tmp_path), workdir=tmp_path) == []  # the embedded default suite


@pytest.mark.parametrize(
    ("local", "key", "fix"),
    [
        ({"data_dir": "data"}, "local.target", "class column"),  # issue: data_dir without target
        ({"data_dir": "nowhere", "target": "label"}, "local.data_dir", "is not a folder"),
        ({"data_dir": "empty", "target": "label"}, "local.data_dir", "no data files"),
        ({"data_dir": "data", "target": "class"}, "local.target", "no usable file in"),
        ({"data_dir": "data", "target": "label", "pos_label": "maybe"}, "local.pos_label", "values: no, yes"),
        ({"data_dir": "data", "target": "label", "learners": "gnb,tree-depth9"}, "local.learners", "tree-depth9"),
        ({"suite": "everything"}, "local.suite", "choose one of default, all"),
        ({"target": "label"}, "local.target", "local.data_dir is not"),
        ({"pos_label": "yes"}, "local.pos_label", "only to your own files"),
        ({"data_dir": "data", "target": "label", "datasets": ["user-b"]}, "local.datasets", "user-b"),
    ],
)
def test_setup_check_names_the_key_and_the_fix(tmp_path, data_dir, local, key, fix):
    (tmp_path / "empty").mkdir()
    # relative folders are relative to the working directory (the workflow's --directory)
    problems = check_setup(_local(tmp_path, **local), workdir=tmp_path)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"config key {key}: ") and fix in problems[0], problems


def test_a_semicolon_file_is_named_as_such_by_the_setup_check(tmp_path):
    d = tmp_path / "semi"
    d.mkdir()
    (d / "a.csv").write_text("x|label\n1|yes\n")
    problems = check_setup(_local(tmp_path, data_dir=str(d), target="label"), workdir=tmp_path)
    assert len(problems) == 1 and "does not look comma-separated" in problems[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("local", "expected"),
    [
        # own files: three problems in one run (each setup problem is one line; check_setup lists them all)
        ({"data_dir": "missing", "target": None, "learners": "gnb,foo"},
         ["config key local.target: missing", "config key local.data_dir: 'missing' is not a folder",
          "config key local.learners: unknown learner(s) foo"]),
        # the embedded suites
        ({"suite": "nosuch", "datasets": []}, ["config key local.suite: unknown suite 'nosuch'"]),
    ],
)
def test_a_bad_setup_stops_the_run_before_any_job(tmp_path, local, expected):
    """The Snakefile's setup check stops the run before any job, each problem named.  Which problem
    is found is check_setup's business, each branch checked in-process above (a class column missing
    or absent from every file, a folder that is not one, an unknown learner or suite); here two dry
    runs check the workflow's wiring (it was five, one per problem: each Snakemake start-up ~5-10 CPU s)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.csv").write_text("x,label\n" + "".join(f"{i},{i % 2}\n" for i in range(40)))
    cfg = _reduced()
    cfg["local"].update({"datasets": [] if "data_dir" in local else cfg["local"]["datasets"], **local})
    res = _dry_run(tmp_path, cfg)
    out = res.stdout + res.stderr
    assert res.returncode != 0
    assert all(line in out for line in expected) and "nothing was run" in out, out[-3000:]
    assert f"has {len(expected)} problem(s)" in out, out[-3000:]
    assert not (tmp_path / "work").exists()


@pytest.mark.slow
def test_no_usable_file_stops_after_the_task_list_saying_why(tmp_path):
    """The issue: ended in `prspace score collect: error: argument --status: expected at least one argument`."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.csv").write_text("x,label\n" + "".join(f"{i},same\n" for i in range(40)))
    cfg = _reduced()
    cfg["local"].update(datasets=[], data_dir="data", target="label")
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(cfg))
    res = subprocess.run(
        [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path),
         "--configfile", str(path), "--cores", "1"],
        capture_output=True, text=True, timeout=600,
    )
    out = res.stdout + res.stderr
    assert res.returncode != 0
    # issue 24: the setup check says it before any job (it read the file whole)
    assert "no usable dataset" in out and "user-a: a.csv: target column 'label' has 1 class (same)" in out, out[-3000:]
    assert "nothing was run" in out and "InputFunctionException" not in out
    assert "expected at least one argument" not in out
