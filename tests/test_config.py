"""The workflow's configuration: every shipped config is valid, bad ones fail at once, naming the key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
SNAKEMAKE = Path(sys.executable).with_name("snakemake")
CONFIGS = [ROOT / "config.yaml", *sorted((ROOT / "config").glob("*.yaml")), ROOT / "tests/data/config-reduced.yaml"]


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
    return yaml.safe_load((ROOT / "tests/data/config-reduced.yaml").read_text())


@pytest.mark.slow
def test_unknown_key_fails_at_once_naming_it(tmp_path):
    cfg = _reduced()
    cfg["local"]["fold"] = 5  # misspelt 'folds'
    res = _dry_run(tmp_path, cfg)
    assert res.returncode != 0
    out = res.stdout + res.stderr
    assert "config key local" in out and "'fold' was unexpected" in out
    assert not (tmp_path / "work").exists()  # nothing ran


@pytest.mark.slow
def test_wrong_type_fails_at_once_naming_it(tmp_path):
    cfg = _reduced()
    cfg["local"]["folds"] = "ten"
    cfg["analysis"]["n_boot"] = 1.5
    res = _dry_run(tmp_path, cfg)
    assert res.returncode != 0
    out = res.stdout + res.stderr
    assert "config key local.folds: 'ten' is not of type 'integer'" in out
    assert "config key analysis.n_boot" in out


@pytest.mark.slow
def test_unknown_top_level_key_and_bad_source(tmp_path):
    cfg = _reduced()
    cfg["studdy"] = "x"
    cfg["source"] = "kaggle"
    res = _dry_run(tmp_path, cfg)
    assert res.returncode != 0
    out = res.stdout + res.stderr
    assert "'studdy' was unexpected" in out
    assert "config key source: 'kaggle' is not one of ['local', 'openml']" in out


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
