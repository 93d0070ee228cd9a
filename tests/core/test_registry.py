"""The study registry (issue 34, point 1): every table, figure and step declared once
(prspace.core.registry); what a study makes derived from it (prspace.study.study_plan).

Invariants that hold for any registry (issue 43): each output is written by exactly one step, each
study target is made by a rule of an active step, every report entry has its caption file beside the
workflow (``workflow/report/captions/``, no file without its entry) and every figure a drawing function, a figure's tables come from steps before it, the verdicts read exactly the
evidence of the enabled steps, and each configuration's targets follow from its switches.  They
replaced ``tests/fixtures/registry_frozen.json``, the lists dumped before the registry existed
(checked once to reproduce them for the seven configurations below before it was deleted).
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import sys
import tokenize
import warnings
from pathlib import Path

import pytest
import yaml

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.repo.quoted_numbers import registry_listing
from prspace.study import study_plan as SR
from prspace.study.study_config import check_config

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"

#: configuration name -> (config file, overrides): the studies and each switch turned
CONFIGS = {
    "config.yaml": ("config.yaml", {}),
    "config/paperlike.yaml": ("config/paperlike.yaml", {}),
    "tests/fixtures/config-reduced.yaml": ("tests/fixtures/config-reduced.yaml", {}),
    "config/openml-paper.yaml": ("config/openml-paper.yaml", {}),
    "config.yaml boyd.enabled=false": ("config.yaml", {"boyd": {"enabled": False}}),
    "config.yaml boyd theory, fold_skew, aggregation off": (
        "config.yaml", {"boyd": {"theory": False, "fold_skew": {"enabled": False}, "aggregation": {"enabled": False}}}),
    "config.yaml source=openml boyd.downsampling on": ("config.yaml", {"source": "openml"}),
}


def _config(name: str) -> dict:
    path, overrides = CONFIGS[name]
    cfg = yaml.safe_load((ROOT / path).read_text())
    for key, value in overrides.items():
        if isinstance(value, dict):
            cfg.setdefault(key, {}).update(value)
        else:
            cfg[key] = value
    check_config(cfg, SCHEMAS)
    return cfg


def _made_by(cfg: dict) -> dict[str, str]:
    """Every file the rules of this study make -> the step (rule) that makes it, from the steps'
    declarations: a step's tables (Markdown twin when ``md``) and figures (in their formats, and a
    figure's source table), the
    report's pages (rules ``report_tables`` / ``openml_report_tables``), rule ``verdicts``'s pages,
    the OpenML manifest."""
    study = cfg["study"]
    results, pages = f"results/{study}", f"work/{study}/report"
    out: dict[str, str] = {}

    def add(path: str, step: R.Step) -> None:
        assert path not in out, f"{path} made by both {out[path]} and {step.name}"
        out[path] = step.name

    for s in SR.active_steps(cfg):
        for t in s.tables:
            for ext in ("csv", "md") if t.md else ("csv",):
                add(f"{results}/tables/{t.name}.{ext}", s)
        for f in s.figures:
            for ext in SR.figure_formats(f, cfg):
                add(f"{results}/figures/{f.name}.{ext}", s)
            if f.source:  # the numbers it draws, written by its rule (issue 78)
                add(f"{results}/tables/{f.source.name}.csv", s)
    for name in SR.report_tables(cfg):
        add(f"{pages}/{name}.html", R.STEP_REPORT_TABLES)
    add(f"{pages}/{R.FRONT_PAGE.name}.{R.FRONT_PAGE.ext}", R.STEP_VERDICTS)
    for f in (R.SUMMARY, R.FINDINGS):
        add(f"{results}/{f.name}.{f.ext}", R.STEP_VERDICTS)
    if SR.step_active(R.STEP_OPENML_MANIFEST.when, cfg):
        add(f"{results}/{R.OPENML_MANIFEST.name}.{R.OPENML_MANIFEST.ext}", R.STEP_OPENML_MANIFEST)
        for name in SR.openml_report_tables():
            add(f"{pages}/{name}.html", R.STEP_OPENML_REPORT_TABLES)
    return out


def test_every_name_is_one_constant_and_one_writer():
    written = [t for s in R.STEPS for t in (*s.tables, *s.figure_data, *s.figures)]
    assert len(written) == len(set(written)), "an output written by two steps"
    assert set(written) == {*R.TABLES, *R.FIGURE_DATA, *R.FIGURES}, "an output written by no step, or undeclared"
    constants = {id(v) for v in vars(R).values()}
    for kind, items in [("table", R.TABLES), ("figure data", R.FIGURE_DATA), ("figure", R.FIGURES), ("step", R.STEPS)]:
        names = [i.name for i in items]
        assert len(names) == len(set(names)), kind
        assert all(id(i) in constants for i in items), kind  # each a constant of the registry
    for s in R.STEPS:
        assert (s.when is None or isinstance(s.when, R.When)) and set(s.evidence) <= set(s.tables), s.name
    order = {s: i for i, s in enumerate(R.STEPS)}
    for f in R.FIGURES:  # each figure's step comes after the steps of its tables
        assert all(order[R.step_of(d)] < order[R.step_of(f)] for d in (*f.data, *f.optional, *([f.text] if f.text else [])))
    used = {d for f in R.FIGURES for d in (*f.data, *f.optional, f.text)}
    assert [d.name for d in R.FIGURE_DATA if d not in used] == [], "a figure-data table no figure draws"


def test_figures_read_tables_of_their_papers_step_and_have_their_formats():
    for f in R.FIGURES:
        assert f.formats == ("boyd" if f.category == R.BOYD_CATEGORY else "analysis"), f.name
        # a figure's tables come from one step (its text table may be shared, as figure_text; an optional
        # table may be a result table of an earlier step: Figure 4 left's shares, disagreement_summary)
        assert len({R.step_of(d) for d in (*f.data, *(d for d in f.optional if not isinstance(d, R.Table)))}) == 1, f.name
        assert all(d in R.TABLES for d in f.optional if isinstance(d, R.Table)), f.name
        # a Boyd figure sits in the report section of the tables its step writes
        sections = {t.section for t in R.step_of(f.data[0]).tables}
        assert f.category != R.BOYD_CATEGORY or sections <= {f.section}, f.name


def _caption_problems(root: Path = ROOT) -> list[str]:
    """Each report entry without its caption file (the error :func:`SR.caption_of` raises, naming the
    file to write), and each caption file of no report entry (an orphan: a renamed or removed output)."""
    problems, wanted = [], set()
    for item in (*(t for t in R.TABLES if t.report), *R.FIGURES):
        wanted.add(SR.caption_path(item, root))
        try:
            SR.caption_of(item, root)
        except InputError as e:
            problems.append(str(e))
    folder = root / SR.CAPTIONS
    problems += [f"{p.relative_to(root).as_posix()} is the caption of no report table or figure: remove it "
                 "or declare its output" for p in sorted(folder.rglob("*")) if p.is_file() and p not in wanted]
    return problems


def test_every_report_entry_has_a_caption_and_every_figure_a_drawing():
    assert _caption_problems() == []
    assert len(list((ROOT / SR.CAPTIONS).rglob("*.rst"))) == len([t for t in R.TABLES if t.report]) + len(R.FIGURES)
    for f in R.FIGURES:
        module, _, function = f.draw.partition(":")
        assert module.startswith("prspace.figures.") and function, f.name
        assert callable(getattr(importlib.import_module(module), function)), f.name


def test_the_report_reads_the_caption_file_beside_the_workflow(tmp_path):
    path = Path(SR.caption_file(R.AUROC_BOUNDS, ROOT))
    assert path == ROOT / "workflow" / "report" / "captions" / "tables" / "auroc_bounds.rst"
    assert path.read_text(encoding="utf-8") == SR.caption_of(R.AUROC_BOUNDS) and path.is_absolute()
    assert SR.caption_file(R.AUROC_BOUNDS) == str(path)  # the package's repository by default
    # a table and a figure may share a name (controlled_skew): two files
    fig = Path(SR.caption_file(R.FIGURE_CONTROLLED_SKEW, ROOT))
    assert fig == ROOT / "workflow" / "report" / "captions" / "figures" / "controlled_skew.rst"
    assert fig != Path(SR.caption_file(R.CONTROLLED_SKEW, ROOT)) and fig.read_text() != SR.caption_of(R.CONTROLLED_SKEW)
    # under another workflow folder (the rule files pass workflow.basedir): its own files
    mine = tmp_path / "workflow" / "report" / "captions" / "tables" / "x.rst"
    mine.parent.mkdir(parents=True)
    mine.write_text("Mine.\n", encoding="utf-8")
    assert SR.caption_of(R.Table("x", "X", None), tmp_path) == "Mine.\n"
    assert SR.caption_file(R.Table("x", "X", None), tmp_path) == str(mine)


def test_a_missing_caption_file_is_an_error_naming_it(tmp_path):
    with pytest.raises(InputError, match=r"table 'x' is in the report but has no caption: write "
                                         r"workflow/report/captions/tables/x\.rst"):
        SR.caption_file(R.Table("x", "X", None), ROOT)
    with pytest.raises(InputError, match=r"figure 'fig5_curves' .* write workflow/report/captions/figures/fig5_curves\.rst"):
        SR.caption_of(R.FIGURE_FIG5_CURVES, tmp_path)
    empty = tmp_path / "workflow" / "report" / "captions" / "tables" / "y.rst"
    empty.parent.mkdir(parents=True)
    empty.write_text(" \n")
    with pytest.raises(InputError, match="caption of table 'y' is empty"):
        SR.caption_of(R.Table("y", "Y", None), tmp_path)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_each_target_is_made_by_one_rule_of_an_active_step(name):
    cfg = _config(name)
    targets = SR.study_targets(cfg)
    assert len(targets) == len(set(targets))
    assert set(targets) == set(_made_by(cfg))


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_targets_follow_from_the_switches(name):
    cfg = _config(name)
    steps = {s.name for s in SR.active_steps(cfg)}
    boyd, local = cfg["boyd"], cfg["source"] == "local"
    W = R.When
    switches = {None: True, W.OPENML: not local, W.BOYD: boyd["enabled"], W.BOYD_THEORY: boyd["enabled"] and boyd["theory"],
                W.BOYD_DOWNSAMPLING: boyd["enabled"] and boyd["downsampling"]["enabled"] and local,
                W.BOYD_FOLD_SKEW: boyd["enabled"] and boyd["fold_skew"]["enabled"],
                W.BOYD_AGGREGATION: boyd["enabled"] and boyd["aggregation"]["enabled"]}
    assert set(switches) == {None, *R.When}
    assert steps == {s.name for s in R.STEPS if switches[s.when]}
    made = set(_made_by(cfg).values())
    assert {s.name for s in R.STEPS if s.tables or s.figures} & steps <= made  # every active step's outputs are targets
    figs = [f for f in R.FIGURES if R.step_of(f).name in steps]
    assert SR.figures(cfg) == figs
    for f in figs:
        want = set(cfg["analysis"]["figure_formats"]) | ({"png"} if f.formats == "boyd" else set())
        assert set(SR.figure_formats(f, cfg)) == want, f.name


@pytest.mark.parametrize("name", list(CONFIGS))
def test_report_tables_and_verdict_inputs_follow_from_the_active_steps(name):
    cfg = _config(name)
    active = [t for s in SR.active_steps(cfg) for t in s.tables]
    # the report: every active table with report=True, in the registry's order, OpenML's apart
    assert list(SR.report_tables(cfg)) == [t.name for t in R.TABLES if t in active and t.report
                                           and t.category != R.OPENML_CATEGORY]
    for n, t in SR.report_tables(cfg).items():
        assert (t.title, t.category, t.subcategory) == (R.table(n).title, R.table(n).category, R.table(n).section)
    assert list(SR.openml_report_tables()) == [t.name for t in R.TABLES if t.report and t.category == R.OPENML_CATEGORY]
    # the verdicts read exactly the evidence tables of the enabled steps
    evidence = [t for s in SR.active_steps(cfg) for t in s.evidence]
    assert SR.verdict_inputs(cfg, "T") == {t.name: f"T/{t.name}.csv" for t in evidence}
    assert set(R.EVIDENCE_ROWS) <= {t for s in R.STEPS for t in s.evidence}


def test_lookup_by_name_and_paths():
    assert R.table("noise_evidence") is R.NOISE_EVIDENCE and R.figure("fig5_curves") is R.FIGURE_FIG5_CURVES
    with pytest.raises(KeyError, match="no table 'nope'"):
        R.table("nope")
    assert R.METRICS.files("t") == [Path("t/metrics.csv")]
    assert R.TASKS.files("t") == [Path("t/tasks.csv"), Path("t/tasks.md")]
    assert R.FIGURE_CD_DIAGRAM.path("f", "pdf") == Path("f/cd_diagram.pdf")
    with pytest.raises(TypeError, match="is a prspace.core.registry.When"):
        SR.step_active("boyd.theory", _config("config.yaml"))  # a string is no condition


def test_a_mistyped_step_fails_at_import_naming_it():
    """Typed steps (issue 43.2): a typo in a condition, input or setting is an AttributeError or
    ValueError where it is written; a wrong type or a bad combination raises naming the step."""
    with pytest.raises(AttributeError):
        R.When.BOYD_THEROY  # noqa: B018
    with pytest.raises(AttributeError):
        R.StudyFile.STAUTS  # noqa: B018
    with pytest.raises(ValueError):
        R.Composed("downsampling_critera")
    with pytest.raises(TypeError, match="OverTasks"):
        R.OverTasks(R.Selection.DOWNSAMPLING, "downsampling_runs")
    with pytest.raises(TypeError, match=r"If\('boyd.theory'"):
        R.If("boyd.theory", R.METRICS)
    with pytest.raises(TypeError, match="does not nest"):
        R.If(R.When.BOYD, R.If(R.When.OPENML, R.METRICS))
    kw = {"run": "m:f", "description": "d"}
    bad = [({"when": "boyd.theory"}, TypeError, "when='boyd.theory'; give a When"),
           ({"inputs": (("metrics", "per_task:metrics"),), **kw}, TypeError, "inputs 'metrics' is 'per_task:metrics'"),
           ({"inputs": (("status", R.StudyFile.STATUS), ("status", R.METRICS)), **kw}, ValueError, "repeats a name"),
           ({"settings": (("criteria", "@downsampling_criteria"), ("n", 3)), **kw}, TypeError, "settings 'n' is 3"),
           ({"files": (("ranks", "ranks"),), **kw}, TypeError, "files 'ranks' is 'ranks', not StudyFile"),
           ({"inputs": (("metrics", R.METRICS),), "description": "d"}, ValueError, "declares inputs but no run"),
           ({"run": "m:f"}, ValueError, "has no description"),
           ({"evidence": (R.METRICS,), "description": "d"}, ValueError, "evidence names a table the step does not write"),
           ({"within": "predict", "description": "d"}, ValueError, "declares within but no run"),
           ({"within": "predict", "resources": (("mem_mb", 1),), **kw}, ValueError, "runs inside another rule's jobs"),
           ({"threads": 2, "description": "d"}, ValueError, "declares threads but no run"),
           ({"threads": 0, **kw}, ValueError, "threads=0; give a whole number of processes >= 1"),
           ({"within": "predict", "threads": 2, **kw}, ValueError, "runs inside another rule's jobs")]
    for fields, error, message in bad:
        with pytest.raises(error, match=re.escape("step 'x' (prspace.core.registry): ") + ".*" + re.escape(message)):
            R.Step("x", **fields)
    with pytest.raises(ValueError, match="identifier"):
        R.Step("figure-x", description="d")


def test_every_rule_written_by_hand_is_justified_in_the_architecture():
    """Issue 43.2: one way to add a computation; each rule outside the loops says why, in one line."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("### Rules written by hand, and why", 1)[1].split("\n#", 1)[0]
    named = {n for line in section.splitlines() if line.startswith("- ") for n in re.findall(r"`(\w+)`", line.split(":")[0])}
    assert named == {s.name for s in R.STEPS if s.run is None and not s.figures}
    assert all(s.description for s in R.STEPS)


def test_the_invariants_fail_on_a_planted_fault(monkeypatch):
    """A table written by two steps, a target no rule makes: the checks above catch them."""
    cfg = _config("tests/fixtures/config-reduced.yaml")
    twice = R.Step("twice", (R.METRICS,), run="x:y", description="d")
    monkeypatch.setattr(R, "STEPS", (*R.STEPS, twice))
    with pytest.raises(AssertionError, match="made by both"):
        _made_by(cfg)
    with pytest.raises(AssertionError, match="written by two steps"):
        test_every_name_is_one_constant_and_one_writer()
    monkeypatch.undo()
    stray = R.Table("stray", "Stray", "x")
    monkeypatch.setattr(R, "TABLES", (*R.TABLES, stray))
    with pytest.raises(AssertionError, match="written by no step"):
        test_every_name_is_one_constant_and_one_writer()
    # a report table without its caption file, a caption file of no output
    assert _caption_problems() == ["table 'stray' is in the report but has no caption: write "
                                   "workflow/report/captions/tables/stray.rst (reStructuredText: what it shows and how to read it)"]
    monkeypatch.undo()
    monkeypatch.setattr(R, "FIGURES", tuple(f for f in R.FIGURES if f is not R.FIGURE_CD_DIAGRAM))
    assert _caption_problems() == ["workflow/report/captions/figures/cd_diagram.rst is the caption of no report "
                                   "table or figure: remove it or declare its output"]


# --- the names test: no table or figure name spelled in code outside core/registry.py ------------

#: Names that are also columns, config keys or commands: they count only as files.
GENERIC = {"tasks", "metrics", "verdicts", "calibration", "sensitivity", "rank_sets", "controlled_skew", "auroc_bounds",
           "scorecard", "workflow", "summary", "findings", "front"}
NAMES = sorted({i.name for i in (*R.TABLES, *R.FIGURE_DATA, *R.FIGURES, R.SUMMARY, R.FINDINGS, R.FRONT_PAGE,
                                 R.WORKFLOW_PAGE, R.OPENML_MANIFEST)}, key=len, reverse=True)
_ALT = "|".join(map(re.escape, NAMES))


def _as_files(names: set[str], exts: str) -> str:
    alt = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return rf"(?<![A-Za-z0-9_-])(?<!docs/)({alt})\.(?:{exts})\b"


#: the name as a file of its kind (a table ``name.csv``/``.md``/``.html``, a figure ``name.png``/``.pdf``/
#: ``.svg``, a caption ``name.rst``, ...), or a path ending in ``/name``
FILE = re.compile("|".join([
    _as_files({t.name for t in R.TABLES}, "csv|md|html|rst"), _as_files({d.name for d in R.FIGURE_DATA}, "csv"),
    _as_files({f.name for f in R.FIGURES}, "png|pdf|svg|rst"),
    *(_as_files({f.name}, re.escape(f.ext)) for f in (R.SUMMARY, R.FINDINGS, R.FRONT_PAGE, R.WORKFLOW_PAGE,
                                                      R.OPENML_MANIFEST)),
    rf"(?<=/)(?<!docs/)({_ALT})(?=$|[\"'}}\s),])"]))
#: the name alone, quoted (rule files)
QUOTED = re.compile(rf"([\"'])({_ALT})\1")

#: file -> names still spelled there; may only shrink (each helper converts its own files)
OFFENDERS: dict[str, set[str]] = {
}  # fmt: skip


def _py_literals(path: Path):
    """The non-docstring string literals of a Python file, without prefix and quotes; a literal with
    white space is a message or help text (prose, like a docstring), not a path."""
    text = path.read_text(encoding="utf-8")
    # ``__all__`` lists identifiers (a function may share a table's name), not names of files
    exported = {line for node in ast.parse(text).body if isinstance(node, ast.Assign | ast.AnnAssign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
                for line in range(node.lineno, node.end_lineno + 1)}
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING and tok.start[0] not in exported:
            is_doc = prev in (None, tokenize.INDENT, tokenize.NEWLINE, tokenize.DEDENT)
            if not is_doc:
                body = tok.string.lstrip("rbfuRBFU")
                q = 3 if body[:3] in ('"""', "'''") else 1
                if not re.search(r"\s", body[q:-q]):
                    yield body[q:-q]
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            prev = tok.type


def _spelled(text: str, *, alone: bool) -> set[str]:
    found = {next(g for g in m.groups() if g) for m in FILE.finditer(text)}
    if alone and text in NAMES and text not in GENERIC:
        found.add(text)
    return found


def spellings(root: Path = ROOT) -> dict[str, set[str]]:
    """file -> table/figure names spelled there as code (a literal that is the name, or the name as a file)."""
    out: dict[str, set[str]] = {}
    for path in sorted((root / "src").rglob("*.py")):
        if path == root / "src" / "prspace" / "core" / "registry.py":
            continue
        found = set().union(*(_spelled(s, alone=True) for s in _py_literals(path)))
        if found:
            out[str(path.relative_to(root))] = found
    for path in [root / "Snakefile", *sorted((root / "workflow" / "rules").glob("*.smk"))]:
        found = set()
        for line in path.read_text(encoding="utf-8").splitlines():
            code = line.split("#", 1)[0]
            found |= _spelled(code, alone=False)
            found |= {m.group(2) for m in QUOTED.finditer(code) if m.group(2) not in GENERIC}
        if found:
            out[str(path.relative_to(root))] = found
    return out


def test_the_names_test_finds_every_form():
    assert _spelled("noise_evidence", alone=True) == {"noise_evidence"}
    assert _spelled("tasks", alone=True) == set()  # generic: only as a file
    assert _spelled("{TABLES}/tasks.md", alone=True) == {"tasks"}
    assert _spelled("{TABLES}/noise_floor_pairs", alone=False) == {"noise_floor_pairs"}
    assert _spelled("/x/boyd_downsampling_summary.md", alone=False) == {"boyd_downsampling_summary"}
    assert _spelled("{LOGS}/noise_evidence.log", alone=False) == set()  # a rule's log, not the table
    assert _spelled("{WORK}/metrics/{task}.csv", alone=False) == set()  # a folder
    assert _spelled("not_a_name.csv", alone=True) == set()
    assert _spelled("docs/verdicts.md", alone=True) == set()  # a page of the docs
    assert _spelled("findings.csv", alone=True) == set()  # not the study's findings.md
    assert _spelled("boyd_fold_skew.pdf", alone=True) == {"boyd_fold_skew"}


def test_no_name_is_spelled_outside_the_registry():
    found = spellings()
    new = {f: sorted(n - OFFENDERS.get(f, set())) for f, n in found.items() if n - OFFENDERS.get(f, set())}
    assert new == {}, "spell these through prspace.core.registry (R.<NAME>)"
    # converted entries may linger while branches merge (each helper's lines would conflict);
    # `python tests/core/test_registry.py --shrink` removes them
    fixed = {f: sorted(n - found.get(f, set())) for f, n in OFFENDERS.items() if n - found.get(f, set())}
    if fixed:
        warnings.warn(f"converted, remove from OFFENDERS (python tests/core/test_registry.py --shrink): {fixed}", stacklevel=1)


def _shrink() -> None:
    """Rewrite :data:`OFFENDERS` in this file to the spellings still there (it never grows)."""
    found = spellings()
    left = {f: n & found.get(f, set()) for f, n in OFFENDERS.items() if n & found.get(f, set())}
    lines = ["OFFENDERS: dict[str, set[str]] = {",
             *(f"    {f!r}: {{{', '.join(map(repr, sorted(n)))}}}," for f, n in sorted(left.items())), "}  # fmt: skip"]
    path = Path(__file__)
    text = re.sub(r"OFFENDERS: dict\[str, set\[str\]\] = \{.*?\n\}(  # fmt: skip)?\n", "\n".join(lines) + "\n",
                  path.read_text(), count=1, flags=re.S)
    path.write_text(text)
    print(f"OFFENDERS: {sum(map(len, left.values()))} spellings in {len(left)} files")


if __name__ == "__main__" and sys.argv[1:] == ["--shrink"]:
    _shrink()


def test_the_docs_list_every_table_figure_data_table_and_figure_of_the_registry():
    for kind, items in [("tables", R.TABLES), ("figure_data", R.FIGURE_DATA), ("figures", R.FIGURES)]:
        rows = registry_listing(kind).strip().splitlines()[2:]
        assert [r.split("`")[1].split(".")[0] for r in rows] == [i.name for i in items]
    assert "| `boyd_fold_skew_summary.csv/.md` | `boyd_fold_skew_report` (`boyd.fold_skew.enabled`) |" in registry_listing("tables")
    with pytest.raises(InputError, match="registry:nope"):
        registry_listing("nope")
    assert "<!-- include: registry:tables -->" in (ROOT / "docs" / "workflow.md").read_text()
