"""Every function of the decision rule (``src/prspace/verdicts/rule.py``, public and private) is named in
``docs/verdicts.md``, so that no rule decides a verdict the documents do not state (issue 80.4)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE = ROOT / "src" / "prspace" / "verdicts" / "rule.py"
DOC = ROOT / "docs" / "verdicts.md"


def _undocumented(source: str, doc: str) -> list[str]:
    """The functions defined at the top of ``source`` or in its classes (a function nested in another is part
    of it) that ``doc`` does not name as code (`` `name` `` or `` `module.name` ``)."""
    tree = ast.parse(source)
    nodes = [*tree.body, *(m for c in tree.body if isinstance(c, ast.ClassDef) for m in c.body)]
    names = [n.name for n in nodes if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    return [n for n in names if f"`{n}`" not in doc and f".{n}`" not in doc]


def test_every_function_of_the_rule_is_named_in_the_verdicts_doc():
    source, doc = RULE.read_text(), DOC.read_text()
    assert len(_undocumented(source, "")) >= 15  # the walk finds the rule's functions
    assert _undocumented(source, doc) == []


def test_a_planted_undocumented_rule_is_found():
    source, doc = RULE.read_text(), DOC.read_text()
    planted = source + "\n\ndef _a_rule_added_after_the_results(row):\n    return 'holds'\n"
    assert _undocumented(planted, doc) == ["_a_rule_added_after_the_results"]
