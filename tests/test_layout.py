"""The package layout keeps its rules (docs/architecture.md, "Package layout"): no import circle
between modules or between packages, no package importing a higher layer (the layer line of
docs/architecture.md, "Layers and late imports"), an import inside a function only where it defers a
slow package (the ``deferred:`` line there), ``metrics`` imports nothing else of prspace, the sources
(``data``, ``local``, ``openml``) know nothing of experiments, and a module over 400 lines says why
in its docstring; no folder holds more than 15 modules, no two modules share a file name, the steps of
``experiments`` are apart from its science, and every data file of the package is package data.

Imports are read from the source with :mod:`ast` (nothing is imported); every import counts, the
ones inside functions too, since a late import only hides a circle until the function runs.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PKG = SRC / "prspace"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAX_LINES = 400
#: the most modules a folder holds without sub-folders (issue 43, Deliver 5)
MAX_FOLDER_MODULES = 15

#: Function-level imports that defer nothing slow, per file (file -> count), while a conversion is
#: under way: it may only shrink (a file may hold at most its count, a file not here none). Empty
#: since issue 34 converted the last files.
OFFENDERS: dict[str, int] = {}


def _modules(src: Path = SRC) -> dict[str, Path]:
    out = {}
    for p in sorted((src / "prspace").rglob("*.py")):
        parts = list(p.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _target(name: str, modules: dict[str, Path] = MODULES) -> str | None:
    """The module an imported dotted name loads last (``prspace.a.b`` -> itself or ``prspace.a``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _statements(module: str, path: Path):
    """``(node, dotted names, in_function, in_type_checking)`` of every import statement of a module."""
    is_pkg = path.name == "__init__.py"

    def names(node) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = node.module or ""
        if node.level:
            anchor = module if is_pkg else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                anchor = anchor.rpartition(".")[0]
            base = f"{anchor}.{base}" if base else anchor
        return [f"{base}.{a.name}" for a in node.names]

    def walk(node, in_fn: bool, in_tc: bool):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.Import, ast.ImportFrom)):
                yield ch, names(ch), in_fn, in_tc
            tc = in_tc or (isinstance(ch, ast.If) and "TYPE_CHECKING" in ast.unparse(ch.test))
            yield from walk(ch, in_fn or isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)), tc)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), False, False)


def _imports(module: str, path: Path, modules: dict[str, Path] = MODULES) -> set[str]:
    out: set[str] = set()
    for _, names, _, _ in _statements(module, path):
        for name in names:
            if name.split(".")[0] == "prspace":
                t = _target(name, modules)
                if t and t != module and t != "prspace":
                    out.add(t)
    return out


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {m: _imports(m, p, modules) for m, p in modules.items()}


GRAPH = _graph(MODULES)


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


def test_the_science_never_reads_a_source():
    """The experiments, the statistics, the figures and the verdicts read tables and predictions files
    (``prspace.core``'s contracts), never a source of data (issue 43): loading a dataset or fitting a
    learner is the command line's wiring (``prspace boyd downsample``), a learner's family is the shared
    vocabulary of ``prspace.core.panels``, and the OpenML self-check's rows are read from its table."""
    science = ("prspace.experiments", "prspace.stats", "prspace.figures", "prspace.verdicts", "prspace.metrics")
    sources = ("prspace.data", "prspace.local", "prspace.openml")
    bad = {m: sorted(t for t in targets if t.startswith(sources))
           for m, targets in GRAPH.items() if m.startswith(science)}
    assert not {m: t for m, t in bad.items() if t}, bad
    assert any(m.startswith("prspace.experiments") for m in GRAPH)  # the graph was read


def test_the_steps_are_apart_from_the_science():
    """A step function of ``experiments`` (a ``run=`` of the registry) lives in ``experiments.steps``, and
    the science of the topic packages (``fk``, ``boyd``, ``noise``, ``skew``, ``ranking``) never imports a
    step (docs/architecture.md, "One paragraph per folder")."""
    runs = re.findall(r'run="(prspace\.experiments\.[\w.]+):\w+"', (PKG / "core" / "registry.py").read_text())
    assert runs and all(r.startswith("prspace.experiments.steps.") and r in MODULES for r in runs), runs
    steps = "prspace.experiments.steps"
    bad = {m: sorted(t for t in targets if t.startswith(steps + "."))
           for m, targets in GRAPH.items() if m.startswith("prspace.experiments.") and not m.startswith(steps)}
    assert not {m: t for m, t in bad.items() if t}, bad
    names = [m.rpartition(".")[2] for m in MODULES if m.startswith(steps + ".")]
    assert names and all(n.endswith(("_step", "_steps")) for n in names), names


def test_every_data_file_of_the_package_is_package_data():
    """A file of the package that is not Python (the suites, the audit's rule tables in ``audit/data/``)
    matches a pattern of ``[tool.setuptools.package-data]`` in pyproject.toml, so that a wheel ships it."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["prspace"]
    data = [p.relative_to(PKG).as_posix() for p in PKG.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert "audit/data/calibration_table.csv" in data
    assert not [f for f in data if not any(fnmatch.fnmatchcase(f, pat) for pat in patterns)], patterns


def test_no_folder_holds_more_than_15_modules():
    """Folders named for what they hold (issue 43): a folder with more than ``MAX_FOLDER_MODULES`` modules
    is split into sub-folders (``experiments/``, ``audit/``)."""
    folders = {p.parent for p in MODULES.values()}
    big = {f.relative_to(SRC).as_posix(): n for f in folders
           if (n := len([p for p in f.glob("*.py") if p.name != "__init__.py"])) > MAX_FOLDER_MODULES}
    assert len(folders) > 20 and not big, big


def test_a_module_name_is_understood_without_its_folder():
    """No two modules of the package share a file name (issue 43): a name says what the module holds
    without its folder (``audit/inference/audit_pairwise.py`` beside ``stats/pairwise.py``; the
    command modules of ``cli/`` keep their command's name, so the modules they call are named apart)."""
    names: dict[str, list[str]] = {}
    for m, p in MODULES.items():
        if p.name != "__init__.py":
            names.setdefault(p.name, []).append(m)
    assert len(names) > 100
    assert not {n: ms for n, ms in names.items() if len(ms) > 1}


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


def _architecture_line(key: str) -> str:
    """The ``<key>: ...`` line of docs/architecture.md ("Layers and late imports")."""
    found = re.findall(rf"^{key}: (.+)$", ARCHITECTURE.read_text(encoding="utf-8"), flags=re.M)
    assert len(found) == 1, f"docs/architecture.md must hold exactly one '{key}:' line, found {len(found)}"
    return found[0].strip()


def _layers() -> dict[str, int]:
    """Package -> layer (0 lowest) from ``layers: a, b < c < ...``."""
    return {p.strip(): i for i, group in enumerate(_architecture_line("layers").split("<"))
            for p in group.split(",")}


def _deferred() -> tuple[str, ...]:
    return tuple(p.strip() for p in _architecture_line("deferred").split(","))


def _package(module: str) -> str | None:
    """``prspace.<package>`` of a module; None for the root modules (``prspace``, ``__main__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in _LAYER_NAMES) else None


_LAYER_NAMES = set(_layers())


def _package_graph(graph: dict[str, set[str]]) -> dict[str, dict[str, list[str]]]:
    """Package -> imported package -> the importing modules (witnesses), own package left out."""
    out: dict[str, dict[str, list[str]]] = {}
    for m, targets in graph.items():
        a = _package(m)
        for t in targets:
            b = _package(t)
            if a and b and a != b:
                out.setdefault(a, {}).setdefault(b, []).append(f"{m} -> {t}")
    return out


def _not_downward(graph: dict[str, set[str]], layers: dict[str, int]) -> list[str]:
    """Every package edge that does not go to a lower layer (upward, sideways or an unknown package)."""
    bad = []
    for a, edges in sorted(_package_graph(graph).items()):
        for b, why in sorted(edges.items()):
            if a not in layers or b not in layers:
                bad.append(f"{a} -> {b}: package not in the layer line of docs/architecture.md ({why[0]})")
            elif layers[b] >= layers[a]:
                bad.append(f"{a} (layer {layers[a]}) -> {b} (layer {layers[b]}): {sorted(why)}")
    return bad


def _is_deferred(name: str, deferred: tuple[str, ...]) -> bool:
    """``name`` is (in) a deferred package: its top package is on the line (``sklearn``), or the line
    names it or a package above it (``scipy.stats`` defers ``scipy.stats.norm``, not ``scipy.special``)."""
    return any(name == d or name.startswith(d + ".") for d in deferred)


def _heavy_at_import(modules: dict[str, Path], deferred: tuple[str, ...]) -> set[str]:
    """Modules that import a deferred package when imported: at their top, or through a prspace
    module (or a parent package's ``__init__``) that does."""
    top: dict[str, set[str]] = {}
    heavy = set()
    for m, p in modules.items():
        top[m] = set()
        for _, names, in_fn, in_tc in _statements(m, p):
            if in_fn or in_tc:
                continue
            for name in names:
                if _is_deferred(name, deferred):
                    heavy.add(m)
                elif name.split(".")[0] == "prspace" and (t := _target(name, modules)):
                    top[m].add(t)
        parts = m.split(".")
        top[m] |= {".".join(parts[:i]) for i in range(2, len(parts)) if ".".join(parts[:i]) in modules}
    changed = True
    while changed:
        changed = False
        for m, ts in top.items():
            if m not in heavy and ts & heavy:
                heavy.add(m)
                changed = True
    return heavy


def _late_imports(src: Path, modules: dict[str, Path], deferred: tuple[str, ...]) -> dict[str, int]:
    """Per file (relative to ``src``): import statements inside a function that defer nothing slow."""
    heavy = _heavy_at_import(modules, deferred)
    out: dict[str, int] = {}
    for m, p in modules.items():
        for _, names, in_fn, in_tc in _statements(m, p):
            if not in_fn or in_tc:
                continue
            defers = any(_is_deferred(n, deferred)
                         or (n.split(".")[0] == "prspace" and _target(n, modules) in heavy) for n in names)
            if not defers:
                key = p.relative_to(src).as_posix()
                out[key] = out.get(key, 0) + 1
    return out


def test_the_layer_and_deferred_lines_are_read():
    layers = _layers()
    assert layers["core"] == layers["metrics"] == 0 and layers["cli"] == max(layers.values())
    assert layers["experiments"] < layers["verdicts"] == layers["figures"] < layers["audit"]
    assert {"matplotlib", "sklearn"} <= set(_deferred())
    assert {p.name for p in PKG.iterdir() if (p / "__init__.py").is_file()} == set(layers)


def test_no_package_circle():
    pg = {a: set(edges) for a, edges in _package_graph(GRAPH).items()}
    assert pg, "no package edge read"
    assert _cycles(pg) == []


def test_no_upward_import():
    assert _not_downward(GRAPH, _layers()) == []


def test_function_level_imports_only_where_listed():
    found = _late_imports(SRC, MODULES, _deferred())
    over = {f: n for f, n in found.items() if n > OFFENDERS.get(f, 0)}
    assert not over, (
        "imports inside functions that defer nothing on the 'deferred:' line of docs/architecture.md: move "
        f"them to the module top: {over} (file: count; tests/test_layout.py OFFENDERS may only shrink)")


def _plant(tmp_path: Path, files: dict[str, str]) -> tuple[Path, dict[str, Path]]:
    src = tmp_path / "src"
    for rel, text in {**{f"prspace/{p}/__init__.py": "" for p in ("core", "experiments", "figures", "verdicts")},
                      "prspace/__init__.py": "", **files}.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    return src, _modules(src)


def test_the_checks_fail_on_a_planted_bad_tree(tmp_path):
    """A tree with an upward import, a circle between packages, a sideways import and late imports:
    each check names exactly the planted faults, and a clean tree passes."""
    src, modules = _plant(tmp_path, {
        "prspace/core/evidence.py": "import numpy as np\n",
        "prspace/core/draw.py": "import matplotlib\n",
        "prspace/experiments/a.py": ("from prspace.core import evidence\n\n"
                                     "def f():\n    from prspace.figures import b\n    import json\n"
                                     "    import sklearn\n    from prspace.core import draw\n"),
        "prspace/figures/b.py": "from prspace.verdicts.v import rule\n",
        "prspace/verdicts/v.py": "from prspace.experiments.a import f\n\ndef rule():\n    pass\n",
    })
    graph = _graph(modules)
    layers = {"core": 0, "experiments": 1, "figures": 2, "verdicts": 2}
    bad = _not_downward(graph, layers)
    assert [b.split(":")[0] for b in bad] == ["experiments (layer 1) -> figures (layer 2)",
                                             "figures (layer 2) -> verdicts (layer 2)"]
    assert _cycles({a: set(e) for a, e in _package_graph(graph).items()}) == [["experiments", "figures", "verdicts"]]
    # json and the figures module defer nothing slow; sklearn and core.draw (matplotlib at its top) do
    assert _late_imports(src, modules, ("matplotlib", "sklearn")) == {"prspace/experiments/a.py": 2}
    with pytest.raises(AssertionError):
        assert _not_downward(graph, layers) == []
    clean, cmods = _plant(tmp_path / "clean", {"prspace/core/evidence.py": "import numpy as np\n",
                                               "prspace/verdicts/v.py": "from prspace.core import evidence\n"})
    assert _not_downward(_graph(cmods), layers) == [] and _late_imports(clean, cmods, ("sklearn",)) == {}


#: test folders that are not a package of src/prspace: the end-to-end runs of the workflow, the
#: fixtures they read and the SLURM cluster's files
NOT_PACKAGES = {"workflow", "fixtures", "slurm", "__pycache__"}
#: tests of the repository as a whole, at the root of tests/
ROOT_TESTS = {"test_layout.py", "test_lint.py", "test_contributing.py", "test_recipes.py", "test_complexity.py",
              "test_architecture.py", "test_docs_links.py"}


def test_tests_mirror_the_package():
    """A module's tests are found by its path: tests/<package>/test_*.py for src/prspace/<package>/."""
    tests = ROOT / "tests"
    packages = {p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    folders = {p.name for p in tests.iterdir() if p.is_dir()} - NOT_PACKAGES
    assert folders <= packages, f"test folders without a package of the same name: {sorted(folders - packages)}"
    loose = {p.name for p in tests.glob("test_*.py")} - ROOT_TESTS
    assert not loose, f"move these into tests/<package>/: {sorted(loose)}"
    # no __init__.py: the helpers at tests/ are imported by bare name, so test basenames stay unique
    names = [p.name for p in tests.rglob("test_*.py")]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    assert not list(tests.rglob("__init__.py"))


def _module_aliases() -> dict[str, dict[str, list[str]]]:
    """``{module: {alias: [files]}}`` of every ``from prspace.x import y as Z`` and ``import prspace.x.y as Z``
    (a package module imported under a name) in the package, the tests, the benchmarks and the workflow."""
    out: dict[str, dict[str, list[str]]] = {}
    files = [p for d in ("src", "tests", "benchmarks", "examples", "workflow") for p in (ROOT / d).rglob("*")
             if p.suffix in (".py", ".smk")] + [ROOT / "Snakefile"]
    for p in files:
        try:
            tree = ast.parse(p.read_text(encoding="utf-8"))
        except SyntaxError:  # a Snakefile's rules are not Python: its imports are read by pattern below
            tree = ast.parse("\n".join(line for line in p.read_text(encoding="utf-8").splitlines()
                                       if re.match(r"\s*(from|import) prspace", line)).replace("    ", ""))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("prspace"):
                names = [(f"{node.module}.{a.name}", a.asname) for a in node.names if a.asname]
            elif isinstance(node, ast.Import):
                names = [(a.name, a.asname) for a in node.names if a.asname and a.name.startswith("prspace")]
            for mod, alias in names:
                path = ROOT / "src" / mod.replace(".", "/")
                if path.with_suffix(".py").exists() or (path / "__init__.py").exists():  # a module, not a name in one
                    out.setdefault(mod, {}).setdefault(alias, []).append(str(p.relative_to(ROOT)))
    return out


def test_a_module_has_one_alias_everywhere():
    """Issue 61: a module imported under a name has that one name in every file (the registry ``R``, the claims
    ``REG``, the verdict rule ``RULE``, the ranking ``RANKING``, ...), so that a reader never meets ``R`` as
    three different modules."""
    aliases = _module_aliases()
    assert {"prspace.core.registry", "prspace.core.claims"} <= set(aliases)
    assert not {m: a for m, a in aliases.items() if len(a) > 1}, {m: a for m, a in aliases.items() if len(a) > 1}
