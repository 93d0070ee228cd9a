"""The rules docs/architecture.md states, each checked against the code (issue 61, deliver 6): where the step
functions live, which modules touch files and read the configuration, which functions import ``scipy.stats``
late and that ``prspace audit`` never loads it, where ``prg`` is imported, and the shape of a command module.

Each test reads its list from the text of docs/architecture.md (a ``files:`` line, the names of a sentence), so
that the page and the code cannot drift apart unseen, and reads the code with :mod:`ast` (nothing is imported
but the registry). The import rules (layers, late imports, circles) are tests/test_layout.py's; the audit's
folders, tests/audit/test_audit_layers.py's.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from prspace.core import registry as R
from test_layout import (
    ARCHITECTURE,
    MODULES,
    PKG,
    _heavy_at_import,
    _statements,
)

DOC = ARCHITECTURE.read_text(encoding="utf-8")

#: Attributes whose call touches the file system (a ``Path``'s, ``os``'s, pandas', numpy's, matplotlib's).
FILE_CALLS = frozenset({
    "read_text", "write_text", "read_bytes", "write_bytes", "open", "exists", "is_file", "is_dir", "mkdir",
    "rmdir", "unlink", "iterdir", "glob", "rglob", "stat", "touch", "read_csv", "read_table", "read_parquet",
    "read_json", "read_pickle", "read_excel", "to_csv", "to_parquet", "to_json", "to_pickle", "savefig",
    "savez", "load", "save"})
#: Attributes that touch the file system only on these objects (``os.replace``; a string's ``replace`` does not).
FILE_CALLS_OF = {"replace": {"os"}, "rename": {"os"}, "load": {"np", "json", "pickle"}, "save": {"np"}}


def _doc_names(pattern: str) -> list[str]:
    """The backquoted names in the one passage of docs/architecture.md that ``pattern`` (group 1) finds."""
    found = re.findall(pattern, DOC, flags=re.S)
    assert len(found) == 1, f"docs/architecture.md: expected one passage matching {pattern!r}, found {len(found)}"
    return re.findall(r"`([^`]+)`", found[0])


def _rel(module: str) -> str:
    """``prspace.audit.audit_files`` -> ``audit/audit_files.py`` (a package: its ``__init__.py``)."""
    p = MODULES[module]
    return p.relative_to(PKG).as_posix()


# --------------------------------------------------------------------------- where the step functions live


def test_a_step_function_lives_in_experiments_steps_or_where_the_page_says():
    """"A step function (a ``run=`` of the registry) lives in ``experiments/steps/``", except the steps the
    verdicts paragraph names ("These three steps (...) live here"), which live in ``verdicts/``."""
    in_verdicts = set(_doc_names(r"These \w+ steps \(([^)]*)\) live here"))
    runs = {s.name: s.run.partition(":")[0] for s in R.STEPS if s.run}
    assert len(runs) > 15 and in_verdicts
    placed = {name: "verdicts" if mod.startswith("prspace.verdicts.") else
              "experiments/steps" if mod.startswith("prspace.experiments.steps.") else mod
              for name, mod in runs.items()}
    assert {n for n, where in placed.items() if where == "verdicts"} == in_verdicts, placed
    assert {where for n, where in placed.items() if n not in in_verdicts} == {"experiments/steps"}, placed
    assert all(mod in MODULES for mod in runs.values())


def _misplaced_steps(runs: dict[str, str], in_verdicts: set[str], defined: dict[str, set[str]]) -> list[str]:
    """The steps (name -> ``module:function``) whose function is not where the page says, by the registry's name:
    the function ``<step>_step``, defined (``defined``: module -> its top-level functions) in a module of
    ``experiments/steps/`` (``verdicts/`` for ``in_verdicts``) named ``<step>_step`` or ``<topic>_steps`` (several
    steps); and a function ``*_step`` of a step module that the registry does not run."""
    bad = []
    for name, run in sorted(runs.items()):
        module, _, fn = run.partition(":")
        folder, _, stem = module.rpartition(".")
        where = "prspace.verdicts" if name in in_verdicts else "prspace.experiments.steps"
        if fn != f"{name}_step":
            bad.append(f"step {name}: its function is {fn}, not {name}_step")
        if folder != where:
            bad.append(f"step {name}: in {folder}, not {where}")
        if stem != f"{name}_step" and not stem.endswith("_steps"):
            bad.append(f"step {name}: in module {stem}, not {name}_step (or a <topic>_steps module)")
        if fn not in defined.get(module, set()):
            bad.append(f"step {name}: {module} defines no function {fn}")
    run_fns = {tuple(r.split(":")) for r in runs.values()}
    for module, fns in sorted(defined.items()):
        bad += [f"{module}.{f} looks like a step but the registry runs no such step" for f in sorted(fns)
                if f.endswith("_step") and (module, f) not in run_fns]
    return bad


def _step_modules() -> dict[str, set[str]]:
    """Every module of ``experiments/steps/`` and every ``verdicts/*_step.py``: its top-level functions."""
    mods = {m: p for m, p in MODULES.items() if m.startswith("prspace.experiments.steps.")
            or (m.startswith("prspace.verdicts.") and m.endswith("_step"))}
    return {m: {n.name for n in ast.parse(p.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)}
            for m, p in mods.items()}


def test_each_step_function_is_named_and_placed_as_the_registry_names_it():
    """"In a module named for its step (``<step>_step.py``, or ``<topic>_steps.py`` for several)", the function
    named for its step (``<step>_step``): the registry's name, the function's and the module's are one (issue 79.3)."""
    in_verdicts = set(_doc_names(r"These \w+ steps \(([^)]*)\) live here"))
    runs = {s.name: s.run for s in R.STEPS if s.run}
    defined = _step_modules()
    assert len(runs) > 15 and len(defined) > 10
    assert _misplaced_steps(runs, in_verdicts, defined) == []


def test_the_step_placement_check_fails_on_a_planted_mismatch():
    """A function named apart from its step, a module named for another step, a step outside its folder, a run
    naming a function its module lacks, and a ``*_step`` function the registry does not run: each is named."""
    defined = {"prspace.experiments.steps.cd_step": {"cd_step"},
               "prspace.experiments.steps.skew_step": {"skew_report_step"},
               "prspace.verdicts.controlled_skew_step": {"controlled_skew_step"}}
    runs = {"cd": "prspace.experiments.steps.cd_step:cd_step",
            "controlled_skew": "prspace.verdicts.controlled_skew_step:controlled_skew_step"}
    assert _misplaced_steps(runs, {"controlled_skew"}, defined) == [
        "prspace.experiments.steps.skew_step.skew_report_step looks like a step but the registry runs no such step"]
    planted = {**runs, "rank": "prspace.experiments.steps.cd_step:rank_table",
               "verdicts": "prspace.experiments.steps.verdicts_step:verdicts_step"}
    bad = _misplaced_steps(planted, {"controlled_skew", "verdicts"}, defined)
    assert "step rank: its function is rank_table, not rank_step" in bad
    assert "step rank: in module cd_step, not rank_step (or a <topic>_steps module)" in bad
    assert "step verdicts: in prspace.experiments.steps, not prspace.verdicts" in bad
    assert "step verdicts: prspace.experiments.steps.verdicts_step defines no function verdicts_step" in bad


def test_the_step_modules_the_page_lists_are_the_step_modules():
    """The experiments paragraph lists every module of ``experiments/steps/`` ("... gives the tables their titles
    and notes (``score_step.py``, ...)"), and no other."""
    listed = set(_doc_names(r"gives the tables their titles and\s+notes \(([^)]*)\)"))
    have = {p.name for p in (PKG / "experiments" / "steps").glob("*.py") if p.name != "__init__.py"}
    assert listed == have, f"on the page only: {sorted(listed - have)}; in the folder only: {sorted(have - listed)}"


#: The folders whose paragraph ("One paragraph per folder") names every module the folder holds.
LISTED_FOLDERS = ("core", "local", "verdicts", "study", "repo")


def _paragraph_modules(folder: str) -> set[str]:
    """The module files (backquoted ``name.py``, no folder) the paragraph of ``folder/`` names."""
    found = re.findall(rf"^- \*\*`{folder}/`\*\*(.*?)(?=^- \*\*`|^\S)", DOC, flags=re.S | re.M)
    assert len(found) == 1, f"docs/architecture.md: expected one paragraph of {folder}/, found {len(found)}"
    return {n for n in re.findall(r"`([\w]+\.py)`", found[0])}


def test_each_folder_paragraph_names_the_modules_its_folder_holds():
    """The paragraphs of :data:`LISTED_FOLDERS` name each module of their folder, and none of another folder
    (``panels.py`` is ``core/``'s, not ``local/``'s; issue 79.7)."""
    for folder in LISTED_FOLDERS:
        named = _paragraph_modules(folder)
        have = {p.name for p in (PKG / folder).glob("*.py") if p.name != "__init__.py"}
        assert named == have, f"{folder}/: on the page only {sorted(named - have)}; in the folder only {sorted(have - named)}"


# --------------------------------------------------------------------------- the metrics table


NUMBERS = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def _metrics_table_columns(doc: str) -> tuple[list[str], list[str], int]:
    """From "The metrics table": its columns in the table's order (``<metric>_fold_mean`` expanded over the
    pooled metrics), the per-fold table's columns, and the count of metrics the per-fold sentence states."""
    section = doc[doc.index("## The metrics table"):doc.index("Ranking outputs")]
    cells = re.findall(r"^\| `([^|]+)` \|", section, flags=re.M)
    names = [n.strip("` ") for cell in cells for n in cell.split(",")]
    metrics = [n for cell in cells if "**pooled**" in section.split(cell, 1)[1].split("\n", 1)[0]
               for n in (x.strip("` ") for x in cell.split(","))]
    columns = [c for n in names for c in ([f"{m}{n[len('<metric>'):]}" for m in metrics] if n.startswith("<metric>") else [n])]
    fold = re.search(r"\(`scoring\.FOLD_COLUMNS`\): `([^`]+)` \(of the test fold\) and the (\w+) metrics", section)
    assert fold, "docs/architecture.md: the per-fold sentence"
    return columns, [c.strip() for c in fold.group(1).split(",")] + metrics, NUMBERS[fold.group(2)]


def _metrics_table_mismatches(doc: str) -> list[str]:
    """Where "The metrics table" and the Metrics API of the page differ from the code."""
    from prspace.experiments.fk import scoring
    from prspace.metrics import all_metrics

    columns, fold, count = _metrics_table_columns(doc)
    bad = [] if columns == scoring.METRICS_COLUMNS else [f"metrics table: {columns} != {scoring.METRICS_COLUMNS}"]
    bad += [] if fold == scoring.FOLD_COLUMNS else [f"per-fold table: {fold} != {scoring.FOLD_COLUMNS}"]
    bad += [] if count == len(scoring.METRICS) else [f"'the {count} metrics' but {len(scoring.METRICS)}"]
    keys = [k.strip() for k in re.search(r"-> dict` with keys\n?`([^`]+)`", doc).group(1).split(",")]
    got = list(all_metrics([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]))
    return bad + ([] if keys == got else [f"all_metrics keys: {keys} != {got}"])


def test_the_metrics_table_and_its_count_of_metrics_are_the_codes():
    """"The metrics table" lists ``METRICS_COLUMNS`` in order, the per-fold table ``FOLD_COLUMNS``, "the six
    metrics" counts them, and ``all_metrics`` returns the keys the Metrics API names (issue 79.7)."""
    assert _metrics_table_mismatches(DOC) == []


def test_the_metrics_table_check_fails_on_a_planted_count():
    assert _metrics_table_mismatches(DOC.replace("and the six metrics", "and the seven metrics")) == [
        "'the 7 metrics' but 6"]
    assert _metrics_table_mismatches(DOC.replace("| `aupr_min` |", "| `aupr_max` |"))
    assert _metrics_table_mismatches(DOC.replace("`auroc, average_precision, aupr, aupr_linear, aucnpr, auprg, pi,",
                                                 "`auroc, average_precision, aupr, aucnpr, auprg, pi,"))


# --------------------------------------------------------------------------- who touches files


def _touches(path: Path) -> set[str]:
    """The file-system calls of a module (:data:`FILE_CALLS`, ``open(...)``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == "open":
            out.add("open")
        elif isinstance(f, ast.Attribute):
            owner = f.value.id if isinstance(f.value, ast.Name) else None
            if f.attr in FILE_CALLS_OF:
                if owner in FILE_CALLS_OF[f.attr]:
                    out.add(f.attr)
            elif f.attr in FILE_CALLS:
                out.add(f.attr)
    return out


def _allowed(entry: str, rel: str) -> bool:
    """Whether the ``files:`` entry (a folder ``experiments/steps`` or a module ``core/_io.py``) covers ``rel``."""
    return rel == entry if entry.endswith(".py") else rel.startswith(entry.rstrip("/") + "/")


def _file_rule(modules: dict[str, Path], pkg: Path, entries: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """(modules that touch files outside ``entries``: rel -> calls, entries that cover no module touching one)."""
    touching = {p.relative_to(pkg).as_posix(): sorted(c) for p in modules.values() if (c := _touches(p))}
    outside = {rel: calls for rel, calls in touching.items() if not any(_allowed(e, rel) for e in entries)}
    idle = [e for e in entries if not any(_allowed(e, rel) for rel in touching)]
    return outside, idle


def _line(key: str) -> list[str]:
    """The entries of the ``<key>: a, b, ...`` line of docs/architecture.md."""
    found = re.findall(rf"^{key}: (.+)$", DOC, flags=re.M)
    assert len(found) == 1, f"docs/architecture.md must hold exactly one '{key}:' line, found {len(found)}"
    return [e.strip() for e in found[0].split(",")]


def test_only_the_modules_the_page_names_touch_files():
    outside, idle = _file_rule(MODULES, PKG, _line("files"))
    assert not outside, f"these modules touch files but the 'files:' line of docs/architecture.md names them not: {outside}"
    assert not idle, f"on the 'files:' line but touching no file: {idle}"
    assert "experiments/steps" in _line("files") and "core/output.py" in _line("files")


def test_only_the_modules_the_page_names_read_the_configuration():
    """A study's configuration is YAML: the modules that import ``yaml`` are the ``configuration:`` line's."""
    readers = {_rel(m) for m, p in MODULES.items()
               if any(n == "yaml" or n.startswith("yaml.") for _, names, _, _ in _statements(m, p) for n in names)}
    assert readers == set(_line("configuration"))


def test_the_file_rule_fails_on_a_planted_tree(tmp_path):
    """A science module that reads a CSV, opens a file or asks whether a path exists is named; a string's
    ``replace`` and an entry that no module needs are told apart; the allowed ones pass."""
    pkg = tmp_path / "prspace"
    files = {
        "experiments/fk/scoring.py": "import pandas as pd\n\ndef f(p):\n    return pd.read_csv(p)\n",
        "stats/bands.py": "def f(p):\n    with open(p) as fh:\n        return fh.read()\n",
        "figures/style.py": "def f(p):\n    return p.exists() and 'a'.replace('a', 'b')\n",
        "metrics/pr.py": "def f(s):\n    return s.replace('a', 'b')\n",
        "experiments/steps/rank_step.py": "import pandas as pd\n\ndef f(p):\n    return pd.read_csv(p)\n",
        "core/output.py": "def f(df, p):\n    df.to_csv(p)\n",
    }
    for rel, text in files.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    modules = {rel: pkg / rel for rel in files}
    outside, idle = _file_rule(modules, pkg, ["experiments/steps", "core/output.py", "cli"])
    assert outside == {"experiments/fk/scoring.py": ["read_csv"], "figures/style.py": ["exists"],
                       "stats/bands.py": ["open"]}
    assert idle == ["cli"]
    with pytest.raises(AssertionError):
        assert not outside
    assert _file_rule(modules, pkg, ["experiments", "stats", "figures", "core/output.py"]) == ({}, [])


# --------------------------------------------------------------------------- slow imports named on the page


def test_scipy_stats_is_imported_late_where_the_page_says_and_never_by_prspace_audit():
    listed = set(_doc_names(r"the studentized range, `rankdata` in 2-D: (.*?)\); the studies"))
    late = {_rel(m) for m, p in MODULES.items()
            for _, names, in_fn, _ in _statements(m, p) if in_fn
            for n in names if n == "scipy.stats" or n.startswith("scipy.stats.")}
    assert late == listed, f"late scipy.stats imports: {sorted(late)}; the page: {sorted(listed)}"
    heavy = _heavy_at_import(MODULES, ("scipy.stats",))
    assert "prspace.cli.audit" in MODULES and "prspace.cli.audit" not in heavy
    assert "prspace.stats.cluster_bootstrap" in heavy  # the check sees a top-level import


def test_the_displays_import_matplotlib_and_sklearn_only_when_they_draw():
    """"``display/`` ...: matplotlib and scikit-learn are imported when a display draws": no module of
    ``prspace.display`` imports either when imported (at its top or through a prspace module)."""
    assert "matplotlib" in DOC.split("- **`display/`**", 1)[1].split("- **`stats/`**", 1)[0]
    heavy = _heavy_at_import(MODULES, ("matplotlib", "sklearn"))
    display = [m for m in MODULES if m.startswith("prspace.display")]
    assert display and not [m for m in display if m in heavy]
    assert "prspace.figures.curves" in heavy  # the check sees a module that does


def test_prg_is_imported_only_where_the_page_says():
    (where,) = _doc_names(r"`prg` \(PyPI `pyprg`.*?in place (\(`prspace\.[\w.]+`\))")
    importers = {m for m, p in MODULES.items()
                 for _, names, _, _ in _statements(m, p) for n in names if n == "prg" or n.startswith("prg.")}
    assert importers == {where}


# --------------------------------------------------------------------------- the command modules


def test_a_command_module_registers_and_runs():
    """"One sub-command a module (``register(subparsers)``, ``run(args) -> int``, or one ``run_<sub-command>``
    each where a command has sub-commands: ...)": the commands with sub-commands are the ones the page names."""
    with_subs = {n.replace("-", "_") for n in _doc_names(r"or one `run_<sub-command>` each where a command has "
                                                         r"sub-commands: (.*?); discovered")}
    no_run = set()
    for m, p in MODULES.items():
        if not m.startswith("prspace.cli.") or p.name.startswith("_"):
            continue
        funcs = {n.name for n in ast.parse(p.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)}
        assert "register" in funcs, m
        assert "run" in funcs or any(f.startswith("run_") for f in funcs), m
        if "run" not in funcs:
            no_run.add(p.stem)
    assert no_run == with_subs


# --------------------------------------------------------------------------- the checks can fail


@pytest.mark.parametrize(("check", "old", "new"), [
    (test_a_step_function_lives_in_experiments_steps_or_where_the_page_says,
     "(`controlled_skew`, `completeness`, `verdicts`)", "(`completeness`, `verdicts`)"),
    (test_the_step_modules_the_page_lists_are_the_step_modules, "(`score_step.py`, ", "("),
    (test_each_folder_paragraph_names_the_modules_its_folder_holds, "and `panels.py` (the learners'", "and (the learners'"),
    (test_each_folder_paragraph_names_the_modules_its_folder_holds, "`pool.py`;", "`pool.py`, `panels.py`;"),
    (test_only_the_modules_the_page_names_touch_files, "verdicts/study_evidence.py, ", ""),
    (test_only_the_modules_the_page_names_touch_files, "audit/rule_tables.py", "audit/rule_tables.py, local"),
    (test_only_the_modules_the_page_names_read_the_configuration, "cli/verdicts.py, ", ""),
    (test_scipy_stats_is_imported_late_where_the_page_says_and_never_by_prspace_audit,
     "`audit/intake/columns.py`", "`audit/simulation/power_tests.py`"),
    (test_prg_is_imported_only_where_the_page_says, "(`prspace.verdicts.completeness_step`)", "(`prspace.verdicts.rule`)"),
    (test_a_command_module_registers_and_runs, "`fetch-openml`; discovered", "`fetch`; discovered"),
], ids=["steps-in-verdicts", "step-modules", "core-modules", "local-modules", "files-missing", "files-idle", "configuration", "scipy-stats", "prg",
        "commands"])
def test_each_check_fails_on_a_page_that_says_otherwise(monkeypatch, check, old, new):
    """Each check above, run on the page with one statement made untrue, fails."""
    assert DOC.count(old) == 1, old
    monkeypatch.setattr(sys.modules[__name__], "DOC", DOC.replace(old, new))
    with pytest.raises(AssertionError):
        check()
