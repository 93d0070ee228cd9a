"""Numbers in README and docs that come from result tables: marked spans, checked and regenerated.

A number quoted from a table is written as a marked span::

    <!-- value: results/default/tables/disagreement_summary.csv metric_a=aupr&metric_b=auprg top1_share .2f -->0.28<!-- /value -->

i.e. the table (path from the repository root), the row (``col=value`` pairs joined by ``&``,
every pair must match exactly one row; or ``row=N`` for the N-th row), the column, and a Python
format spec; a column written ``max:col`` or ``min:col`` quotes the largest or smallest over every
row the selector matches. A whole section of a generated Markdown file (e.g. a study's ``findings.md``) is
quoted as::

    <!-- include: results/default/findings.md Flach%20&%20Kull -->...<!-- /include -->

(the body of the section whose ``## `` heading starts with the given text, up to the next ``## ``
heading). Without a heading the whole file is quoted::

    <!-- include: results/default/summary.md -->...<!-- /include -->

The registry's lists of a study's outputs (:mod:`prspace.core.registry`) are quoted as
``<!-- include: registry:tables -->``, ``registry:figure_data`` and ``registry:figures``
(:func:`registry_listing`). The keys of a configuration schema, each with its default and meaning,
are quoted as ``<!-- include: schema:config -->`` (``workflow/schemas/config.schema.yaml``;
:func:`schema_listing`). The reference of a package's public API, from its docstrings, is quoted as
``<!-- include: api:prspace.metrics -->`` (:func:`prspace.repo.api_reference.api_listing`; ``docs/api.md``).

:func:`check` lists every span whose text differs from the table;
:func:`regenerate` rewrites the spans from the tables. ``prspace numbers FILES`` checks,
``prspace numbers --write FILES`` regenerates (no FILES: README.md and docs/*.md); a test runs the
check on README.md and docs/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.repo.api_reference import api_listing

SPAN = re.compile(r"<!-- value: (?P<table>\S+) (?P<row>\S+) (?P<col>\S+) (?P<fmt>\S+) -->(?P<text>.*?)<!-- /value -->",
                  re.DOTALL)


INCLUDE = re.compile(r"<!-- include: (?P<table>\S+)(?: (?P<row>\S+))? -->(?P<text>.*?)<!-- /include -->",
                     re.DOTALL)


def default_files(root: Path) -> list[Path]:
    """The documents that quote results: README.md and docs/*.md under ``root``."""
    return [p for p in [root / "README.md", *sorted((root / "docs").glob("*.md"))] if p.is_file()]


#: Prefix of an include span quoting a listing of the registry instead of a file.
REGISTRY = "registry:"
#: Prefix of an include span quoting the keys of ``workflow/schemas/<name>.schema.yaml``.
SCHEMA = "schema:"
#: Prefix of an include span quoting the reference of a package's public API (``api:prspace.metrics``).
API = "api:"
#: How each ``Step.when`` reads in the docs (None: every study).
_WHEN = {R.When.BOYD: "`boyd.enabled`", R.When.BOYD_THEORY: "`boyd.theory`",
         R.When.BOYD_DOWNSAMPLING: "`boyd.downsampling.enabled`, local source",
         R.When.BOYD_FOLD_SKEW: "`boyd.fold_skew.enabled`", R.When.BOYD_AGGREGATION: "`boyd.aggregation.enabled`",
         R.When.OPENML: "`source: openml`"}


def _rule(item: R.Table | R.FigureData | R.Figure) -> str:
    return _step_rule(R.step_of(item))


def _step_rule(step: R.Step) -> str:
    return (f"`{step.name}`" + (f" ({_WHEN[step.when]})" if step.when else "")
            + (f" (in the `{step.within}` jobs)" if step.within else ""))


def _input(spec: R.Input) -> str:
    """How a step's input reads in the docs (:data:`prspace.core.registry.Input`)."""
    if isinstance(spec, R.If):
        return f"{_input(spec.spec)} when {_WHEN[spec.when]}"
    if isinstance(spec, (R.Table, R.FigureData)):
        return f"`{_folder(spec)}/{spec.name}.csv`"
    if isinstance(spec, R.StudyFile):
        return f"`{spec.value}`"
    over = {R.Selection.STUDY: "every task", R.Selection.DOWNSAMPLING: "each downsampling task",
            R.Selection.FOLD_SKEW: "each fold-skew task"}
    return f"`{spec.file.value}` of {over[spec.selection]}"


def _reads(step: R.Step) -> str:
    """A step's inputs: its declared roles (a ``prspace step`` rule), a figure's tables, or where the
    hand-written rule names them."""
    if step.run is not None:
        return "; ".join(f"{role}: {_input(spec)}" for role, spec in step.inputs) or "none (simulated)"
    if step.figures:
        f = step.figures[0]
        return ", ".join(_input(d) for d in (*f.data, *f.optional, *([f.text] if f.text else [])))
    return "its rule in `workflow/rules/` (written by hand; docs/architecture.md)"


def _writes(step: R.Step) -> str:
    """A step's outputs from the registry: tables, figure-data tables, figures and its other files."""
    out = [f"`tables/{t.name}.csv{'/.md' if t.md else ''}`" for t in step.tables]
    out += [f"`figure_data/{d.name}.csv`" for d in step.figure_data]
    out += [f"`figures/{f.name}.*`" for f in step.figures]
    out += [f"{role}: `{file.value}`" for role, file in step.files]
    return ", ".join(out) or "files named in its rule"


def _folder(item: R.Table | R.FigureData) -> str:
    """Where a figure's source table lives: a result table, or a figure-data table under work/."""
    return "tables" if isinstance(item, R.Table) else "figure_data"


def registry_listing(kind: str) -> str:
    """A Markdown table of every result table (``tables``: file, the rule that writes it and when,
    the report's section and title), figure-data table (``figure_data``: file, rule, the figures
    drawn from it) or figure (``figures``: file, rule, the tables it is drawn from, its drawing
    function), from :mod:`prspace.core.registry` (the captions are files, ``workflow/report/captions/``)."""
    if kind == "tables":
        rows = ["| file | written by (when) | report section | title |", "| --- | --- | --- | --- |"]
        rows += [f"| `{t.name}.csv{'/.md' if t.md else ''}` | {_rule(t)} | {t.section or t.category} | "
                 f"{t.title} |" for t in R.TABLES]
    elif kind == "figures":
        rows = ["| file | drawn by (when) | from the tables | drawing |", "| --- | --- | --- | --- |"]
        for f in R.FIGURES:
            src = ", ".join(f"`{_folder(d)}/{d.name}.csv`" for d in f.data)
            src += "".join(f" (+ `{_folder(d)}/{d.name}.csv` when given)" for d in f.optional)
            src += f"; text `{_folder(f.text)}/{f.text.name}.csv`" if f.text else ""
            rows.append(f"| `{f.name}` | {_rule(f)} | {src} | `{f.draw}` |")
    elif kind == "figure_data":
        rows = ["| file | written by (when) | drawn in |", "| --- | --- | --- |"]
        for d in R.FIGURE_DATA:
            users = [f for f in R.FIGURES if d in (*f.data, *f.optional, f.text)]
            rows.append(f"| `{d.name}.csv` | {_rule(d)} | {', '.join(f'`{f.name}`' for f in users)} |")
    elif kind == "rules":
        rows = ["| rule (when) | what it does | reads | writes |", "| --- | --- | --- | --- |"]
        rows += [f"| {_step_rule(s)} | {s.description} | {_reads(s)} | {_writes(s)} |" for s in R.STEPS]
    else:
        raise InputError(f"include span names {REGISTRY}{kind}; the registry lists are {REGISTRY}tables, "
                         f"{REGISTRY}figure_data, {REGISTRY}figures and {REGISTRY}rules")
    return "\n" + "\n".join(rows) + "\n"


def _yaml_value(v: object) -> str:
    """A default as a config file writes it (``null``, ``true``, ``[png, pdf]``, ``{}``)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_yaml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_yaml_value(x)}" for k, x in v.items()) + "}"
    return str(v)


def _schema_rows(node: dict, prefix: str, required: set[str]) -> list[str]:
    rows = []
    for key, spec in node.get("properties", {}).items():
        name = prefix + key
        if "properties" in spec:
            rows += _schema_rows(spec, name + ".", set(spec.get("required", [])))
            continue
        default = "required" if key in required else f"`{_yaml_value(spec['default'])}`" if "default" in spec else "none"
        meaning = " ".join(str(spec.get("description", "")).split())
        if "enum" in spec:
            meaning += " One of " + ", ".join(f"`{_yaml_value(v)}`" for v in spec["enum"]) + "."
        meaning = meaning.replace("|", "\\|")
        rows.append(f"| `{name}` | {default} | {meaning} |")
    return rows


def schema_listing(root: Path, name: str) -> str:
    """A Markdown table of every key of ``workflow/schemas/<name>.schema.yaml`` (nested keys dotted,
    in the schema's order), its default (``required`` for a key without one that must be given)
    and its description: the schema is the one place of each default."""
    path = root / "workflow" / "schemas" / f"{name}.schema.yaml"
    if not path.is_file():
        raise InputError(f"include span names {SCHEMA}{name}, but {path.relative_to(root)} does not exist; "
                         f"name a schema of workflow/schemas (e.g. {SCHEMA}config)")
    schema = yaml.safe_load(path.read_text(encoding="utf-8"))
    rows = ["| key | default | meaning |", "| --- | --- | --- |"]
    rows += _schema_rows(schema, "", set(schema.get("required", [])))
    return "\n" + "\n".join(rows) + "\n"


def section(root: Path, path: str, heading: str | None) -> str:
    """The body of the ``## <heading>...`` section of a Markdown file (without its heading line, so
    the quoting document keeps its own heading structure); with no heading, the whole file; a
    ``registry:<kind>`` path is :func:`registry_listing`."""
    if path.startswith(REGISTRY):
        return registry_listing(path.removeprefix(REGISTRY))
    if path.startswith(SCHEMA):
        return schema_listing(root, path.removeprefix(SCHEMA))
    if path.startswith(API):
        return api_listing(path.removeprefix(API))
    f = root / path
    if not f.is_file():
        raise InputError(f"include span names {path}, which does not exist; run the study that writes it")
    if heading is None:
        return "\n" + f.read_text().strip() + "\n"
    want = "## " + heading.replace("%20", " ")
    lines = f.read_text().splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith(want)), None)
    if start is None:
        raise InputError(f"include span: {path} has no section starting {want!r}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n" + "\n".join(lines[start + 1:end]).strip() + "\n"


@dataclass(frozen=True)
class Mismatch:
    file: str
    line: int
    spec: str
    text: str
    expected: str


#: Column prefixes that quote an aggregate over every selected row (``max:mc_error``), NaN left out.
AGGREGATES = {"max": lambda x: x.max(), "min": lambda x: x.min()}


def value(root: Path, table: str, row: str, col: str, fmt: str, _cache: dict | None = None) -> str:
    """The formatted value of one span (``col`` with an :data:`AGGREGATES` prefix: over the rows selected)."""
    cache = _cache if _cache is not None else {}
    path = root / table
    if path not in cache:
        if not path.is_file():
            raise InputError(f"number span names {table}, which does not exist; run the study that writes it")
        cache[path] = pd.read_csv(path, keep_default_na=True, dtype=str)
    df = cache[path]
    if row.startswith("row="):
        sel = df.iloc[[int(row[4:])]]
    else:
        mask = pd.Series(True, index=df.index)
        for cond in row.split("&"):
            key, _, want = cond.partition("=")
            if key not in df.columns:
                raise InputError(f"number span: {table} has no column {key!r}; fix the span's row selector")
            mask &= df[key].astype(str) == want.replace("%20", " ")
        sel = df[mask]
    agg, _, name = col.rpartition(":")
    if agg not in ("", *AGGREGATES):
        raise InputError(f"number span: column {col!r} has the prefix {agg!r}; the prefixes are {', '.join(AGGREGATES)}")
    if name not in df.columns:
        raise InputError(f"number span: {table} has no column {name!r}")
    if agg:
        if not len(sel):
            raise InputError(f"number span: {table} has no rows with {row}; the selector must match at least one")
        raw = AGGREGATES[agg](pd.to_numeric(sel[name], errors="coerce"))
        return str(raw) if fmt == "s" else format(float(raw), fmt)
    if len(sel) != 1:
        raise InputError(f"number span: {table} has {len(sel)} rows with {row}; the selector must match exactly one")
    raw = sel.iloc[0][name]
    if fmt == "s":
        return str(raw)
    return format(float(raw), fmt)


def check(files: list[Path], root: Path) -> list[Mismatch]:
    """Every span whose text differs from its table."""
    out, cache = [], {}
    for f in files:
        text = f.read_text()
        for m in INCLUDE.finditer(text):
            want = section(root, m["table"], m["row"])
            if m["text"] != want:
                spec = m["table"] if m["row"] is None else f"{m['table']} {m['row']}"
                out.append(Mismatch(str(f), text.count("\n", 0, m.start()) + 1, spec, m["text"][:60], want[:60]))
        for m in SPAN.finditer(text):
            want = value(root, m["table"], m["row"], m["col"], m["fmt"], cache)
            if m["text"] != want:
                out.append(Mismatch(str(f), text.count("\n", 0, m.start()) + 1,
                                    f"{m['table']} {m['row']} {m['col']}", m["text"], want))
    return out


def regenerate(files: list[Path], root: Path) -> int:
    """Rewrite every span from its table; returns the number of spans changed."""
    changed, cache = 0, {}
    for f in files:
        text = f.read_text()

        def sub(m: re.Match) -> str:
            nonlocal changed
            want = value(root, m["table"], m["row"], m["col"], m["fmt"], cache)
            changed += want != m["text"]
            return m.group(0)[: m.start("text") - m.start()] + want + "<!-- /value -->"

        def inc(m: re.Match) -> str:
            nonlocal changed
            want = section(root, m["table"], m["row"])
            changed += want != m["text"]
            return m.group(0)[: m.start("text") - m.start()] + want + "<!-- /include -->"

        new = SPAN.sub(sub, INCLUDE.sub(inc, text))
        if new != text:
            f.write_text(new)
    return changed


def count_spans(files: list[Path]) -> int:
    return sum(len(SPAN.findall(f.read_text())) + len(INCLUDE.findall(f.read_text())) for f in files)
