"""A study's verdicts, and the pages generated from them: ``verdicts.md``, ``summary.md``, ``findings.md``.

:func:`collect_evidence` gathers the evidence rows of a study's tables (Flach & Kull's numbers from
``disagreement_summary.csv``, the learner-order rows from the cd job's ``cd_metric_pairs.csv``,
and the evidence tables other analyses write:
:data:`EVIDENCE_TABLES`); :func:`verdict_table` applies the one rule
(:func:`prspace.verdicts.rule.apply_rule`). The pages say nothing that is not in the verdict table,
the task table or the configuration that ran: no number is typed here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.metrics.names import FK_PAIRS, METRIC_LABELS
from prspace.verdicts import rule as R
from prspace.verdicts.claims import cd_order_evidence, within_task_order_evidence
from prspace.verdicts.primary import DEFAULT_N_BOOT, primary_rows

#: Evidence tables written by the analyses (each optional: a study without Boyd's experiments has no
#: ``boyd_evidence.csv``), in the order their rows appear.
EVIDENCE_TABLES = ("noise_evidence.csv", "rank_set_evidence.csv", "skew_evidence.csv", "boyd_evidence.csv")
#: The cd job's table of metric pairs (:func:`prspace.cd.study_tables`), turned into the
#: ``px.<a>_<b>.cd.order`` rows here (:func:`prspace.verdicts.claims.cd_order_evidence`).
CD_PAIRS_TABLE = "cd_metric_pairs.csv"

#: The rows of the answer-first summary (claim id patterns, in order; ``*`` = every pair).
HEADLINE = (
    "fk.{p}.top1", "fk.{p}.top3", "px.{p}.top1.distinguishable", "px.{p}.top1.skew_trend",
    "fk.{p}.top1.at_paperlike_pi_distribution", "px.{p}.rank_sets.disjoint", "px.{p}.cd.order",
)
PAIRS = tuple(f"{a}_{b}" for a, b in FK_PAIRS)


def collect_evidence(tables_dir: str | Path, *, n_boot: int = DEFAULT_N_BOOT, seed: int = 0) -> pd.DataFrame:
    """Every evidence row a study's tables hold (:data:`prspace.verdicts.rule.EVIDENCE_COLUMNS`):
    Flach & Kull's primary rows from ``disagreement_per_task.csv`` and ``tasks.csv``
    (:func:`prspace.verdicts.primary.primary_rows`, ``n_boot`` resamples, ``seed``), then the rows
    of the other tables."""
    t = Path(tables_dir)
    rows: list[dict[str, object]] = []
    per_task_path = t / "disagreement_per_task.csv"
    if per_task_path.is_file():
        tasks = pd.read_csv(t / "tasks.csv", dtype={"task_id": str}) if (t / "tasks.csv").is_file() else None
        rows += primary_rows(pd.read_csv(per_task_path, dtype={"task_id": str}), tasks, n_boot=n_boot, seed=seed)
    summary_path = t / "disagreement_summary.csv"
    if summary_path.is_file():
        rows += within_task_order_evidence(pd.read_csv(summary_path))
    cd_path = t / CD_PAIRS_TABLE
    if cd_path.is_file():
        rows += cd_order_evidence(pd.read_csv(cd_path, keep_default_na=False, na_values=[""]))
    frames = [R.evidence_frame(rows)]
    for name in EVIDENCE_TABLES:
        p = t / name
        if p.is_file():
            df = pd.read_csv(p, keep_default_na=False, na_values=[""])
            for c in R.OPTIONAL_EVIDENCE_COLUMNS:
                if c not in df.columns:
                    df[c] = np.nan
            missing = [c for c in R.EVIDENCE_COLUMNS if c not in df.columns]
            if missing:
                raise ValueError(f"{p} lacks evidence column(s) {missing}; it must be written with prspace.verdicts.rule.evidence_row")
            frames.append(df[R.EVIDENCE_COLUMNS])
    ev = pd.concat([f for f in frames if len(f)], ignore_index=True) if any(len(f) for f in frames) else frames[0]
    dup = ev["claim_id"][ev["claim_id"].duplicated()]
    if len(dup):
        raise ValueError(f"claim ids appear twice in the evidence tables of {t}: {sorted(set(dup))}")
    ev["detail"] = ev["detail"].fillna("").astype(str)
    return ev


def verdict_table(evidence: pd.DataFrame) -> pd.DataFrame:
    """The verdict table (:func:`prspace.verdicts.rule.apply_rule`): primary rows first, then
    implementation, then exploratory; within a role in the order of the evidence."""
    from prspace.verdicts.registry import ROLES

    v = R.apply_rule(evidence)
    v["_o"] = v["role"].map({r: i for i, r in enumerate(ROLES)})
    return v.sort_values(["_o"], kind="stable").drop(columns="_o").reset_index(drop=True)


def _num(v: float, d: int = 2) -> str:
    if v is None or not np.isfinite(v):
        return ""
    return f"{v:.{d}f}" if abs(v) >= 10 ** -d or v == 0 else f"{v:.2g}"


def _value(r: Mapping[str, object]) -> str:
    est, lo, hi = (float(r[c]) for c in ("estimate", "ci_lo", "ci_hi"))
    kind = str(r["kind"])
    if kind == "bound":
        return f"{int(r['k'])} of {int(r['n'])} [{_num(lo)}, {_num(hi)}]"
    if kind == "test":
        return f"p = {_num(est, 3)}" if np.isfinite(est) else "not tested"
    if kind == "exact":
        return f"max deviation {_num(est, 6) if est else '0'}"
    d = 3 if kind in ("correlation", "direction", "stable", "difference") else 2
    if np.isfinite(lo) and np.isfinite(hi):
        return f"{_num(est, d)} [{_num(lo, d)}, {_num(hi, d)}]"
    return _num(est, d)


def _paper(r: Mapping[str, object]) -> str:
    kind, pv = str(r["kind"]), float(r["paper_value"])
    if kind == "direction":
        return "rises" if pv > 0 else "falls" if pv < 0 else ""
    if kind == "stable":
        return "stable"
    if kind == "exact":
        return "closed form"
    return _num(pv)


def verdicts_markdown(v: pd.DataFrame, *, study: str) -> str:
    """The whole verdict table as Markdown."""
    lines = [f"# Verdicts of study `{study}`", "",
             "Generated by `prspace verdicts` from `verdicts.csv`; the rule is in `docs/verdicts.md`.", "",
             "| claim id | claim | paper | this run [95% CI] | tasks | families | verdict | explanation |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for _, r in v.iterrows():
        nt = "" if not np.isfinite(r["n_tasks"]) else str(int(r["n_tasks"]))
        nf = "" if not np.isfinite(r["n_families"]) else str(int(r["n_families"]))
        lines.append(f"| `{r['claim_id']}` | {r['claim']} | {_paper(r)} | {_value(r)} | {nt} | {nf} | "
                     f"**{r['verdict']}** | {str(r['explanation']).replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def headline(v: pd.DataFrame) -> pd.DataFrame:
    """The rows of the answer-first summary, in :data:`HEADLINE` order."""
    ids = [pat.format(p=p) for pat in HEADLINE for p in PAIRS]
    by = v.set_index("claim_id")
    return by.loc[[i for i in ids if i in by.index]].reset_index()


def _pair_label(claim_id: str) -> str:
    """``fk.aupr_auroc.top1`` -> ``AUPR vs AUROC``."""
    a, b = claim_id.split(".")[1].split("_", 1) if claim_id.split(".")[1].count("_") == 1 else (claim_id, "")
    return f"{METRIC_LABELS.get(a, a)} vs {METRIC_LABELS.get(b, b)}"


def _count(v: pd.DataFrame, mask: pd.Series) -> str:
    c = v.loc[mask, "verdict"].value_counts()
    return ", ".join(f"{n} {name}" for name, n in c.items())


def summary_sentences(v: pd.DataFrame, *, tasks: pd.DataFrame | None) -> list[str]:
    """At most five sentences, each read off the verdict table (and the task table)."""
    out = []
    if tasks is not None and len(tasks):
        ok = tasks[tasks["status"] == "ok"] if "status" in tasks.columns else tasks
        fam = ok["family"].nunique() if "family" in ok.columns else len(ok)
        out.append(f"{len(ok)} tasks from {fam} families of real datasets, pi {ok['pi'].min():.3f} to "
                   f"{ok['pi'].max():.3f} (median {ok['pi'].median():.3f}).")
    fk = v["claim_id"].str.match(r"^fk\.[a-z_]+\.top[13]$")
    if fk.any():
        differ = v[fk & v["verdict"].str.startswith("differs")]
        which = "; ".join(f"{_pair_label(r.claim_id)} top-{r.claim_id[-1]} {r.verdict.split(': ')[1]}"
                          for r in differ.itertuples())
        out.append(f"Flach & Kull's {int(fk.sum())} disagreement shares: {_count(v, fk)}"
                   + (f" ({which})." if which else "."))
    nb = v["claim_id"].str.match(r"^px\.[a-z_]+\.top1\.distinguishable$")
    if nb.any():
        k, n = int(v.loc[nb, "k"].sum()), int(v.loc[nb, "n"].sum())
        out.append(f"Top-1 disagreements whose two preferred models the test rows separate: {k} of {n} over the "
                   f"three pairs (verdicts: {_count(v, nb)}); where the check's power is low this says the rows "
                   f"cannot separate such models, not that no real reversal exists (`calibration_summary.csv`).")
    sk = v["claim_id"].str.match(r"^px\.[a-z_]+\.top1\.skew_trend$")
    if sk.any():
        moved = [_pair_label(r.claim_id) for r in v[sk].itertuples() if r.verdict == R.HOLDS]
        out.append("With the same models and scores, lowering pi raises the top-1 disagreement of "
                   + (", ".join(moved) if moved else "no pair") + f" ({_count(v, sk)}).")
    bo = v["paper"] == "boyd-2012"
    if bo.any():
        nbo = int(bo.sum())
        out.append(f"Boyd et al.'s {nbo} checked claim{'s' if nbo != 1 else ''}: {_count(v, bo)}.")
    return out[:5]


#: Short labels of the headline rows, for the table of several studies (``{a}``, ``{b}``: the pair).
SHORT = {
    "fk.{p}.top1": "{a} vs {b}: different best model",
    "fk.{p}.top3": "{a} vs {b}: different ordered top three",
    "px.{p}.top1.distinguishable": "{a} vs {b}: top-1 disagreements with separable models",
    "px.{p}.top1.skew_trend": "{a} vs {b}: top-1 disagreement rises as pi falls (per decade)",
    "fk.{p}.top1.at_paperlike_pi_distribution": "{a} vs {b}: different best model at the paper-like pi",
    "px.{p}.rank_sets.disjoint": "{a} vs {b}: plausible-best sets disjoint (real by construction)",
    "px.{p}.cd.order": "{a} vs {b}: learner order across tasks differs (sign-flip test)",
}


def _tasks_sentence(study: str, tasks: pd.DataFrame | None) -> str:
    if tasks is None or not len(tasks):
        return f"`{study}`: no task table."
    ok = tasks[tasks["status"] == "ok"] if "status" in tasks.columns else tasks
    fam = ok["family"].nunique() if "family" in ok.columns else len(ok)
    return (f"`{study}`: {len(ok)} tasks from {fam} families, pi {ok['pi'].min():.3f} to {ok['pi'].max():.3f} "
            f"(median {ok['pi'].median():.3f}).")


def studies_markdown(studies: Sequence[tuple[str, pd.DataFrame, pd.DataFrame | None]]) -> str:
    """The answer first for several studies side by side: one row per headline claim
    (:data:`SHORT`), the paper's value, then each study's value [95% CI] and verdict; a line per
    study on its tasks and on Boyd et al.'s rows. Generated from the verdict tables only."""
    names = [s for s, _, _ in studies]
    head = "| claim | paper | " + " | ".join(f"{n} [95% CI] | verdict" for n in names) + " |"
    lines = [head, "| --- | --- | " + " | ".join("--- | ---" for _ in names) + " |"]
    by = [v.set_index("claim_id") for _, v, _ in studies]
    for pat in HEADLINE:
        for p in PAIRS:
            cid = pat.format(p=p)
            rows = [b.loc[cid] if cid in b.index else None for b in by]
            first = next((r for r in rows if r is not None), None)
            if first is None:
                continue
            a, b_ = p.split("_", 1)
            label = SHORT[pat].format(a=METRIC_LABELS.get(a, a), b=METRIC_LABELS.get(b_, b_))
            cells = " | ".join(f"{_value(r)} | {r['verdict']}" if r is not None else " | " for r in rows)
            lines.append(f"| {label} | {_paper(first)} | {cells} |")
    lines.append("")
    for name, v, tasks in studies:
        line = _tasks_sentence(name, tasks)
        bo = v["paper"] == "boyd-2012"
        if bo.any():
            line += f" Boyd et al.: {int(bo.sum())} claim row(s), {_count(v, bo)}."
        lines.append(line + "  ")
    return "\n".join(lines).rstrip() + "\n"


def summary_markdown(v: pd.DataFrame, *, study: str, tasks: pd.DataFrame | None) -> str:
    """The answer first: a short table of the headline claims and at most five sentences."""
    h = headline(v)
    lines = [f"| claim (`{study}` study) | paper | this run [95% CI] | verdict |", "| --- | --- | --- | --- |"]
    for _, r in h.iterrows():
        lines.append(f"| {r['claim']} | {_paper(r)} | {_value(r)} | {r['verdict']} |")
    lines += [""] + summary_sentences(v, tasks=tasks)
    return "\n".join(lines) + "\n"


def summary_rst(v: pd.DataFrame, *, study: str, tasks: pd.DataFrame | None, intro: str) -> str:
    """The report's front page: ``intro`` (the static description), then the answer first, as
    reStructuredText (a ``list-table``), generated like :func:`summary_markdown`."""
    table = [".. list-table::", "   :header-rows: 1", "", "   * - claim", "     - paper", "     - this run [95% CI]",
             "     - verdict"]
    for _, r in headline(v).iterrows():
        table += [f"   * - {r['claim']}", f"     - {_paper(r)}", f"     - {_value(r)}", f"     - {r['verdict']}"]
    blocks = [intro.strip(), f"**The answer** (study ``{study}``; every claim in the *verdicts* table, the rule in "
              "``docs/verdicts.md``):", "\n".join(table)]
    blocks += [s.replace("`", "``") for s in summary_sentences(v, tasks=tasks)]
    return "\n\n".join(blocks) + "\n"


def findings_markdown(v: pd.DataFrame, *, study: str, tasks: pd.DataFrame | None,
                      params: Mapping[str, object] | None = None, winners: pd.DataFrame | None = None) -> str:
    """The study's findings page: the summary, then every verdict by paper, then the run's parameters."""
    lines = [f"# Findings of study `{study}`", "",
             "Generated by `prspace verdicts` from `tables/verdicts.csv`; do not edit. The rule behind every "
             "verdict is in `docs/verdicts.md`.", "", "## The answer", "",
             summary_markdown(v, study=study, tasks=tasks).rstrip(), ""]
    for paper, title in R.PAPERS.items():
        part = v[v["paper"] == paper]
        if part.empty:
            continue
        lines += [f"## {title}", "", "| claim | paper | this run [95% CI] | verdict | explanation |",
                  "| --- | --- | --- | --- | --- |"]
        for _, r in part.iterrows():
            lines.append(f"| {r['claim']} (`{r['claim_id']}`) | {_paper(r)} | {_value(r)} | {r['verdict']} | "
                         f"{str(r['explanation']).replace('|', '/')} |")
        lines.append("")
    if winners is not None and len(winners):
        lines += ["## Learners across tasks (Boyd et al. 2012, sec. 4.2)", "",
                  "| metric | criterion | winner | runner-up | margin | tasks whose removal alone changes the winner |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for _, r in winners.iterrows():
            lines.append(f"| {r['metric']} | {r['criterion']} | {r['winner']} | {r['runner_up']} | "
                         f"{float(r['margin']):.4f} | {int(r['n_tasks_flip'])} |")
        lines.append("")
    if params:
        lines += ["## Parameters of this run", ""] + [f"- `{k}`: {val}" for k, val in params.items()] + [""]
    return "\n".join(lines)
