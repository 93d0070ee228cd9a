"""Every relative link of README.md and docs/*.md resolves, and every page of docs/ opens with what it answers.

A link is a Markdown link or image ``[text](target)`` / ``![alt](target)`` outside code, or an HTML ``href`` /
``src`` attribute. A relative target names a file or folder of the repository (relative to the page) and, after
``#``, a heading of that page as the code host anchors it (GitHub's rule: lower case, punctuation but ``-`` and
``_`` dropped, spaces to ``-``, a repeated heading ``-1``, ``-2``...) or an explicit ``<a id>`` / ``<a name>``.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", flags=re.S | re.M)
INLINE = re.compile(r"(`+)(?:(?!\1).)+?\1", flags=re.S)
MD_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", flags=re.I)


def _prose(text: str) -> str:
    """The page without its fenced code blocks and inline code (links there are examples, not links)."""
    return INLINE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor a code host (GitHub) gives a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading anchors as its text
    text = re.sub(r"[^\w\- ]", "", text)  # \w keeps letters of any script, digits and _
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor of a Markdown page: its headings' (repeated ones numbered) and explicit ids."""
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", page.read_text()).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m[1])
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    out |= set(re.findall(r"<a\s+(?:id|name)=[\"']([^\"']+)[\"']", page.read_text()))
    return out


def links(page: Path) -> list[str]:
    text = _prose(page.read_text())
    return [t for t in MD_LINK.findall(text) + HTML_LINK.findall(text) if not EXTERNAL.match(t)]


def broken(page: Path) -> list[str]:
    bad = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / unquote(path)).resolve() if path else page
        if not dest.exists():
            bad.append(f"{target}: no file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
        elif anchor and dest.suffix == ".md" and unquote(anchor).lower() not in anchors(dest):
            bad.append(f"{target}: no heading anchored #{anchor} in {dest.name}")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    assert not broken(page), "\n".join(broken(page))


def test_the_link_check_finds_what_it_should(tmp_path):
    """The checker on a made page: a good file link, a good anchor (GitHub's slug of a heading with code,
    punctuation and a repeat), and each kind of broken link found; links in code are not links."""
    (tmp_path / "other.md").write_text("# Other\n\n## `make run` side by side (issue 60)\n\n## Notes\n\n## Notes\n")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n[a](other.md) [b](other.md#make-run-side-by-side-issue-60) [c](other.md#notes-1)\n"
                    "![d](missing.png) [e](other.md#nowhere) [f](https://example.org/x) <img src=\"gone.png\">\n"
                    "`[g](nothing.md)`\n\n```\n[h](nothing.md)\n```\n")
    assert sorted(links(page)) == sorted(["other.md", "other.md#make-run-side-by-side-issue-60", "other.md#notes-1",
                                          "missing.png", "other.md#nowhere", "gone.png"])
    bad = broken(page)
    assert [b.split(":")[0] for b in bad] == ["missing.png", "other.md#nowhere", "gone.png"]
    assert slug("What it found: the answer, in brief (2026)") == "what-it-found-the-answer-in-brief-2026"


DOC_PAGES = sorted((ROOT / "docs").glob("*.md"))
NOT_PROSE = re.compile(r"^(?:\||```|~~~|#|<!--|[-*+] |\d+\. |    |>)")


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: p.name)
def test_every_page_opens_with_what_it_answers(page):
    """Issue 78: right under its title each page of docs/ says what it answers, in a paragraph of prose of at most
    five lines (not a table, list, code, a generated block or another heading)."""
    lines = page.read_text().splitlines()
    assert lines[0].startswith("# "), "a page starts with its title"
    i = 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    para = []
    while i < len(lines) and lines[i].strip():
        para.append(lines[i])
        i += 1
    assert para and not any(NOT_PROSE.match(x) for x in para), f"{page.name} opens with {para[:1]}, not prose"
    assert len(para) <= 5, f"{page.name}'s opening paragraph has {len(para)} lines (at most 5)"
