"""The recipes of ``CONTRIBUTING.md`` name files that exist, and say how many files a change touches.

Each recipe (a ``### `` section under ``## Recipes``) ends with ``Files (N...):`` and a bullet list
of repo paths; every one of them, and every path with a ``/`` in a code span of the recipe's text,
must exist in the repository (a ``<name>`` placeholder is skipped, a ``*`` must match a file). The
table, experiment, figure and verdict-row recipes state their counts, within issue 43's limits plus the
caption file of a report output (issue 61: captions are files beside the workflow,
``workflow/report/captions/``), and ``tests/test_recipes.py`` performs them and counts the files they touch.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
RECIPES = ("A table", "An experiment", "A figure", "A verdict row", "A metric", "A data source", "A learner")
#: Issue 43, "Deliver" 1: the files a recipe touches, at most (a verdict row: kept at its count before),
#: each one more since issue 61 moved the report's captions into files of their own.
MAX_FILES = {"A table": 3, "An experiment": 6, "A figure": 5, "A verdict row": 6}

_WORD = re.compile(r"[A-Za-z0-9_.\-/*<>]+")


def _recipes(text: str) -> dict[str, str]:
    """Recipe title -> its text, from the ``## Recipes`` section."""
    m = re.search(r"^## Recipes\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert m, "CONTRIBUTING.md has no '## Recipes' section"
    parts = re.split(r"^### (.+)\n", m.group(1), flags=re.M)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2], strict=True)}


def _files(body: str) -> tuple[str, list[str]]:
    """The ``Files ...:`` line of a recipe and the paths of the bullet list under it."""
    m = re.search(r"^(Files\b.*?):\n\n((?:- `[^`]+`\n)+)", body, flags=re.M | re.S)
    assert m, "the recipe has no 'Files (...):' line followed by a bullet list of paths in backticks"
    return m.group(1), re.findall(r"^- `([^`]+)`", m.group(2), flags=re.M)


def _paths_in_text(body: str) -> list[str]:
    """Every word with a ``/`` in a code span of ``body`` (trailing punctuation dropped)."""
    out = []
    for span in re.findall(r"`([^`]+)`", body):
        for word in span.split():
            word = word.rstrip(",;:)")
            if "/" in word and _WORD.fullmatch(word) and not word.startswith(("-", "http")):
                out.append(word)
    return out


def _missing(paths: list[str], root: Path) -> list[str]:
    """The paths that name nothing under ``root`` (placeholders ``<...>`` skipped, globs must match)."""
    out = []
    for p in paths:
        if "<" in p or ">" in p:
            continue
        if "*" in p:
            if not list(root.glob(p)):
                out.append(p)
        elif not (root / p).exists():
            out.append(p)
    return out


RECIPE_TEXT = _recipes(CONTRIBUTING.read_text(encoding="utf-8"))


def test_a_recipe_of_a_report_output_lists_its_caption_file():
    """Issue 61: the caption of a table or figure in the report is a file beside the workflow, which the
    recipes that add one list and count."""
    for title, kind in [("A table", "tables"), ("An experiment", "tables"), ("A figure", "figures"),
                        ("A verdict row", "tables")]:
        _, files = _files(RECIPE_TEXT[title])
        assert f"workflow/report/captions/{kind}/<name>.rst" in files, title
        assert "caption=" not in RECIPE_TEXT[title], title  # the registry holds no caption text


def test_every_recipe_is_there_with_its_files():
    assert set(RECIPES) <= set(RECIPE_TEXT), sorted(set(RECIPES) - set(RECIPE_TEXT))
    for title in RECIPE_TEXT:
        _, files = _files(RECIPE_TEXT[title])
        assert files, title
        assert len(files) == len(set(files)), (title, files)


@pytest.mark.parametrize("title", RECIPES)
def test_every_path_a_recipe_names_exists(title):
    body = RECIPE_TEXT[title]
    _, files = _files(body)
    named = files + _paths_in_text(body)
    assert _missing(named, ROOT) == [], f"CONTRIBUTING.md, recipe {title!r}: no such file in the repository"
    # the recipe names real files, not only placeholders
    assert [p for p in files if "<" not in p], title


@pytest.mark.parametrize("title", list(MAX_FILES))
def test_the_recipe_states_its_count_within_the_limit(title):
    line, files = _files(RECIPE_TEXT[title])
    stated = re.match(r"Files \((\d+)", line)
    assert stated, f"the recipe {title!r} must say how many files it touches: {line!r}"
    assert int(stated.group(1)) == len(files), (line, files)
    assert len(files) <= MAX_FILES[title], files


def test_the_checks_find_planted_faults(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "x.md").write_text("")
    assert _missing(["src/a.py", "src/<name>.py", "docs/*.md", "src/b.py", "docs/*.rst"], tmp_path) == [
        "src/b.py", "docs/*.rst"]
    body = ("Run `python benchmarks/b.py` and `prspace.core.registry`, then `src/a.py`, and `work/<study>/`.\n\n"
            "Files (2):\n\n- `src/a.py`\n- `pyproject.toml`\n")
    assert _paths_in_text(body) == ["benchmarks/b.py", "src/a.py", "work/<study>/", "src/a.py"]
    assert _files(body) == ("Files (2)", ["src/a.py", "pyproject.toml"])
    recipes = _recipes("# T\n\n## Recipes\n\n### One\n\nx\n\n### Two\n\ny\n\n## Next\n\nz\n")
    assert list(recipes) == ["One", "Two"] and "z" not in recipes["Two"]
    with pytest.raises(AssertionError):
        _files("Files: none listed\n")
