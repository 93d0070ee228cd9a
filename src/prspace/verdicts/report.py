"""A study's verdicts, and the pages generated from them: ``verdicts.md``, ``summary.md``,
``findings.md``, the report's front page and the side-by-side ``results/summary.md``.

:func:`collect_evidence` gathers the evidence rows of a study's tables (Flach & Kull's numbers from
``disagreement_summary.csv``, the learner-order rows from the cd job's ``cd_metric_pairs.csv``,
and the evidence tables other analyses write:
:data:`prspace.core.registry.EVIDENCE_ROWS`); :func:`verdict_table` applies the one rule
(:func:`prspace.verdicts.rule.apply_rule`). The pages say nothing that is not in the verdict table,
the study's tables (:mod:`prspace.verdicts.pagedata`) or the configuration that ran: no number is
typed here. Each page puts the answer first (:mod:`prspace.verdicts.sentences`), then the papers'
primary claims by paper (plain labels, :mod:`prspace.verdicts.verdict_labels`; the paper's words in a
footnote), then one line on the implementation checks, then this project's own analyses, which
never stand under a paper's column.

One module of about 490 lines on purpose: the verdict table, the summary and the findings page are
written from the same study data and must show the same rows in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core import registry as R
from prspace.core.claims import ROLES
from prspace.metrics.names import FK_PAIRS
from prspace.stats.nested import procedure as NP
from prspace.verdicts import rule as RULE
from prspace.verdicts.differences import differences_markdown
from prspace.verdicts.direction import direction_rows
from prspace.verdicts.pagedata import (
    Study,
    description,
    load_study,
    normalise,
    offline_note,
    own_data_section,
    table_paths,
)
from prspace.verdicts.primary import primary_rows
from prspace.verdicts.sensitivity import sensitivity_lines
from prspace.verdicts.sentences import (
    abstract,
    answer,
    boyd_sentence,
    claims_table,
    trust_sentence,
)
from prspace.verdicts.summary_evidence import cd_order_evidence, within_task_order_evidence
from prspace.verdicts.verdict_labels import (
    by_construction,
    cell,
    follows_note,
    label,
    level_text,
    mc_cell,
    paper_cell,
    plain_outcome,
    value_cell,
    verdict_key,
)

#: This project's rows a study's summary shows (claim id patterns, ``{p}`` = each of Flach & Kull's
#: pairs); findings.md shows every row.
SUMMARY_EXPLORATORY = (
    "px.{p}.top1.cross_vs_self", "px.{p}.top1.distinguishable", "px.{p}.rank_sets.disjoint", "px.{p}.cd.order",
    "px.{p}.top1.skew_trend", "px.{p}.top1.at_paperlike_pi_distribution",
)
PAIRS = tuple(f"{a}_{b}" for a, b in FK_PAIRS)


def collect_evidence(tables_dir: str | Path | Mapping[str, str | Path], *, n_boot: int, seed: int = 0,
                     keep: dict | None = None, power: bool = True, procedure: NP.Settings | None = None) -> pd.DataFrame:
    """Every evidence row a study's tables hold (:data:`prspace.verdicts.rule.EVIDENCE_COLUMNS`; the tables a
    folder, or table name -> path, :func:`prspace.verdicts.pagedata.table_paths`):
    Flach & Kull's primary rows from ``disagreement_per_task.csv`` and ``tasks.csv``
    (:func:`prspace.verdicts.primary.primary_rows`, ``n_boot`` resamples, ``seed``), then the rows
    of the other tables; Boyd's primary direction rows re-decided from their per-task values
    (:func:`prspace.verdicts.direction.direction_rows`). ``keep`` receives each paper's bootstraps
    (:func:`prspace.verdicts.sensitivity.margin_sensitivity_table`); ``power=False`` skips the
    sample-size simulation; ``procedure``: the settings of the nested simulation that counts the coverage of the
    procedure each primary row runs (:mod:`prspace.stats.nested.procedure`; None: not counted)."""
    paths = table_paths(tables_dir)
    where = tables_dir if not isinstance(tables_dir, Mapping) else "the study's tables"

    def have(table: R.Table) -> Path | None:
        p = paths.get(table.name)
        return p if p is not None and p.is_file() else None

    def by_task(table: R.Table) -> pd.DataFrame | None:  # a table keyed by task (None: absent)
        p = have(table)
        return pd.read_csv(p, dtype={"task_id": str}) if p is not None else None

    rows: list[dict[str, object]] = []
    per_task = by_task(R.DISAGREEMENT_PER_TASK)
    if per_task is not None:
        rows += primary_rows(per_task, by_task(R.TASKS), n_boot=n_boot, seed=seed, keep=keep, power=power,
                             noise_pairs=by_task(R.NOISE_FLOOR_PAIRS), procedure=procedure)
    summary_path = have(R.DISAGREEMENT_SUMMARY)
    if summary_path is not None:
        rows += within_task_order_evidence(pd.read_csv(summary_path), by_task(R.METRICS))
    # the cd job's metric pairs (prspace.experiments.ranking.cd_tables.study_tables) become the px.<a>_<b>.cd.order rows
    cd_path = have(R.CD_METRIC_PAIRS)
    if cd_path is not None:
        rows += cd_order_evidence(pd.read_csv(cd_path, keep_default_na=False, na_values=[""]))
    frames = [RULE.evidence_frame(rows, scheme=True)]
    for table in R.EVIDENCE_ROWS:  # each optional: no Boyd experiments, no boyd_evidence
        p = have(table)
        if p is not None:
            df = pd.read_csv(p, keep_default_na=False, na_values=[""])
            for c in RULE.OPTIONAL_EVIDENCE_COLUMNS:
                if c not in df.columns:
                    df[c] = np.nan
            missing = [c for c in RULE.EVIDENCE_COLUMNS if c not in df.columns]
            if missing:
                raise ValueError(f"{p} lacks evidence column(s) {missing}; it must be written with prspace.verdicts.rule.evidence_row")
            frames.append(df[RULE.ALL_EVIDENCE_COLUMNS])
    ev = pd.concat([f for f in frames if len(f)], ignore_index=True) if any(len(f) for f in frames) else frames[0]
    dup = ev["claim_id"][ev["claim_id"].duplicated()]
    if len(dup):
        raise ValueError(f"claim ids appear twice in the evidence tables of {where}: {sorted(set(dup))}")
    ev["detail"] = ev["detail"].fillna("").astype(str)
    # Boyd's primary direction rows: re-decided by the one scheme from their per-task values by family
    vals = have(R.BOYD_EVIDENCE_VALUES)
    if vals is not None:
        ev = direction_rows(ev, pd.read_csv(vals, dtype={"family": str}), n_boot=n_boot, seed=seed, keep=keep,
                            power=power, procedure=procedure)
    return ev


def verdict_table(evidence: pd.DataFrame) -> pd.DataFrame:
    """The verdict table (:func:`prspace.verdicts.rule.apply_rule`): primary rows first, then
    implementation, then exploratory; within a role in the order of the evidence."""
    v = RULE.apply_rule(evidence)
    # a row whose sign follows by arithmetic says so first (the registry's flag, verdict_labels.follows_note)
    notes = v["claim_id"].map(follows_note)
    flagged = notes != ""
    v.loc[flagged, "explanation"] = [f"{n[:1].upper()}{n[1:]}. {e}" for n, e in zip(notes[flagged], v.loc[flagged, "explanation"],
                                                                                  strict=True)]
    v["_o"] = v["role"].map({r: i for i, r in enumerate(ROLES)})
    return v.sort_values(["_o"], kind="stable").drop(columns="_o").reset_index(drop=True)


def verdicts_markdown(v: pd.DataFrame, *, study: str) -> str:
    """The whole verdict table as Markdown."""
    v = normalise(v)
    lines = [f"# Verdicts of study `{study}`", "",
             "Generated by `prspace verdicts` from `verdicts.csv`; the rule is in `docs/verdicts.md`, every term in "
             "`docs/glossary.md`.", "",
             "| claim id | role | claim | paper | this run [interval] | tasks | families | verdict | explanation |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for _, r in v.iterrows():
        nt = "" if not np.isfinite(r["n_tasks"]) else str(int(r["n_tasks"]))
        nf = "" if not np.isfinite(r["n_families"]) else str(int(r["n_families"]))
        lines.append(f"| `{r['claim_id']}` | {r['role']} | {label(r['claim_id'], r['claim'])} | {paper_cell(r)} | "
                     f"{value_cell(r)} | {nt} | {nf} | **{r['verdict']}** | {cell(r['explanation'])} |")
    return "\n".join(lines) + "\n"


def primary(v: pd.DataFrame) -> pd.DataFrame:
    """The primary rows, in the registry's order (only ids the registry holds with role primary)."""
    order = [i for i in REG.primary_ids()]
    p = v[v["claim_id"].isin(order)]
    return p.set_index("claim_id").loc[[i for i in order if i in set(p["claim_id"])]].reset_index()


class _Notes:
    """Footnotes holding the papers' words: one per (paper, where, quote), numbered as first cited."""

    def __init__(self) -> None:
        self.keys: dict[tuple[str, str, str], int] = {}

    def cite(self, claim_id: str) -> str:
        c = REG.BY_ID[claim_id]
        key = (RULE.PAPERS.get(c.paper, c.paper), c.where, c.quote)
        n = self.keys.setdefault(key, len(self.keys) + 1)
        return f"[^{n}]"

    def lines(self) -> list[str]:
        return [f'[^{n}]: {paper}, {where}: "{quote}"' for (paper, where, quote), n in self.keys.items()]


def _primary_intro(rows: pd.DataFrame) -> str:
    n = len(REG.primary_ids())
    cov = rows.get("oracle_coverage", pd.Series(dtype=float)).astype(float)
    se = rows.get("coverage_mc_se", pd.Series(dtype=float)).astype(float)
    nsim = rows.get("coverage_n", pd.Series(dtype=float)).astype(float)
    # a statistic without spread (no bootstrap p-value, "cannot be told") has no coverage to state
    has_p = rows["p_diff"].astype(float).notna() if "p_diff" in rows else pd.Series(False, index=rows.index)
    ok = cov.notna() & se.notna() & nsim.notna() & has_p if len(nsim) else cov.notna() & False
    counted = ""
    if ok.any():
        far = int((np.abs(cov[ok] - REG.CLAIM_LEVEL) > 2 * se[ok].clip(lower=1e-12)).sum())
        counted = (f"; each 95% interval's coverage counted in a known-truth simulation (the study's own families as the "
                   f"population, {int(nsim[ok].min())} or more simulated studies each), {float(cov[ok].min()):.3f} to "
                   f"{float(cov[ok].max()):.3f}, its level corrected by counting where the uncorrected interval missed "
                   "it" + (f"; {far} of {int(ok.sum())} above 95% by more than 2 Monte Carlo errors (an end at the range's edge)"
                          if far else ""))
        pc = rows.get("procedure_coverage", pd.Series(dtype=float)).astype(float)
        pse = rows.get("procedure_coverage_mc_se", pd.Series(dtype=float)).astype(float)
        own = ok & pc.notna() & pse.notna()
        if own.any():
            short = int((pc[own] < REG.CLAIM_LEVEL - 2 * pse[own]).sum())
            counted += ("; that is an oracle's coverage (each simulated study's level corrected on the population itself), "
                        "in brackets in the tables after the coverage of the procedure the study runs (each simulated "
                        f"study correcting its own level from its own families), {float(pc[own].min()):.3f} to "
                        f"{float(pc[own].max()):.3f}, {short} of {int(own.sum())} short of 95% by more than 2 Monte Carlo "
                        "errors")
    return (f"**The papers' claims** ({n} primary claims; each outcome in plain words: replicates (within the margin of "
            f"the paper's value), differs (beyond the margin when wholly beyond it), holds or does not hold (a claimed "
            f"direction), undecided, or too close to call (within Monte Carlo error of the threshold); the rule's own "
            f"outcome, Lakens, Scheel & Isager's, is column `outcome` of `verdicts.csv`; each paper's claims decided together by Holm-adjusted p-values at {100 * REG.HOLM_ALPHA:g}% family-wise error"
            f"{counted}; the paper's words are in the footnotes):")


def _study_cells(r: pd.DataFrame, cid: str, *, mc_column: bool) -> list[str]:
    """One study's cells of a primary claim's row: value and interval, Holm-adjusted p, counted
    coverage (the MC error when ``mc_column``) and verdict; empty when the study has no such row."""
    if cid not in r.index:
        return [""] * (5 if mc_column else 4)
    x = {**r.loc[cid], "claim_id": cid}
    ph, cv = float(x.get("p_holm", np.nan)), float(x.get("oracle_coverage", np.nan))
    p_txt = "" if not np.isfinite(ph) else ("< 0.001" if ph < 0.001 else f"{ph:.3f}")
    c_txt = "" if not np.isfinite(cv) else f"{cv:.3f}"
    pc = float(x.get("procedure_coverage", np.nan))  # the procedure the study runs, its level corrected on its own sample
    c_txt = f"{pc:.3f} ({c_txt})" if np.isfinite(pc) and c_txt else c_txt
    return [value_cell(x), p_txt, c_txt] + ([mc_cell(x["mc_error"])] if mc_column else []) + [plain_outcome(x)]


def _paper_table(paper: str, mine: list[str], studies: Sequence[Study], rows_by: list[pd.DataFrame], notes: _Notes, *,
                 mc_column: bool) -> list[str]:
    """The table of one paper's primary claims ``mine``: plain label, the paper's value, each study's cells."""
    many = len(studies) > 1
    head = ["claim", "paper"]
    for s in studies:
        head += ([f"{s.name if many else 'this run'} [95% interval]", "Holm-adjusted p", "coverage: the procedure's (oracle's)"]
                 + (["MC error"] if mc_column else []) + ["outcome"])
    out = [f"{RULE.PAPERS[paper]}:", "", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for cid in mine:
        first = next(r.loc[cid] for r in rows_by if cid in r.index)
        cells = [label(cid, str(first["claim"])), f"{paper_cell({**first, 'claim_id': cid})}{notes.cite(cid)}"]
        for r in rows_by:
            cells += _study_cells(r, cid, mc_column=mc_column)
        out.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return out + [""]


def _mc_error_line(rows_by: list[pd.DataFrame]) -> list[str]:
    """The largest Monte Carlo error of the interval ends over the rows with an interval (a test-kind
    row's ``mc_error`` is its p-value's), for a page without the MC error column."""
    ends = [r[r["ci_lo"].notna()] for r in rows_by]
    mc = [float(x) for r in ends for x in r["mc_error"] if np.isfinite(x)]
    if not mc:
        return []
    return [f"Monte Carlo error of the interval ends: at most {mc_cell(max(mc))} (column `mc_error` of "
            "each study's `verdicts.csv`).", ""]


def _primary_tables(studies: Sequence[Study], notes: _Notes, *, mc_column: bool) -> list[str]:
    """One table per paper: plain label, the paper's value, each study's value and verdict."""
    rows_by = [primary(s.verdicts).set_index("claim_id") for s in studies]
    ids = [i for i in REG.primary_ids() if any(i in r.index for r in rows_by)]
    if not ids:
        return []
    out = [_primary_intro(pd.concat([r for r in rows_by]).reset_index()), ""]
    checks = {i for r in rows_by for i in r.index if by_construction({**r.loc[i], "claim_id": i})}
    for paper in (REG.FK, REG.BOYD):  # a check by arithmetic (column by_construction) last, apart from the findings
        mine = [i for i in ids if REG.BY_ID[i].paper == paper and i not in checks]
        mine += [i for i in ids if REG.BY_ID[i].paper == paper and i in checks]
        if mine:
            out += _paper_table(paper, mine, studies, rows_by, notes, mc_column=mc_column)
    return out if mc_column else out + _mc_error_line(rows_by)


def implementation_line(s: Study) -> str | None:
    """``8 of 8 exact``, or ``7 of 8 exact; `boyd.thm2` differs``: each row that is not exact named
    with its verdict (a check of a direction that cannot fail says ``holds``)."""
    imp = s.verdicts[s.verdicts["role"] == "implementation"]
    if imp.empty:
        return None
    other = imp[imp["verdict"].map(verdict_key) != "exact"]
    out = f"{len(imp) - len(other)} of {len(imp)} exact"
    return out + "".join(f"; `{r.claim_id}` {r.verdict}" for r in other.itertuples())


def _implementation(studies: Sequence[Study]) -> list[str]:
    parts = [(s.name, implementation_line(s)) for s in studies]
    parts = [(n, t) for n, t in parts if t]
    if not parts:
        return []
    said = "; ".join(f"`{n}` {t}" for n, t in parts) if len(studies) > 1 else parts[0][1]
    return [f"**Implementation checks** (the papers' theorems and the arithmetic of their tables, checked against "
            f"this code; they cannot fail on data): {said}.", ""]


def exploratory(v: pd.DataFrame, patterns: Sequence[str] | None = None) -> pd.DataFrame:
    """This project's rows (role exploratory), all or those matching ``patterns`` in that order."""
    e = v[v["role"] == "exploratory"]
    if patterns is None:
        return e
    ids = [pat.format(p=p) for pat in patterns for p in PAIRS]
    return e.set_index("claim_id").loc[[i for i in ids if i in set(e["claim_id"])]].reset_index()


def _exploratory_table(s: Study, rows: pd.DataFrame, *, explain: bool) -> list[str]:
    if rows.empty:
        return []
    head = ["question", f"this run [{level_text(rows)} interval]", "outcome"] + (["explanation"] if explain else [])
    out = ["**This project's analyses** (questions no paper states; they never stand under a paper's column):", "",
           "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for _, r in rows.iterrows():
        cells = [f"{label(r['claim_id'], r['claim'])} (`{r['claim_id']}`)", value_cell(r), plain_outcome(r)]
        out.append("| " + " | ".join(cell(c) for c in cells + ([r["explanation"]] if explain else [])) + " |")
    return out + [""]


def _answer_block(studies: Sequence[Study]) -> list[str]:
    out = [description(s) + "  " for s in studies]
    note = offline_note([s for s in studies if not s.own_data])
    out += ([note] if note else []) + [""]
    out += [f"- {x}" for x in answer(studies)]
    return out + [""]


def headline_block(studies: Sequence[Study], *, table: bool = True) -> list[str]:
    """The answer in two minutes: the abstract, then the one table of every primary claim (``table``: the
    README's 300 words; trust is said in full on the results page), else :func:`details_block` (Boyd et al. 4.1
    and trust, in full)."""
    ab = abstract(studies)
    out = [" ".join(ab), ""] if ab else []
    if table:
        return out + claims_table(studies)
    return out + details_block(studies)


def details_block(studies: Sequence[Study]) -> list[str]:
    """Boyd et al. 4.1 as the data show it and how far the answers can be trusted, in full sentences."""
    return [x for x in (boyd_sentence(studies), trust_sentence(studies)) if x for x in (x, "")]


def differences_lines(studies: Sequence[Study]) -> list[str]:
    """The "differences from the original" table (:func:`prspace.verdicts.differences.differences_markdown`,
    each study's task and family counts in its population row), shown for the papers' question (not a
    user's own data)."""
    if all(s.own_data for s in studies):
        return []
    tasks = {s.name: s.tasks for s in studies if s.tasks is not None}
    return [differences_markdown(tasks or None).rstrip(), ""]


def _study(v: pd.DataFrame, study: str, tasks: pd.DataFrame | None, tables_dir: str | Path | Mapping[str, str | Path] | None,
           own_data: bool | None, sensitivity: pd.DataFrame | None = None) -> Study:
    if tables_dir is not None:
        s = load_study(study, tables_dir, verdicts=v, own_data=own_data, sensitivity=sensitivity)
        if tasks is not None:
            s.tasks = tasks
        return s
    return Study(name=study, verdicts=v, tasks=tasks, own_data=own_data)


def study_page(s: Study, *, glossary: str = "../../docs/glossary.md") -> list[str]:
    """A study's summary as Markdown lines: a user's data first (when it is), the answer, the
    primary claims, the implementation line and this project's analyses (:data:`SUMMARY_EXPLORATORY`)."""
    out = own_data_section(s) if s.own_data else []
    out += [f"**The answer** (study `{s.name}`; every term is defined in [the glossary]({glossary})):", ""]
    out += headline_block([s], table=False) + _answer_block([s])
    notes = _Notes()
    out += _primary_tables([s], notes, mc_column=True)
    out += _implementation([s]) + differences_lines([s])
    out += _exploratory_table(s, exploratory(s.verdicts, SUMMARY_EXPLORATORY), explain=False)
    return out + notes.lines()


def summary_markdown(v: pd.DataFrame, *, study: str, tasks: pd.DataFrame | None,
                     tables_dir: str | Path | Mapping[str, str | Path] | None = None, own_data: bool | None = None,
                     sensitivity: pd.DataFrame | None = None) -> str:
    """A study's ``summary.md`` (:func:`study_page`); ``tables_dir`` (a folder, or table name -> path) adds
    what the study's other tables say (plausible-best set sizes, per-task picks, sensitivity: the table
    read there, or ``sensitivity``)."""
    return "\n".join(study_page(_study(v, study, tasks, tables_dir, own_data, sensitivity))).rstrip() + "\n"


#: The heading of results/summary.md's third section (``docs/results.md`` includes it).
CLAIMS_HEADING = "The papers' claims, one by one"
#: The headings of results/summary.md's other sections (``docs/results.md`` includes each).
MORE_HEADING = "More of the answer"
RUN_HEADING = "What was run"
DIFFERENCES_HEADING = "How this replication differs from Flach & Kull's experiment"


def studies_markdown(studies: Sequence[Study | tuple[str, pd.DataFrame, pd.DataFrame | None]]) -> str:
    """``results/summary.md``, several studies side by side, one section each for the pages that quote it:
    ``## The answer`` (:func:`headline_block`: the abstract, the one table of every primary claim, Boyd 4.1,
    trust; the README includes it), ``## What was run``, ``## More of the answer`` (the answer's details),
    ``## How this replication differs`` (from Flach & Kull's experiment) and ``## The papers' claims, one by
    one`` (a column group per study, the outcome in full words, the implementation line, where this project's
    own analyses are, the papers' words as footnotes); ``docs/results.md`` includes them in a report's order.
    Paths are written from the repository's root."""
    st = [s if isinstance(s, Study) else Study(name=s[0], verdicts=s[1], tasks=s[2]) for s in studies]
    notes = _Notes()
    answer_lines = _answer_block(st)
    split = answer_lines.index("")  # the studies' descriptions and the offline note, then the sentences
    out = (["## The answer", ""] + headline_block(st) + [f"## {RUN_HEADING}", ""] + answer_lines[: split + 1]
           + [f"## {MORE_HEADING}", ""] + details_block(st) + answer_lines[split + 1:])
    diff = differences_lines(st)
    out += ([f"## {DIFFERENCES_HEADING}", ""] + diff if diff else []) + [f"## {CLAIMS_HEADING}", ""]
    out += _primary_tables(st, notes, mc_column=False) + _implementation(st)
    n = [len(exploratory(s.verdicts)) for s in st]
    out += [f"**This project's analyses** ({', '.join(f'{k} rows in `{s.name}`' for k, s in zip(n, st, strict=True))}: test-set "
            "noise, plausible-best sets, skew, learners over tasks; no paper states them): "
            "`results/<study>/summary.md` and `findings.md`.", ""]
    return "\n".join(out + notes.lines()).rstrip() + "\n"


def _rst_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = [".. list-table::", "   :header-rows: 1", ""]
    for r in [head, *rows]:
        out += [f"   * - {r[0]}"] + [f"     - {c}" for c in r[1:]]
    return out + [""]


def _rst(text: str) -> str:
    return text.replace("`", "``").replace("****", "")


def summary_rst(v: pd.DataFrame, *, study: str, tasks: pd.DataFrame | None, intro: str,
                tables_dir: str | Path | Mapping[str, str | Path] | None = None, own_data: bool | None = None,
                sensitivity: pd.DataFrame | None = None) -> str:
    """The report's front page: ``intro`` (the static description), then the answer first, the
    primary claims (the paper's words in a column), the implementation line and this project's
    analyses, as reStructuredText."""
    s = _study(v, study, tasks, tables_dir, own_data, sensitivity)
    blocks = [intro.strip(), ""]
    md = own_data_section(s) if s.own_data else []
    if md:  # a study of its own data without the tables its section reads (no metrics.csv) has none
        table = [ln for ln in md if ln.startswith("|") and not ln.startswith("| ---") and not ln.startswith("|---")]
        cells = [[c.strip() for c in ln.strip("|").split("|")] for ln in table]
        blocks += [_rst(md[0]), ""] + (_rst_table(cells[0], cells[1:]) if cells else [])
    blocks += [f"**The answer** (study ``{study}``; every term in ``docs/glossary.md``):", ""]
    blocks += [_rst(x) for x in headline_block([s], table=False) + _answer_block([s])]
    p = primary(s.verdicts)
    if len(p):
        blocks += [_rst(_primary_intro(p).replace("in the footnotes", "in the last column")), ""]
        blocks += _rst_table(["claim", "paper", "this run [interval]", "MC error", "outcome", "the paper's words"],
                             [[label(r["claim_id"], r["claim"]), paper_cell(r), value_cell(r), mc_cell(r["mc_error"]),
                               plain_outcome(r), _rst(f"{r['where']}: \"{r['quote']}\"")] for _, r in p.iterrows()])
    blocks += [_rst(x) for x in _implementation([s])]
    e = exploratory(s.verdicts, SUMMARY_EXPLORATORY)
    if len(e):
        blocks += ["**This project's analyses** (questions no paper states):", ""]
        blocks += _rst_table(["question", "this run [interval]", "outcome"],
                             [[label(r["claim_id"], r["claim"]), value_cell(r), plain_outcome(r)] for _, r in e.iterrows()])
    return "\n".join(blocks).rstrip() + "\n"


def findings_markdown(v: pd.DataFrame, *, study: str, tasks: pd.DataFrame | None,
                      params: Mapping[str, object] | None = None, winners: pd.DataFrame | None = None,
                      tables_dir: str | Path | Mapping[str, str | Path] | None = None, own_data: bool | None = None,
                      sensitivity: pd.DataFrame | None = None) -> str:
    """The study's findings page: the summary, then every row with its explanation (primary,
    implementation, this project's), the sensitivity table, the learners over tasks and the
    run's parameters."""
    s = _study(v, study, tasks, tables_dir, own_data, sensitivity)
    if winners is not None:
        s.winners = winners
    lines = [f"# Findings of study `{study}`", "",
             "Generated by `prspace verdicts` from `tables/verdicts.csv`; do not edit. The rule behind every "
             "verdict is in `docs/verdicts.md`.", "", "## The answer", ""]
    lines += study_page(s) + [""]
    for role, title in (("primary", "Every primary claim, explained"), ("implementation", "Implementation checks")):
        part = primary(s.verdicts) if role == "primary" else s.verdicts[s.verdicts["role"] == role]
        if part.empty:
            continue
        lines += [f"## {title}", "", "| claim | paper | where | this run [interval] | outcome | explanation |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for _, r in part.iterrows():
            lines.append(f"| {label(r['claim_id'], r['claim'])} (`{r['claim_id']}`) | {paper_cell(r)} | "
                         f"{RULE.PAPERS.get(r['paper'], r['paper'])}, {r['where']} | {value_cell(r)} | {plain_outcome(r)} | "
                         f"{cell(r['explanation'])} |")
        lines.append("")
    ex = exploratory(s.verdicts)
    if len(ex):
        lines += ["## This project's analyses, every row", ""] + _exploratory_table(s, ex, explain=True)[2:]
    lines += sensitivity_lines(s)
    w = s.winners
    if w is not None and len(w):
        lines += ["## Learners across tasks (Boyd et al. 2012, sec. 4.2)", "",
                  "| metric | criterion | winner | runner-up | margin | tasks whose removal alone changes the winner |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for _, r in w.iterrows():
            lines.append(f"| {r['metric']} | {r['criterion']} | {r['winner']} | {r['runner_up']} | "
                         f"{float(r['margin']):.4f} | {int(r['n_tasks_flip'])} |")
        lines.append("")
    if params:
        lines += ["## Parameters of this run", ""] + [f"- `{k}`: {val}" for k, val in params.items()] + [""]
    return "\n".join(lines)
