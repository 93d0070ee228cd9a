"""What the rules ask of the package (issue 12): config checks, the command lines, the report's
tables.  The rules only name inputs, outputs and these commands; this is where tests reach them."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.study.study_config import (
    check_config,
    coerce_config,
    config_given,
    config_problems,
    prepare_config,
)
from prspace.study.study_plan import caption_of, openml_report_tables, report_tables, study_targets
from prspace.study.workflow_commands import (
    own_data_args,
    predict_command,
    select_command,
    table_html_args,
)

OPENML_TABLES = openml_report_tables()


def boyd_report_tables(cfg: dict) -> dict:
    return {n: t for n, t in report_tables(cfg).items() if t.category == R.BOYD_CATEGORY}

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"
PRSPACE = "python -m prspace"


def _config(path: Path = ROOT / "config.yaml", **overrides) -> dict:
    """A shipped configuration as the workflow sees it: coerced, checked, defaults filled."""
    cfg = yaml.safe_load(path.read_text())
    for key, value in overrides.items():
        if isinstance(value, dict):
            cfg.setdefault(key, {}).update(value)
        else:
            cfg[key] = value
    check_config(cfg, SCHEMAS)
    return cfg


def _argv(cmd: str) -> list[str]:
    return shlex.split(cmd)[len(shlex.split(PRSPACE)):]


def _opt(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


# --- configuration ----------------------------------------------------------------------


def test_nested_config_strings_are_coerced_to_the_schema_types():
    schema = yaml.safe_load((SCHEMAS / "config.schema.yaml").read_text())
    cfg = coerce_config(
        {"seed": "7", "local": {"folds": "5", "pos_label": "null", "data_dir": "12"},
         "analysis": {"n_boot": " 200 "}},
        schema,
    )
    assert cfg["seed"] == 7 and cfg["local"]["folds"] == 5 and cfg["analysis"]["n_boot"] == 200
    assert cfg["local"]["pos_label"] is None
    assert cfg["local"]["data_dir"] == "12"  # a string in the schema stays a string
    assert coerce_config({"local": {"folds": "ten"}}, schema) == {"local": {"folds": "ten"}}


def test_config_problems_name_every_key_sorted():
    schema = yaml.safe_load((SCHEMAS / "config.schema.yaml").read_text())
    cfg = yaml.safe_load((ROOT / "config.yaml").read_text())
    cfg["source"] = "kaggle"
    cfg["local"]["folds"] = "ten"
    lines = config_problems(cfg, schema)
    assert lines == [
        "config key local.folds: 'ten' is not of type 'integer'",
        "config key source: 'kaggle' is not one of ['local', 'openml']",
    ]
    assert config_problems(yaml.safe_load((ROOT / "config.yaml").read_text()), schema) == []


def test_prepare_config_raises_one_message_naming_keys_and_fix():
    cfg = yaml.safe_load((ROOT / "config.yaml").read_text())
    cfg["local"]["fold"] = 3
    with pytest.raises(InputError) as exc:
        prepare_config(cfg, SCHEMAS / "config.schema.yaml")
    text = str(exc.value)
    assert "config key local: Additional properties are not allowed ('fold' was unexpected)" in text
    assert "docs/workflow.md lists every key" in text


def test_config_given_recognises_snakemake_options():
    assert config_given(["--cores", "2", "--config", "study=x"])
    assert config_given(["--configfile=config/paperlike.yaml"])
    assert not config_given(["--cores", "2", "--report", "results/default/report.html"])


# --- command lines ------------------------------------------------------------------------


def test_local_suite_commands():
    cfg = _config()
    sel = _argv(select_command(cfg, PRSPACE))
    assert sel[0] == "list-datasets" and _opt(sel, "--suite") == cfg["local"]["suite"]
    assert _opt(sel, "--min-minority") == str(cfg["local"]["min_minority"])
    pred = _argv(predict_command(cfg, "keel-ecoli1", PRSPACE))
    assert pred[0] == "predict-local" and _opt(pred, "--dataset") == "keel-ecoli1"
    assert _opt(pred, "--learners") == cfg["local"]["learners"]
    assert _opt(pred, "--folds") == str(cfg["local"]["folds"]) and _opt(pred, "--seed") == str(cfg["seed"])
    assert "--data-dir" not in pred and own_data_args(cfg["local"]) == ""


def test_own_data_paths_with_spaces_and_quotes_survive_the_shell(tmp_path):
    folder = tmp_path / "my data's folder"
    cfg = _config(local={"data_dir": str(folder), "target": "class label", "pos_label": "yes; rm"})
    for cmd in (select_command(cfg, PRSPACE), predict_command(cfg, "user-a b", PRSPACE)):
        argv = _argv(cmd)
        assert _opt(argv, "--data-dir") == str(folder)
        assert _opt(argv, "--target") == "class label" and _opt(argv, "--pos-label") == "yes; rm"
        assert "--suite" not in argv
    assert _opt(_argv(predict_command(cfg, "user-a b", PRSPACE)), "--dataset") == "user-a b"
    assert shlex.split(own_data_args(cfg["local"])) == [
        "--data-dir", str(folder), "--target", "class label", "--pos-label", "yes; rm"]


def test_openml_commands_listing_and_replay():
    cfg = _config(source="openml", openml={"task_ids": [3, 31], "tag": "my tag", "max_tasks": 5})
    sel = _argv(select_command(cfg, PRSPACE))
    assert sel[:2] == ["fetch-openml", "select"]
    assert _opt(sel, "--task-ids") == "3,31" and _opt(sel, "--tag") == "my tag"
    assert _opt(sel, "--max-tasks") == "5" and _opt(sel, "--page-size") == str(cfg["openml"]["page_size"])
    pred = _argv(predict_command(cfg, "openml-31", PRSPACE))
    assert pred[:2] == ["fetch-openml", "task"] and _opt(pred, "--task-id") == "31"
    assert "--manifest" not in pred

    replay = _config(source="openml", openml={"replay": "results/x/openml-manifest.json", "tag": "t"})
    sel = _argv(select_command(replay, PRSPACE))
    assert _opt(sel, "--manifest") == "results/x/openml-manifest.json"
    assert "--tag" not in sel  # a replay makes no listing call
    assert _opt(_argv(predict_command(replay, "openml-3", PRSPACE)), "--manifest").endswith(".json")


# --- the report's tables ------------------------------------------------------------------


def test_report_tables_follow_the_boyd_settings():
    default = report_tables(_config())
    study_tables = {t.name for t in R.TABLES if t.category == R.TABLES_CATEGORY}
    assert study_tables <= set(default)
    assert {"boyd_downsampling_table3", "boyd_fold_skew_per_task", "boyd_aggregation_skew_groups",
            "boyd_fig_pr_prg_source", "boyd_table2_check"} <= set(default)
    off = _config(boyd={"enabled": False})
    assert list(report_tables(off)) == [t.name for t in R.TABLES if t.category == R.TABLES_CATEGORY]
    # downsampling needs a local source; OpenML studies report it left out, not as a table
    openml = boyd_report_tables(_config(source="openml"))
    assert "boyd_downsampling_table3" not in openml and "boyd_fold_skew_summary" in openml
    no_ds = boyd_report_tables(_config(boyd={"downsampling": {"enabled": False}}))
    assert not any(n.startswith("boyd_downsampling") for n in no_ds)


def test_every_report_table_has_a_caption():
    tables = {**report_tables(_config()), **OPENML_TABLES}
    assert [name for name in tables if not caption_of(R.table(name)).strip()] == []


def test_table_html_args_pair_inputs_outputs_titles():
    tables = {k: OPENML_TABLES[k] for k in list(OPENML_TABLES)[:2]}
    args = shlex.split(table_html_args(tables, ["a b.csv", "c.csv"], ["a.html", "c.html"], study="s"))
    assert args == ["--table", "a b.csv", "a.html", f"{tables['openml_study'].title} (study s)",
                    "--table", "c.csv", "c.html", f"{list(tables.values())[1].title} (study s)"]
    with pytest.raises(ValueError):
        table_html_args(tables, ["a.csv"], ["a.html", "b.html"], study="s")


# --- the study's outputs -------------------------------------------------------------------------


def test_study_targets_follow_the_config():
    cfg = _config()
    targets = study_targets(cfg)
    assert len(targets) == len(set(targets))
    tables, figures = "results/default/tables", "results/default/figures"
    formats = cfg["analysis"]["figure_formats"]
    # every study: its tables (CSV and Markdown where readers read them), figures in the config's formats,
    # verdicts, the report's HTML page of every report table
    assert {f"{tables}/metrics.csv", f"{tables}/scorecard.md", f"{tables}/skew_evidence.csv", f"{tables}/verdicts.md",
            "results/default/summary.md", "results/default/findings.md", "work/default/report/front.rst"} <= set(targets)
    for name in ("fig4_rank_heatmap", "fig4_auprg_vs_aupr", "fig5_curves", "controlled_skew"):
        assert {f"{figures}/{name}.{e}" for e in formats} <= set(targets)
    assert {f"work/default/report/{n}.html" for n in report_tables(cfg)} <= set(targets)
    boyd_figs = {"boyd_fig1_min_pr_curve", "boyd_fig2_min_pr_curves", "boyd_fig3_aucpr_min", "boyd_fig4_f1_contours",
                 "boyd_fig_pr_prg", "boyd_downsampling", "boyd_fold_skew", "boyd_aggregation"}
    assert {f"{figures}/{n}.png" for n in boyd_figs} <= set(targets)  # PNG always: the report shows it
    # the intermediates the figures are drawn from are not outputs of the study
    assert not [t for t in targets if "/figure_data/" in t]
    # Boyd off: no Boyd output; no theory: no theory figure; downsampling needs a local source
    off = study_targets(_config(boyd={"enabled": False}))
    assert not [t for t in off if "/boyd_" in t] and set(off) < set(targets)
    no_theory = study_targets(_config(boyd={"theory": False}))
    assert not [t for t in no_theory if "boyd_fig" in t or "_check." in t]
    openml = study_targets(_config(source="openml"))
    assert not [t for t in openml if "boyd_downsampling" in t] and f"{figures}/boyd_fold_skew.png" in openml
    assert "results/default/openml-manifest.json" in openml
    assert {f"work/default/report/{n}.html" for n in OPENML_TABLES} <= set(openml)
    assert "results/default/openml-manifest.json" not in targets
    # another study's outputs go under its own name, in the formats it asks for
    svg = study_targets(_config(study="s2", analysis={"figure_formats": ["svg"]}))
    assert "results/s2/figures/fig5_curves.svg" in svg and "results/s2/figures/fig5_curves.png" not in svg
    assert {"results/s2/figures/boyd_fold_skew.png", "results/s2/figures/boyd_fold_skew.svg"} <= set(svg)


def test_rules_files_list_no_targets_of_their_own():
    """The study's outputs are listed once, by study_targets; the rules only name each rule's outputs."""
    for path in [ROOT / "Snakefile", *sorted((ROOT / "workflow" / "rules").glob("*.smk"))]:
        assert "ALL_TARGETS" not in path.read_text(), path.name
    assert "study_targets(config)" in (ROOT / "Snakefile").read_text()


# --- the rules files define no functions (tests/study/test_workflow_inputs.py) --------------------------


def test_snakefile_defines_no_functions():
    assert not re.findall(r"^\s*def (\w+)", (ROOT / "Snakefile").read_text(), flags=re.M)
