"""prspace.study.code_version: the digest of the code a rule runs (its params ``code``)."""

from __future__ import annotations

import ast
import pkgutil
import shutil

import pytest

import prspace
from prspace.study import code_version as cv


def _ast_imports(name: str) -> set[str]:
    """The oracle: the prspace modules ``name`` imports, from Python's own parser."""
    source = cv._module_file(name)
    package = name.split(".") if source.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(source.read_bytes())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return {m for m in found if m.startswith("prspace") and cv._module_file(m)}


ALL = sorted(m.name for m in pkgutil.walk_packages(prspace.__path__, "prspace."))


def test_the_text_scan_finds_every_import_the_parser_finds():
    assert len(ALL) > 150
    missed = {name: sorted(_ast_imports(name) - cv._imports(name)) for name in ALL}
    assert not {k: v for k, v in missed.items() if v}


def test_a_rule_depends_on_what_it_imports_and_not_on_the_rest():
    predict = cv.modules("prspace.__main__", "prspace.cli.predict_local")
    assert {"prspace.local.learners", "prspace.local.pipeline", "prspace.metrics._kernel", "prspace.data",
            "prspace.cli"} <= set(predict)
    assert not [m for m in predict if m.startswith(("prspace.figures", "prspace.audit", "prspace.verdicts"))]
    figure = cv.modules("prspace.cli.figure")
    assert "prspace.figures.study" in figure  # imported inside run(): function-level imports count


def test_the_digest_follows_the_source(tmp_path, monkeypatch):
    root = shutil.copytree(cv._ROOT, tmp_path / "prspace", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cv, "_ROOT", root)
    cv._imports.cache_clear()
    cv.code_version.cache_clear()
    try:
        before = cv.command_code("predict-local", "prspace.experiments.steps.score_step:score_step")
        figure = cv.command_code("figure")
        (root / "local" / "learners.py").write_text((root / "local" / "learners.py").read_text() + "\n# edited\n")
        (root / "data" / "suites" / "paperlike.csv").write_text((root / "data" / "suites" / "paperlike.csv").read_text() + "\n")
        cv.code_version.cache_clear()
        after = cv.command_code("predict-local", "prspace.experiments.steps.score_step:score_step")
        assert len(before) == 16 and before != after
        assert cv.command_code("figure") == figure  # a learner is not code the figures run
        (root / "local" / "learners.py").write_text((root / "local" / "learners.py").read_text()[: -len("\n# edited\n")])
        cv.code_version.cache_clear()
        data_only = cv.command_code("predict-local", "prspace.experiments.steps.score_step:score_step")
        assert data_only not in (before, after)  # the suite table alone (data/suites/) changes it
    finally:
        cv._imports.cache_clear()
        cv.code_version.cache_clear()


def test_the_audit_rule_tables_are_in_the_digest_of_the_audit(tmp_path, monkeypatch):
    """The rule tables of ``audit/data/`` (a folder of data, not a package, under the audit's modules)
    count in the code ``prspace audit`` runs, and not in the code of a command that runs no audit module."""
    root = shutil.copytree(cv._ROOT, tmp_path / "prspace", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cv, "_ROOT", root)
    cv._imports.cache_clear()
    cv.code_version.cache_clear()
    try:
        audit, predict = cv.command_code("audit"), cv.command_code("predict-local")
        table = root / "audit" / "data" / "calibration_table.csv"
        table.write_text(table.read_text() + "\n")
        cv.code_version.cache_clear()
        assert cv.command_code("audit") != audit and cv.command_code("predict-local") == predict
    finally:
        cv._imports.cache_clear()
        cv.code_version.cache_clear()


def test_an_unknown_entry_is_named():
    with pytest.raises(ValueError, match="no module 'prspace.cli.nothing'"):
        cv.modules("prspace.cli.nothing")
