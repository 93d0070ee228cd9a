"""``prspace boyd``'s options take their defaults from ``workflow/schemas/boyd.schema.yaml`` (issue 79.1): one home
per default, the schema; no option of the command restates one as a number or a list."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import yaml

from prspace.cli import boyd

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "boyd.schema.yaml"
SOURCE = ROOT / "src" / "prspace" / "cli" / "boyd.py"


def _schema_section(section: str) -> dict[str, object]:
    props = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))["properties"][section]["properties"]
    return {k: v["default"] for k, v in props.items() if "default" in v}


def _option_defaults() -> dict[str, dict[str, object]]:
    """Sub-command -> option dest -> its default, as ``prspace boyd`` registers them."""
    parser = argparse.ArgumentParser()
    boyd.register(parser.add_subparsers())
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    (cmd,) = [a for a in action.choices["boyd"]._actions if isinstance(a, argparse._SubParsersAction)]
    return {name: {a.dest: a.default for a in sub._actions} for name, sub in cmd.choices.items()}


def _divergent(options: dict[str, dict[str, object]], schema_of) -> list[str]:
    """Every option whose dest is a key of its sub-command's schema section but whose default is not the schema's."""
    bad = []
    for command, section in boyd.SECTIONS.items():
        schema = schema_of(section)
        bad += [f"{command} --{dest.replace('_', '-')}: {value!r}, the schema's boyd.{section}.{dest} is {schema[dest]!r}"
                for dest, value in options[command].items() if dest in schema and value != schema[dest]]
    return bad


def _literal_defaults(source: str) -> list[str]:
    """``--option`` of every ``add_argument(..., default=<number, text or list of them>)`` of a schema key."""
    keys = {k for section in boyd.SECTIONS.values() for k in _schema_section(section)}
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            flag = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else ""
            for kw in node.keywords:
                none = isinstance(kw.value, ast.Constant) and kw.value.value is None
                literal = isinstance(kw.value, (ast.Constant, ast.List, ast.Tuple)) and not none
                if kw.arg == "default" and literal and flag.lstrip("-").replace("-", "_") in keys:
                    out.append(flag)
    return out


def test_every_option_of_a_schema_key_takes_the_schemas_default():
    options = _option_defaults()
    compared = [d for c, s in boyd.SECTIONS.items() for d in options[c] if d in _schema_section(s)]
    # the eight settings the command shares with the schema (issue 79.1)
    assert sorted(compared) == ["dispersions", "folds", "learners", "max_pi", "max_repeats", "ratios", "repeats", "seeds"]
    assert _divergent(options, _schema_section) == []


def test_no_option_restates_a_default_of_the_schema():
    assert _literal_defaults(SOURCE.read_text(encoding="utf-8")) == []


def test_the_checks_fail_on_a_planted_second_default():
    """A restated default that differs is named by the comparison; one that agrees, by the scan of the source."""
    options = _option_defaults()
    options["downsample"] = {**options["downsample"], "folds": 10}
    assert _divergent(options, _schema_section) == [
        "downsample --folds: 10, the schema's boyd.downsampling.folds is 5"]
    planted = SOURCE.read_text(encoding="utf-8").replace('default=fsk["seeds"]', "default=3")
    assert planted != SOURCE.read_text(encoding="utf-8")
    assert _literal_defaults(planted) == ["--seeds"]
