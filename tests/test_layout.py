"""The package layout keeps its rules (docs/architecture.md, "Package layout"): no import circle
between modules, ``metrics`` imports nothing else of prspace, the sources (``data``, ``local``,
``openml``) know nothing of experiments, and a module over 400 lines says why in its docstring.

Imports are read from the source with :mod:`ast` (nothing is imported); every import counts, the
ones inside functions too, since a late import only hides a circle until the function runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "prspace"
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _target(name: str) -> str | None:
    """The module an imported dotted name loads last (``prspace.a.b`` -> itself or ``prspace.a``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> set[str]:
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module if is_pkg else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            names = [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "prspace":
                t = _target(name)
                if t and t != module and t != "prspace":
                    out.add(t)
    return out


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _parent_free(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Drop a package's imports of its own submodules (its ``__init__`` re-exporting them): the
    submodules importing each other by full path is what could circle."""
    return {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in graph.items()}


def test_the_cycle_finder_finds_a_planted_circle():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(g) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    assert len(MODULES) > 100  # the whole package was read
    assert _cycles(_parent_free(GRAPH)) == []


def test_metrics_import_nothing_else_of_prspace():
    for m, targets in GRAPH.items():
        if m == "prspace.metrics" or m.startswith("prspace.metrics."):
            assert all(t.startswith("prspace.metrics") for t in targets), (m, targets)


def test_sources_know_nothing_of_experiments_figures_audit_or_cli():
    rooms = ("prspace.data", "prspace.local", "prspace.openml")
    banned = ("prspace.experiments", "prspace.figures", "prspace.audit", "prspace.cli", "prspace.verdicts")
    for m, targets in GRAPH.items():
        if m.startswith(rooms):
            assert not [t for t in targets if t.startswith(banned)], m
    # data/ is below local/ and openml/: it imports neither
    for m, targets in GRAPH.items():
        if m.startswith("prspace.data"):
            assert not [t for t in targets if t.startswith(("prspace.local", "prspace.openml"))], (m, targets)


def test_a_long_module_says_why_in_its_docstring():
    long = []
    for m, p in MODULES.items():
        n = len(p.read_text(encoding="utf-8").splitlines())
        doc = ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or ""
        if n > MAX_LINES and "one module" not in doc.lower():
            long.append(f"{m} ({n} lines)")
    assert not long, f"over {MAX_LINES} lines without a reason ('One module ...') in the docstring: {long}"


def test_the_old_sources_package_is_gone():
    assert not (PKG / "sources").exists()
    assert "prspace.metrics" in MODULES and (PKG / "metrics" / "_kernel.py").is_file()


def test_the_package_root_shows_the_layers():
    """At most three modules at the package root (issue 34); the shared code lives in folders that name
    its layer: core (contracts and I/O), stats (shared statistics), study (workflow glue), repo (tools)."""
    root_modules = sorted(p.name for p in PKG.glob("*.py"))
    assert len(root_modules) <= 3, root_modules
    for layer in ("core", "stats", "study", "repo"):
        assert (PKG / layer / "__init__.py").is_file(), layer
