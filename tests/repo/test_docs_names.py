"""Every file, module, rules file and command the documentation names exists (issue 43, point 6).

Read from README.md, CONTRIBUTING.md and docs/*.md, in inline code (backticks) and code blocks:

* a repository path (``src/prspace/...``, ``tests/...``, ``benchmarks/...``, ``workflow/...``, ``config/...``,
  ``docs/...``, ``profiles/...``, ``examples/...``, ``.ci/...``; placeholders like ``<study>`` or ``*`` skipped)
  is a file or folder of the repository;
* a rules file (``name.smk``) is one of ``workflow/rules/``;
* a dotted name ``prspace.a.b`` (or ``experiments.x``, ``stats.x``, ``verdicts.x``, ``audit.x``, ``figures.x``,
  ``display.x``, ``cli.x`` as the docs abbreviate them) imports, attribute by attribute;
* a command line ``prspace NAME ...`` names a sub-command of ``prspace.cli``.

It found, when written: ``cd.smk`` and ``experiments.findings`` / ``prspace findings`` (gone in earlier
refactors) and a benchmark output file that is not committed.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
PATH = re.compile(r"((?:src/prspace|tests|benchmarks|workflow|config|docs|profiles|examples|\.ci)/[\w./-]+)(?::\d+)?")
DOTTED = re.compile(r"prspace(?:\.\w+)+|(?:experiments|stats|verdicts|audit|figures|display|cli)(?:\.\w+)+")
FILE_SUFFIX = re.compile(r"\.(?:md|csv|py|smk|ya?ml|json|png|pdf|html|txt|parquet|tsv|log)$")


def _commands() -> set[str]:
    import prspace.cli

    return {m.name.replace("_", "-") for m in pkgutil.iter_modules(prspace.cli.__path__) if not m.name.startswith("_")}


def _imports(dotted: str) -> bool:
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        try:
            for attr in parts[k:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def problems(text: str, *, root: Path = ROOT, commands: set[str] | None = None) -> list[str]:
    """What a Markdown text names that does not exist."""
    commands = _commands() if commands is None else commands
    rules = {p.name for p in (root / "workflow" / "rules").glob("*.smk")}
    out = []
    inline = [t.strip() for t in re.findall(r"`([^`\n]+)`", text)]
    for tok in inline:
        m = PATH.fullmatch(tok)
        if m and not (root / m.group(1)).exists():
            out.append(f"path {tok}")
        if re.fullmatch(r"[\w-]+\.smk", tok) and tok not in rules:
            out.append(f"rules file {tok}")
        if DOTTED.fullmatch(tok) and not FILE_SUFFIX.search(tok):
            name = tok if tok.startswith("prspace.") else f"prspace.{tok}"
            if not _imports(name):
                out.append(f"module or name {tok}")
    blocks = [ln.strip().removeprefix("$ ") for b in re.findall(r"```.*?\n(.*?)```", text, re.S) for ln in b.splitlines()]
    for line in [t for t in inline if t.startswith("prspace ")] + [ln for ln in blocks if ln.startswith("prspace ")]:
        name = line.split()[1].rstrip(":")
        if not name.startswith("-") and not name.isupper() and name not in commands:
            out.append(f"command prspace {name}")
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_name_in_the_docs_exists(doc):
    assert problems(doc.read_text()) == []


def test_the_check_finds_what_does_not_exist():
    text = ("`src/prspace/nosuch.py` `cd.smk` `experiments.findings` `prspace.metrics.nosuch` "
            "`prspace findings --x` `prspace.metrics.auroc` `steps.smk` `prspace audit FILE` `local.folds`\n"
            "```bash\n$ prspace nosuch-command\nprspace COMMAND --help\n```\n")
    assert problems(text) == ["path src/prspace/nosuch.py", "rules file cd.smk", "module or name experiments.findings",
                              "module or name prspace.metrics.nosuch", "command prspace findings",
                              "command prspace nosuch-command"]


ROLE = re.compile(r":(?:mod|func|class|data|meth|attr|obj):`~?(prspace(?:\.\w+)+)`")
SOURCES = sorted([*(ROOT / "src" / "prspace").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py"),
                  *(ROOT / "workflow").rglob("*.smk"), *(ROOT / "workflow").glob("Snakefile")])


def role_problems(text: str) -> list[str]:
    """The full names (``prspace.a.b``) that the docstrings' cross-references (``:mod:``, ``:func:``,
    ``:class:``, ``:data:``, ``:meth:``, ``:attr:``) name and that do not import."""
    return [name for name in dict.fromkeys(ROLE.findall(text)) if not _imports(name)]


def test_every_name_a_docstring_refers_to_exists():
    """A module moved or renamed leaves no cross-reference to its old name behind (the folder split of
    issue 43 left four: ``audit_intervals.bootstrap``, ``.jackknife``, ``.JACK_GROUPS``, ``stats.cd.study_tables``)."""
    found = {p.relative_to(ROOT).as_posix(): bad for p in SOURCES if (bad := role_problems(p.read_text()))}
    assert len(SOURCES) > 150
    assert found == {}


def test_the_docstring_check_finds_what_does_not_exist():
    text = (":func:`prspace.metrics.auroc` :mod:`~prspace.stats.intervals` :data:`prspace.stats.nosuch.X` "
            ":func:`prspace.metrics.nosuch` :func:`local_name`")
    assert role_problems(text) == ["prspace.stats.nosuch.X", "prspace.metrics.nosuch"]
