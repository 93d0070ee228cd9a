"""The study registry (issue 34, point 1): every table, figure and step declared once
(prspace.core.registry); what a study makes derived from it (prspace.study.registry).

The oracle: ``tests/fixtures/registry_frozen.json``, the lists the code computed before the registry
existed (commit 874b883: ``workflow_commands.study_targets``, ``report_tables``, ``verdict_inputs``,
``OPENML_TABLES``, ``figures.study.FIGURE_TABLES`` / ``NEEDS_TEXT`` / ``OPTIONAL_TABLES``,
``verdicts.report.EVIDENCE_TABLES`` and the names lists of the rules), dumped once and never rewritten.
"""

from __future__ import annotations

import ast
import io
import json
import re
import sys
import tokenize
import warnings
from pathlib import Path

import pytest
import yaml

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.repo.numbers import registry_listing
from prspace.study import registry as SR
from prspace.study.study_config import check_config

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"
FROZEN = json.loads((ROOT / "tests" / "fixtures" / "registry_frozen.json").read_text())

#: config name in the frozen file -> (config file, overrides)
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


def test_the_frozen_lists_cover_every_config():
    assert set(FROZEN["configs"]) == set(CONFIGS)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_targets_report_tables_and_verdict_inputs_are_the_frozen_ones(name):
    cfg, frozen = _config(name), FROZEN["configs"][name]
    targets = SR.study_targets(cfg)
    assert len(targets) == len(set(targets))
    # intended additions: files the rules already wrote, now targets too (verify checks them)
    study = cfg["study"]
    added = {f"results/{study}/tables/figure_selection.md"}
    if cfg["source"] == "openml":
        added |= {f"results/{study}/tables/{n}.{e}" for n in ("openml_study", "openml_selfcheck", "openml_selfcheck_summary")
                  for e in ("csv", "md")}
    assert set(targets) == set(frozen["study_targets"]) | added
    assert [[n, *t] for n, t in SR.report_tables(cfg).items()] == frozen["report_tables"]  # order too
    assert SR.verdict_inputs(cfg, "T") == frozen["verdict_inputs"]


def test_openml_tables_and_evidence_are_the_frozen_ones():
    assert [[n, *t] for n, t in SR.openml_report_tables().items()] == FROZEN["openml_tables"]
    assert [f"{t.name}.csv" for t in R.EVIDENCE_ROWS] == FROZEN["evidence_tables"]


def test_figures_read_the_frozen_tables():
    assert {f.name: [d.name for d in f.data] for f in R.FIGURES} == FROZEN["figure_tables"]
    assert sorted(f.name for f in R.FIGURES if f.text) == FROZEN["needs_text"]
    assert {f.name: [d.name for d in f.optional] for f in R.FIGURES if f.optional} == FROZEN["optional_tables"]
    boyd = {f.name: [d.name for d in (*f.data, f.text)] for f in R.FIGURES if f.name in FROZEN["boyd_figure_tables"]}
    assert boyd == FROZEN["boyd_figure_tables"]
    assert [f.name for f in R.BOYD_THEORY_FIGURES] == FROZEN["theory_figures"]
    assert [f.name for f in R.FIGURES if f.text == R.FIGURE_TEXT] == FROZEN["study_figures"]
    # figure_text is shared by Figures 4 and 5 (boyd.smk's BOYD_FIGURE_SUBCATEGORY and report() captions)
    sections = {f.name: f.section for f in R.FIGURES if f.category == R.BOYD_CATEGORY}
    assert sections == {
        "boyd_fig1_min_pr_curve": "Theory", "boyd_fig2_min_pr_curves": "Theory", "boyd_fig3_aucpr_min": "Theory",
        "boyd_fig4_f1_contours": "Theory", "boyd_fig_pr_prg": "Theory", "boyd_downsampling": "Downsampling (section 4.3)",
        "boyd_fold_skew": "Fold skew (section 4.1)", "boyd_aggregation": "Aggregation over tasks (section 4.2)"}
    assert {f.formats for f in R.FIGURES if f.category == R.BOYD_CATEGORY} == {"boyd"}
    assert {f.formats for f in R.FIGURES if f.category != R.BOYD_CATEGORY} == {"analysis"}


def _md_names(step: R.Step) -> list[str]:
    return [t.name for t in step.tables if t.md]


def test_the_rules_names_lists_are_the_frozen_ones():
    for key, value in [("rank_tables", _md_names(R.STEP_RANK)), ("skew_tables", _md_names(R.STEP_CONTROLLED_SKEW)),
                       ("rank_set_tables", _md_names(R.STEP_RANK_SET_SUMMARY)), ("cd_tables", _md_names(R.STEP_CD)),
                       ("boyd_aggregation_tables", _md_names(R.STEP_BOYD_AGGREGATION)),
                       ("study_tables", [t.name for t in R.TABLES if t.category == R.TABLES_CATEGORY])]:
        assert list(value) == FROZEN[key], key


def test_every_name_is_one_constant_and_one_writer():
    for kind, items, prefix in [("table", R.TABLES, ""), ("figure data", R.FIGURE_DATA, ""), ("figure", R.FIGURES, "FIGURE_")]:
        names = [i.name for i in items]
        assert len(names) == len(set(names)), kind
        for i in items:
            assert getattr(R, prefix + i.name.upper()) is i, (kind, i.name)
    for s in R.STEPS:
        assert getattr(R, "STEP_" + s.name.upper()) is s
        assert s.when in R.WHEN and set(s.evidence) <= set(s.tables)
    written = [t for s in R.STEPS for t in (*s.tables, *s.figure_data, *s.figures)]
    assert len(written) == len(set(written)) and set(written) == {*R.TABLES, *R.FIGURE_DATA, *R.FIGURES}
    order = {s: i for i, s in enumerate(R.STEPS)}
    for f in R.FIGURES:  # each figure's step comes after the steps of its tables
        assert all(order[R.step_of(d)] < order[R.step_of(f)] for d in (*f.data, *f.optional, *([f.text] if f.text else [])))


def test_lookup_by_name_and_paths():
    assert R.table("noise_evidence") is R.NOISE_EVIDENCE and R.figure("fig5_curves") is R.FIGURE_FIG5_CURVES
    with pytest.raises(KeyError, match="no table 'nope'"):
        R.table("nope")
    assert R.METRICS.files("t") == [Path("t/metrics.csv")]
    assert R.TASKS.files("t") == [Path("t/tasks.csv"), Path("t/tasks.md")]
    assert R.FIGURE_CD_DIAGRAM.path("f", "pdf") == Path("f/cd_diagram.pdf")
    with pytest.raises(ValueError, match="unknown step condition"):
        SR.step_active("boyd.nope", _config("config.yaml"))


def _captions() -> set[Path]:
    rules = ROOT / "workflow" / "rules"
    return {(rules / item.report_caption()).resolve() for item in (*[t for t in R.TABLES if t.report], *R.FIGURES)}


def test_every_caption_exists_and_no_caption_is_an_orphan():
    captions = _captions()
    assert [c for c in captions if not c.is_file()] == []
    pages = {(ROOT / "workflow" / "report" / f"{R.WORKFLOW_PAGE.name}.{R.WORKFLOW_PAGE.ext}").resolve()}
    rst = {p.resolve() for p in (ROOT / "workflow" / "report").rglob("*.rst")}
    assert sorted(map(str, rst - captions - pages)) == []


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
