"""The answer first, in words, for one study or several side by side: the abstract (at most three
sentences: what was run, what replicated and what did not, what would decide the rest), the one table
of every primary claim in plain words (:func:`claims_table`), Boyd et al. 4.1 as the data show it,
how far the answers can be trusted, and at most :data:`MAX_SENTENCES` sentences of details read off
the verdict tables (and a study's own tables); what a study ran: :mod:`prspace.verdicts.pagedata`. (A user's own data:
:func:`prspace.verdicts.pagedata.own_data_section`.)

One module of about 500 lines on purpose: every sentence of the answer reads the same rows through
the same helpers, and the folder holds its fifteen modules.

Every number in a sentence is a cell of a table (:mod:`prspace.verdicts.pagedata`); nothing is typed
here but the papers' own constants (Flach & Kull's 886 tasks from 426 datasets, 30 models each).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.metrics.names import FK_PAIRS, METRIC_LABELS
from prspace.stats import cluster_bootstrap as CB
from prspace.verdicts import rule as RULE
from prspace.verdicts.pagedata import (
    FK_MODELS,
    PICK_METRICS,
    Study,
    downsampling_sample,
    fold_gaps,
    optimistic_at_most,
    robust_ids,
    typical_best_set_size,
)
from prspace.verdicts.verdict_labels import (
    SHORT_LABELS,
    about,
    by_construction,
    cell,
    excluded_not_decided,
    label,
    num,
    paper_cell,
    short_name,
    short_outcome,
    table_name,
    value_cell,
)

MAX_SENTENCES = 7
#: No sentence of the answer is longer than this many words (a test checks it on both studies).
MAX_WORDS = 90
PAIRS = tuple(f"{a}_{b}" for a, b in FK_PAIRS)
SHARE_IDS = tuple(f"fk.{p}.top{k}" for k in (1, 3) for p in PAIRS)
CORR_IDS = tuple(f"fk.{p}.spearman" for p in PAIRS)
QUARTILE_IDS = ("fk.aupr_auprg.spearman_q25", "fk.aupr_auprg.spearman_q75")
AS_DIFFERENT = (("fk.as_different.top1", "best model"), ("fk.as_different.top3", "top three"),
                ("fk.as_different.spearman", "rank correlation"))


def _pl(p: str) -> str:
    a, b = p.split("_", 1)
    return f"{METRIC_LABELS.get(a, a)}-{METRIC_LABELS.get(b, b)}"


def _ci(r: pd.Series, d: int = 2) -> str:
    if np.isfinite(r["ci_lo"]) and np.isfinite(r["ci_hi"]):
        return f"{num(r['estimate'], d)} [{num(r['ci_lo'], d)}, {num(r['ci_hi'], d)}]"
    return num(r["estimate"], d)


def _rows(s: Study, ids: Sequence[str]) -> pd.DataFrame:
    v = s.verdicts
    return v[v["claim_id"].isin(ids)].set_index("claim_id").reindex([i for i in ids if i in set(v["claim_id"])])


def _clauses(studies: Sequence[Study], one) -> list[str]:
    """``one(study)`` per study (None: nothing to say), prefixed by the study's name when there are several."""
    return [f"`{s.name}` {c}" if len(studies) > 1 else c for s in studies if (c := one(s))]


def _sentence(head: str, studies: Sequence[Study], one, tail: str = ".") -> str | None:
    """``head``, the studies' clauses (:func:`_clauses`) joined by "; ", ``tail``; None if none says anything."""
    cl = _clauses(studies, one)
    return head + "; ".join(cl) + tail if cl else None


def _holm_note(r: pd.Series) -> str:
    """The row's short outcome (:func:`short_outcome`), and for an undecided row whose own 95% interval
    excludes 0 why it is undecided: Holm's adjusted p (the interval is the claim's own)."""
    if excluded_not_decided(r):
        return f"undecided: its own 95% interval excludes 0, but Holm-adjusted p is {num(r['p_holm'], 2)}"
    return short_outcome(r)


def as_different_sentence(studies: Sequence[Study]) -> str | None:
    def one(s: Study) -> str | None:
        parts = [f"{what} {_ci(s.row(i), 3 if what == 'rank correlation' else 2)} ({_holm_note(s.row(i))})"
                 for i, what in AS_DIFFERENT if s.row(i) is not None]
        return ", ".join(parts) or None
    return _sentence("Are AUPR and AUPRG as different from each other as AUPR and AUROC, as the paper says? AUPR vs "
                     "AUPRG minus AUPR vs AUROC (0 when as different): ", studies, one)


def noise_sentence(studies: Sequence[Study]) -> str | None:
    def one(s: Study) -> str | None:
        parts = []
        xs = [(p, s.row(f"px.{p}.top1.cross_vs_self")) for p in PAIRS]
        xs = [(p, r) for p, r in xs if r is not None]
        if xs:
            parts.append(", ".join(f"{_ci(r)} ({_pl(p)})" for p, r in xs))
        size = typical_best_set_size(s)
        if size:
            n = int(round(size["n_models"]))
            each = ", ".join(f"{num(size[m], 0)} ({METRIC_LABELS[m]})" for m in PICK_METRICS if m in size)
            parts.append(f"on a typical task {each} of {n} models could be the best")
        return ", and ".join(parts) or None
    return _sentence("Test-set noise: two metrics disagree on the best model more often than one metric disagrees "
                     "with itself on resampled test rows by ", studies, one)


#: Why fold means fall below the merged AUPR (Boyd et al. 4.1 predicted the opposite).
JENSEN = "precision is concave in the skew for a ranking better than random (Jensen's inequality)"


def _gap(d: float, g: float, lo: float, hi: float, at: bool) -> str:
    """``0.004 [0.003, 0.005] at d = 0.25``: a gap said by its size (its side is said once, in words)."""
    x, a, b = (-g, -hi, -lo) if g < 0 else (g, lo, hi)
    return f"{num(x, 3)} [{num(a, 3)}, {num(b, 3)}]" + (f" at d = {d:g}" if at else "")


def _optimism_clause(studies: Sequence[Study]) -> str:
    """``optimistic beyond 0.01 at any fold-skew spread d in at most 1 of 28 tasks (`default`), ...``."""
    most = [(s.name, m) for s in studies if (m := optimistic_at_most(s)) is not None]
    many = len(studies) > 1
    return "" if not most else (
        f"optimistic beyond {REG.DIRECTION_MARGIN:g} at any fold-skew spread d in "
        + ", ".join((f"no task of {m[1]}" if m[0] == 0 else f"at most {m[0]} of {m[1]} tasks")
                    + (f" (`{name}`)" if many else "") for name, m in most))


def _gaps_clause(studies: Sequence[Study]) -> str:
    """``fold means fall below the merged AUPR by 0.004 [0.003, 0.005] at d = 0.25 to ...`` (the dispersions said
    for the first study, and for another only where they differ)."""
    gaps = [(s.name, g) for s in studies if (g := fold_gaps(s))]
    if not gaps:
        return ""
    ends = [g[-1][1] for _, g in gaps]
    side = "below" if all(e < 0 for e in ends) else "above" if all(e > 0 for e in ends) else "on either side of"
    first = (gaps[0][1][0][0], gaps[0][1][-1][0])
    said: list[str] = []
    for name, g in gaps:
        at = (g[0][0], g[-1][0]) != first or not said
        said.append(_gap(*g[0], at=at) + ("" if len(g) == 1 else " to " + _gap(*g[-1], at=at))
                    + (f" (`{name}`)" if len(studies) > 1 else ""))
    return f"fold means fall {side} the merged AUPR by " + ", ".join(said)


def boyd_sentence(studies: Sequence[Study]) -> str | None:
    """Boyd et al. 4.1 as the data show it: the most tasks optimistic beyond the margin at any
    dispersion (:func:`_optimism_clause`), the fold means' gap to the merged AUPR at the mildest and the
    widest dispersion with their 95% intervals (:func:`_gaps_clause`), and why (:data:`JENSEN`)."""
    most, gaps = _optimism_clause(studies), _gaps_clause(studies)
    if not most and not gaps:
        return None
    body = "; instead ".join(x for x in (most, gaps) if x)
    return f"Boyd et al. 4.1 (fold averaging \"can lead to\" optimistic AUPR): {body}: {JENSEN}."


def sensitivity_sentence(studies: Sequence[Study]) -> str | None:
    def one(s: Study) -> str | None:
        same, changed, mine = robust_ids(s)
        if not mine:
            return None
        moved = list(dict.fromkeys(cid for cid, _, _ in changed))
        out = f"{len(same)} of {len(same) + len(moved)} verdicts stay the same in all {len(mine)}"
        if 0 < len(moved) <= 3:
            out += " (those that change: " + ", ".join(short_name(c) for c in moved) + ")"
        elif moved:
            out += " (the others change with the selection: the sensitivity table of findings.md)"
        return out
    return _sentence("Recomputed on other selections of the tasks and learners (findings.md names them): ", studies, one)


def sample_size_sentence(studies: Sequence[Study]) -> str | None:
    """What the data can decide, and the population that would: per study the primary claims decided (not a
    borderline row), for the undecided the families that decide with 80% power (``families_80``, simulated from the
    study's own; range over the 95% interval: ``families_80_lo`` / ``_hi``), against Flach & Kull's 426 datasets."""
    def one(s: Study) -> str | None:
        if s.own_data:
            return None
        v = s.verdicts
        p = v[(v["role"] == "primary") & v["claim_id"].astype(str).str.startswith("fk.")]
        if p.empty or "families_80" not in p:
            return None
        verdict = p["verdict"].astype(str)
        decided = verdict.str.startswith(("equivalent", "different"))
        border = verdict.str.startswith("borderline")
        undecided = p[~decided & ~border]
        nf = int(p["n_families"].max())
        out = f"{int(decided.sum())} of {len(p)} decided at {nf} task families"
        if border.any():
            out += f" ({int(border.sum())} too close to call, not counted)"
        if undecided.empty:
            return out
        need = undecided["families_80"].astype(float)
        known = need[np.isfinite(need)]
        never = len(need) - len(known)
        grid_max = int(CB.POWER_GRID[-1])
        if len(known):
            out += (f"; {len(known)} of {len(need)} undecided need a median of {int(known.median())} task families "
                    f"({int((known <= REG.FK_DATASETS).sum())} within {REG.FK_DATASETS}")
            if {"families_80_lo", "families_80_hi"} <= set(undecided.columns):
                ends = undecided[["families_80_lo", "families_80_hi"]].astype(float).to_numpy()
                fin = ends[np.isfinite(ends)]
                if fin.size:
                    top = f"over {grid_max}" if (~np.isfinite(ends)).any() else f"{int(fin.max())}"
                    out += f"; {int(fin.min())} to {top} over the 95% intervals"
            out += ")"
        if never:
            out += f"; {never} would not decide within {grid_max}"
        return out
    return _sentence("What the data can decide of Flach & Kull's primary claims (task families for 80% power, simulated "
                     "from the study's own): ", studies, one)


#: A tally's words for one row and for several, by short outcome (:data:`SHORT_LABELS` order).
_TALLY = {"replicates": ("replicates", "replicate"), "holds": ("holds", "hold"),
          "differs beyond margin": ("differs beyond the margin", "differ beyond the margin"),
          "differs": ("differs", "differ"), "does not hold": ("does not hold", "do not hold"),
          "undecided": ("undecided", "undecided"), "too close to call": ("too close to call", "too close to call"),
          "check": ("check holds", "checks hold")}


def _primary(s: Study, paper: str | None = None) -> pd.DataFrame:
    """A study's primary rows (of ``paper``), in the registry's order, checks by arithmetic last."""
    ids = [i for i in REG.primary_ids() if paper is None or REG.BY_ID[i].paper == paper]
    r = _rows(s, ids).reset_index()
    if r.empty:
        return r
    r["_check"] = [by_construction(x) for _, x in r.iterrows()]
    return r.sort_values("_check", kind="stable").drop(columns="_check").reset_index(drop=True)


def tally(rows: pd.DataFrame, *, compact: bool = False) -> str:
    """``1 replicates, 2 differ beyond the margin, 9 undecided``: the rows counted by short outcome
    (``compact``: "differs beyond margin" counted as "differs")."""
    keys = [short_outcome(r) for _, r in rows.iterrows()]
    if compact:
        keys = ["differs" if k == "differs beyond margin" else k for k in keys]
    return ", ".join(f"{keys.count(k)} {_TALLY[k][keys.count(k) > 1]}" for k in SHORT_LABELS if keys.count(k))


def _headline(studies: Sequence[Study]) -> str:
    """Flach & Kull's headline pair's outcome in the paper-like study (else the last study)."""
    s = next((x for x in studies if x.name == "paperlike"), studies[-1])
    r1, r3 = s.row("fk.aupr_auprg.top1"), s.row("fk.aupr_auprg.top3")
    if r1 is None or r3 is None:
        return "Flach & Kull:"
    o1, o3 = short_outcome(r1), short_outcome(r3)
    if o1 == o3:
        return f"Flach & Kull's headline pair {_said(o1)};"
    return f"Flach & Kull's headline: top-1 {_said(o1)}, top-3 {_said(o3)};"


def _said(short: str) -> str:
    """A short outcome as a predicate: ``replicates``, ``is undecided``."""
    return short if short in ("replicates", "holds", "differs", "differs beyond margin", "does not hold") else f"is {short}"


def _need(s: Study, paper: str) -> str | None:
    """``450``: about the median task families that would decide a study's undecided claims of ``paper``."""
    p = _primary(s, paper)
    need = p[[short_outcome(r) == "undecided" for _, r in p.iterrows()]]["families_80"].astype(float)
    need = need[np.isfinite(need)]
    return about(need.median()) if len(need) else None


def _tallies(papers: Sequence[Study], paper: str) -> str:
    """``6 hold, 2 undecided in both studies`` when every study tallies alike (a study alone: its tally), else a
    tally per study."""
    said = [tally(_primary(s, paper), compact=True) for s in papers]
    if len(set(said)) == 1:
        return f"{said[0]} in both studies" if len(papers) == 2 else said[0] if len(papers) == 1 else f"{said[0]} in every study"
    return "; ".join(f"`{s.name}` {t}" for s, t in zip(papers, said, strict=True))


def abstract(studies: Sequence[Study]) -> list[str]:
    """At most three short sentences: what was run, what replicated and what did not (each paper's primary
    claims tallied by :func:`short_outcome`, "differs" and "differs beyond margin" counted together; Flach &
    Kull's headline pair said), and what could not be decided with the task families that would decide it."""
    papers = [s for s in studies if not s.own_data and s.ok_tasks is not None]
    if not papers:
        return []
    ok = papers[0].ok_tasks
    models = int(ok["n_models"].median()) if "n_models" in ok.columns else FK_MODELS
    tasks = "/".join(str(len(s.ok_tasks)) for s in papers)
    n = len(papers)
    count = {1: "One offline study", 2: "Two offline studies", 3: "Three offline studies"}.get(n, f"{n} offline studies")
    out = [f"{count} ({tasks} tasks, {models} learners) {'reruns' if n == 1 else 'rerun'} both papers."]
    s = next((x for x in papers if x.name == "paperlike"), papers[-1])
    need = _need(s, REG.FK)
    out.append(f"{_headline(papers)} of {len(_primary(s, REG.FK))} claims" + (f" in `{s.name}`" if n > 1 else "")
               + f", {tally(_primary(s, REG.FK), compact=True)}"
               + (f" (about {need} task families would decide the rest)" if need else "") + ".")
    out.append(f"Boyd et al.'s {len(_primary(papers[0], REG.BOYD))}: {_tallies(papers, REG.BOYD)}.")
    return out


#: The title rows grouping Flach & Kull's claims in the README's table (the claim id's middle part -> title).
TABLE_GROUPS: dict[str, str] = {**{f"{a}_{b}": f"{METRIC_LABELS.get(a, a)}–{METRIC_LABELS.get(b, b)}" for a, b in FK_PAIRS},
                                 "as_different": "as different: AUPR–AUPRG minus AUPR–AUROC", "all_different": "all pairs differ"}


def table_group(claim_id: str) -> str | None:
    """The title row a claim sits under in the README's table (:data:`TABLE_GROUPS`), or None.

    Examples
    --------
    >>> table_group("fk.aupr_auprg.top1"), table_group("boyd.sec4_3.aupr_rises")
    ('AUPR–AUPRG', None)
    """
    parts = claim_id.split(".")
    return TABLE_GROUPS.get(parts[1]) if len(parts) > 1 and parts[0] == "fk" else None


#: Marks a cell whose own 95% interval excludes the paper's value (or 0) that Holm leaves undecided.
DAGGER = "†"
#: The line under the claims table: what a study's cell holds.
CELL_NOTE = "Estimate (95% interval)."
#: The line under the claims table that says what :data:`DAGGER` marks.
DAGGER_NOTE = "excludes the paper's value before correction only."


def claims_table(studies: Sequence[Study]) -> list[str]:
    """One table of every primary claim of both papers: its name, the paper's value, each study's estimate (95%
    interval), the outcome in plain words (:func:`short_outcome`; one label when the studies agree); checks by
    arithmetic last, saying ``check``; :data:`DAGGER` marks an interval that Holm leaves undecided."""
    papers = [s for s in studies if not s.own_data]
    if not papers or all(_primary(s).empty for s in papers):
        return []
    head = ["claim", "paper", *(f"`{s.name}`" for s in papers), "outcome"]  # two outcomes: in column order
    out = [_table_row(head), "|" + "---|" * len(head)]
    for paper in (REG.FK, REG.BOYD):
        out += _paper_rows(papers, paper, len(head))
    out.append("")
    return out + [f"{CELL_NOTE}" + (f" {DAGGER} {DAGGER_NOTE}" if DAGGER in "".join(out) else ""), ""]


def _paper_rows(papers: Sequence[Study], paper: str, width: int) -> list[str]:
    """A paper's rows of :func:`claims_table`: one naming it (and its sample), its claims under their groups'
    title rows (:func:`table_group`, in the order the groups first appear; a group of one claim has no title row, its
    title names the claim), checks last; the paper's cell is empty where the paper gives no number."""
    rows = [_primary(s, paper).set_index("claim_id") for s in papers]
    ids = [i for i in REG.primary_ids() if REG.BY_ID[i].paper == paper and any(i in r.index for r in rows)]
    if not ids:
        return []
    checks = {i for r in rows for i in r.index if by_construction({**r.loc[i], "claim_id": i})}
    out = [_table_row([f"**{RULE.PAPERS[paper].split(' (')[0]}**" + downsampling_sample(papers, paper)] + [""] * (width - 1))]
    claims = [i for i in ids if i not in checks]
    for group in dict.fromkeys(table_group(i) for i in claims):
        out += _group_rows(group, [i for i in claims if table_group(i) == group], paper, papers, rows, width)
    return out + _checks_row([i for i in ids if i in checks], rows)


def _group_rows(group: str | None, members: Sequence[str], paper: str, papers: Sequence[Study],
                rows: Sequence[pd.DataFrame], width: int) -> list[str]:
    """A group's rows of :func:`claims_table`: its title row and claims (a group of one: its title names the claim)."""
    if group and len(members) == 1:
        return [_claim_row(members[0], paper, rows, name=f"*{group}*")]
    return ([_table_row([f"*{group}*"] + [""] * (width - 1))] if group else []) + \
        [_claim_row(cid, paper, rows, name=row_name(cid, papers)) for cid in members]


def _table_row(cells: Sequence[str]) -> str:
    """One Markdown row of :func:`claims_table`, its pipes without padding (the page renders the same)."""
    return "|" + "|".join(cell(c) for c in cells) + "|"


def _checks_row(ids: Sequence[str], rows: Sequence[pd.DataFrame]) -> list[str]:
    """The checks by arithmetic in one row, apart from the findings: their names, per study ``hold`` (else each
    failing check's outcome), ``check`` when all hold."""
    if not ids:
        return []
    said = [{i: short_outcome({**r.loc[i], "claim_id": i}) for i in ids if i in r.index} for r in rows]
    words = ["hold" if set(w.values()) == {"check"} else ", ".join(f"{table_name(i)} {x}" for i, x in w.items() if x != "check")
             for w in said]
    return [_table_row([f"checks: {', '.join(table_name(i) for i in ids)}", "", *[""] * len(rows),
                        words[0] if len(set(words)) == 1 else " / ".join(words)])]


#: The claims table's row of Boyd et al. 4.1, which says the finding in its name (:func:`row_name`).
FOLD_ROW = "boyd.sec4_1.averaging_optimistic"


def row_name(cid: str, studies: Sequence[Study]) -> str:
    """A claim's name in the claims table (:func:`table_name`); Boyd 4.1's says by how much the fold means fall
    below (or above) the merged AUPR, mildest to widest dispersion: ``folds optimistic (fold means 0.004–0.072 below
    merged AUPR)``."""
    if cid != FOLD_ROW or not (gaps := [g for s in studies if (g := fold_gaps(s))]):
        return table_name(cid)
    ends = [g[-1][1] for g in gaps]
    side = "below" if all(e < 0 for e in ends) else "above" if all(e > 0 for e in ends) else ""
    said = list(dict.fromkeys(f"{abs(g[0][1]):.3f}–{abs(g[-1][1]):.3f}" if side else f"{g[0][1]:.3f} to {g[-1][1]:.3f}"
                              for g in gaps))
    return f"{table_name(cid)} (fold means {' / '.join(said)} {side or 'either side of'} merged AUPR)"


def _claim_row(cid: str, paper: str, rows: Sequence[pd.DataFrame], *, name: str | None = None) -> str:
    """One row of :func:`claims_table`: name, the paper's value (empty when the paper gives no number),
    each study's cell, the outcome."""
    given = paper_cell({"claim_id": cid, "paper": paper})
    cells, words = [name or table_name(cid), "" if given == "no number" else given.split(" (")[0]], []
    for r in rows:
        if cid not in r.index:
            cells.append("")
            continue
        x = {**r.loc[cid], "claim_id": cid}
        cells.append(range_cell(value_cell(x)) + (DAGGER if excluded_not_decided(x) else ""))
        words.append(short_outcome(x))
    cells.append(words[0] if len(set(words)) == 1 else " / ".join(words))
    return _table_row(cells)


#: Joins the parts of a claims-table cell so that a page never wraps inside an estimate and its interval: a
#: no-break space for a space, a word joiner after the dash (where a browser may break a line otherwise).
NO_BREAK, JOIN = "\u00a0", "\u2060"


def range_cell(text: str) -> str:
    """A cell's ``[lo, hi]`` as ``(lo–hi)``, or ``(lo, hi)`` where an end is negative, with no place to break a
    line (:data:`NO_BREAK` for each space, :data:`JOIN` after the dash).

    Examples
    --------
    >>> range_cell("0.23 [0.15, 0.32]").replace(NO_BREAK, " ").replace(JOIN, "")
    '0.23 (0.15–0.32)'
    >>> range_cell("-0.113 [-0.214, -0.020]").replace(NO_BREAK, " ")
    '-0.113 (-0.214, -0.020)'
    >>> " " in range_cell("0.23 [0.15, 0.32]")
    False
    """
    def one(m: re.Match[str]) -> str:
        lo, hi = m.group(1), m.group(2)
        return f"({lo}, {hi})" if lo.startswith("-") or hi.startswith("-") else f"({lo}–{JOIN}{hi})"
    return re.sub(r"\[(-?[\w.]+), (-?[\w.]+)\]", one, text).replace(" ", NO_BREAK)


def _coverage(studies: Sequence[Study]) -> tuple[str, str | None, str, int] | None:
    """``(oracle, procedure, sims, short)``: the span of the 95% intervals' coverage with the level corrected on
    the population (``oracle_coverage``) and with the whole procedure simulated (``procedure_coverage``), the
    oracle's fewest simulated studies (``" (20,000+ each)"``), the rows short of 95% by over two MC SE."""
    rows = pd.concat([_primary(s) for s in studies if not s.own_data] or [pd.DataFrame()], ignore_index=True)
    if rows.empty:
        return None
    has_p = rows["p_diff"].astype(float).notna() if "p_diff" in rows else pd.Series(True, index=rows.index)

    def span(col: str) -> str | None:
        c = rows[col].astype(float)[has_p] if col in rows else pd.Series(dtype=float)
        c = c[np.isfinite(c)]
        return f"{c.min():.3f} to {c.max():.3f}" if len(c) else None
    oracle = span("oracle_coverage") or span("coverage")
    n = rows["coverage_n"].astype(float) if "coverage_n" in rows else pd.Series(dtype=float)
    sims = f" ({int(n[np.isfinite(n)].min()):,}+ each)" if np.isfinite(n).any() else ""
    short = 0
    if {"procedure_coverage", "procedure_coverage_mc_se"} <= set(rows):
        pc, se = rows["procedure_coverage"].astype(float), rows["procedure_coverage_mc_se"].astype(float)
        short = int(((pc + 2.0 * se) < REG.CLAIM_LEVEL)[has_p].sum())
    return None if oracle is None else (oracle, span("procedure_coverage"), sims, short)


def trust_sentence(studies: Sequence[Study]) -> str | None:
    """How far the answers can be trusted: the 95% intervals' coverage with the whole procedure simulated, the rows
    short of 95% by over two MC SE (:func:`_coverage`), Holm; else the oracle's coverage, said as such."""
    if (cov := _coverage(studies)) is None:
        return None
    oracle, proc, sims, short = cov
    n = len(pd.concat([_primary(s) for s in studies if not s.own_data], ignore_index=True))
    said = (f"Trust: each 95% interval covered the truth in {proc} of simulated studies that rerun the whole "
            "procedure, its level correction included" + (
                f"; {short} of {n} rows fall short of 95% by more than two Monte Carlo errors, and their rows say so"
                if short else "") if proc else
            f"Trust: each 95% interval covered the truth in {oracle} of simulated studies{sims}, its level corrected "
            "on the population (the whole procedure not simulated)")
    return (said + f"; Holm's correction at {100 * REG.HOLM_ALPHA:g}% within each paper; \"undecided\" means the "
            "data cannot settle a claim, not that it failed.")


def answer(studies: Sequence[Study]) -> list[str]:
    """At most :data:`MAX_SENTENCES` sentences, one per question, each with a clause per study."""
    makers = (as_different_sentence, sample_size_sentence, noise_sentence, sensitivity_sentence)
    return [s for s in (m(studies) for m in makers) if s][:MAX_SENTENCES]


def labels_used(studies: Sequence[Study]) -> list[str]:
    """Every row label the pages of these studies show (for the glossary test)."""
    return sorted({label(str(c), str(t)) for s in studies for c, t in zip(s.verdicts["claim_id"], s.verdicts["claim"], strict=True)})
