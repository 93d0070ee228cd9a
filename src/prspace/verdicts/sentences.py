"""The answer first, in words: at most :data:`MAX_SENTENCES` sentences read off the verdict tables
(and a study's own tables) that answer "does the finding hold, and can the data tell?", for one
study or several side by side; what a study ran; and, for a study of a user's own data, which
learner each metric picks on each task and whether the test rows can tell.

Every number in a sentence is a cell of a table (:mod:`prspace.verdicts.pagedata`); nothing is typed
here but the papers' own constants (Flach & Kull's 886 tasks from 426 datasets, 30 models each).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.metrics.names import FK_PAIRS, METRIC_LABELS
from prspace.stats import cluster_bootstrap as CB
from prspace.verdicts.pagedata import PICK_METRICS, USER_TASK_PREFIX, Study, typical_best_set_size
from prspace.verdicts.verdict_labels import count_verdicts, label, num, short_name, verdict_key

MAX_SENTENCES = 7
#: No sentence of the answer is longer than this many words (a test checks it on both studies).
MAX_WORDS = 90
#: Flach & Kull, section 4: "the obtained 886 tasks (covering 426 different datasets)", 30 models each.
FK_TASKS, FK_MODELS = 886, 30
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
    out = []
    for s in studies:
        c = one(s)
        if c:
            out.append(f"`{s.name}` {c}" if len(studies) > 1 else c)
    return out


def _sentence(head: str, studies: Sequence[Study], one, tail: str = ".") -> str | None:
    """``head`` followed by the studies' clauses (:func:`_clauses`) joined by "; " and ``tail``;
    None when no study has anything to say."""
    cl = _clauses(studies, one)
    return head + "; ".join(cl) + tail if cl else None


def _range(values: Sequence[float], d: int = 2) -> str:
    lo, hi = min(values), max(values)
    return num(lo, d) if lo == hi else f"{num(lo, d)} to {num(hi, d)}"


def shares_sentence(studies: Sequence[Study]) -> str | None:
    pv = [REG.BY_ID[i].paper_value for i in SHARE_IDS]

    def one(s: Study) -> str | None:
        r = _rows(s, SHARE_IDS)
        if r.empty:
            return None
        paper = np.array([REG.BY_ID[i].paper_value for i in r.index])
        est = r["estimate"].to_numpy(float)
        above, below = int((est > paper).sum()), int((est < paper).sum())
        lean = (f"all {len(r)} above the paper's" if above == len(r) else f"all {len(r)} below the paper's"
                if below == len(r) else f"{above} above, {below} below the paper's")
        out = f"{count_verdicts(r['verdict'])} ({_range(est.tolist())}: {lean}"
        if "ci95_lo" in r:
            ex = int(((r["ci95_lo"] > paper) | (r["ci95_hi"] < paper)).sum())
            out += f"; {ex} of {len(r)} 95% intervals exclude it"
        return out + ")"
    return _sentence(f"Flach & Kull's {len(SHARE_IDS)} shares of tasks where two metrics pick a "
                     f"different best model or top three (paper {_range(pv)}): ", studies, one)


def correlations_sentence(studies: Sequence[Study]) -> str | None:
    pc = ", ".join(num(REG.BY_ID[i].paper_value, 2) for i in CORR_IDS)
    pq = ", ".join(num(REG.BY_ID[i].paper_value, 3) for i in QUARTILE_IDS)

    def one(s: Study) -> str | None:
        c, q = _rows(s, CORR_IDS), _rows(s, QUARTILE_IDS)
        parts = []
        if len(c):
            parts.append(", ".join(num(x, 3) for x in c["estimate"]) + f" ({count_verdicts(c['verdict'])})")
        if len(q):
            parts.append("quartiles " + ", ".join(num(x, 3) for x in q["estimate"])
                         + f" ({count_verdicts(q['verdict'])})")
        return "; ".join(parts) or None
    return _sentence(f"The mean rank correlations of the three pairs (paper {pc}) and the AUPR-AUPRG quartiles over "
                     f"tasks (paper {pq}): ", studies, one)


def _holm_note(r: pd.Series) -> str:
    """The verdict's key word, and for an undecided row whose per-claim interval excludes 0 why: Holm's
    adjusted p (the interval is the claim's own, not adjusted for its paper's family)."""
    key = verdict_key(r["verdict"])
    lo, hi, p = (float(r.get(c, np.nan)) for c in ("ci_lo", "ci_hi", "p_holm"))
    if key == "inconclusive" and np.isfinite(p) and (lo > 0 or hi < 0):
        return f"{key}: Holm-adjusted p {num(p, 2)}, though the claim's own 95% interval excludes 0"
    return key


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


def _mildest_any_optimism(s: Study) -> tuple[float, pd.Series] | None:
    """The ``px.boyd.sec4_1.any_optimism_d<d>`` row of the smallest dispersion ``d``, with ``d``."""
    ids = s.verdicts["claim_id"].astype(str)
    rows = [(float(i.rsplit("_d", 1)[1]), i) for i in ids if i.startswith("px.boyd.sec4_1.any_optimism_d")]
    if not rows:
        return None
    d, cid = min(rows)
    return d, s.row(cid)


def boyd_sentence(studies: Sequence[Study]) -> str | None:
    def one(s: Study) -> str | None:
        r = s.row("boyd.sec4_1.averaging_optimistic")
        if r is None:
            return None
        out = f"{_ci(r, 2)} ({r['verdict']})"
        mild = _mildest_any_optimism(s)
        if mild is not None and mild[1] is not None:
            out += f"; by any amount at d = {mild[0]:g}: {num(mild[1]['estimate'], 2)}"
        b = s.row("boyd.sec4_1.aucnpr_reduces_bias")
        if b is not None:
            out += f"; AUCNPR shrinks the gap: {b['verdict']}"
        return out
    return _sentence(f"Boyd et al. (4.1), \"can lead to\" overly optimistic fold averages: share of tasks where skewed "
                     f"folds lift mean per-fold AUPR over merged AUPR by more than {REG.DIRECTION_MARGIN:g} beyond even "
                     "folds, widest spread: ", studies, one)


def robust_ids(s: Study) -> tuple[list[str], list[tuple[str, str, str]], list[str]]:
    """From ``sensitivity.csv``: the primary claims whose verdict is the same in every variant,
    those that change (claim id, variant, verdict there), and the variants."""
    sens = s.sensitivity
    if sens is None or not len(sens):
        return [], [], []
    base = s.verdicts.set_index("claim_id")["verdict"]
    same, changed = [], []
    for cid, g in sens.groupby("claim_id", sort=False):
        if cid not in base.index:
            continue
        moved = [(cid, str(r.variant), str(r.verdict)) for r in g.itertuples()
                 if verdict_key(r.verdict) != verdict_key(base[cid])]
        (changed.extend(moved) if moved else same.append(cid))
    return same, changed, list(dict.fromkeys(sens["variant"].astype(str)))


def sensitivity_sentence(studies: Sequence[Study]) -> str | None:
    variants = list(dict.fromkeys(v for s in studies for v in robust_ids(s)[2]))

    def one(s: Study) -> str | None:
        same, changed, mine = robust_ids(s)
        if not mine:
            return None
        moved = list(dict.fromkeys(cid for cid, _, _ in changed))
        out = f"{len(same)} of {len(same) + len(moved)} verdicts stay the same in all {len(mine)}"
        if 0 < len(moved) <= 3:
            out += " (those that change: " + ", ".join(short_name(c) for c in moved) + ")"
        elif moved:
            out += " (the others change with the view: the sensitivity table of findings.md)"
        return out
    return _sentence(f"Read again on other views of the population ({', '.join(variants)}): ", studies, one)


def sample_size_sentence(studies: Sequence[Study]) -> str | None:
    """What the data can and cannot decide, and the population that would: per study the primary
    claims decided (a borderline row is not decided), and for the undecided ones the families that
    would decide with 80% power (``families_80``, simulated from the study's own families; those
    that never decide within the simulated grid said so), the plug-in's range over each claim's 95%
    interval (``families_80_lo`` / ``_hi``), against Flach & Kull's 426 datasets."""
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
        out = f"{int(decided.sum())} of {len(p)} decided at {nf} families"
        if border.any():
            out += f" ({int(border.sum())} borderline, not counted)"
        if undecided.empty:
            return out
        need = undecided["families_80"].astype(float)
        known = need[np.isfinite(need)]
        never = len(need) - len(known)
        grid_max = int(CB.POWER_GRID[-1])
        if len(known):
            out += (f"; {len(known)} of {len(need)} undecided need a median of {int(known.median())} families "
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
    return _sentence("What the data can decide of Flach & Kull's primary claims (families for 80% power, simulated "
                     "from the study's own): ", studies, one)


def answer(studies: Sequence[Study]) -> list[str]:
    """At most :data:`MAX_SENTENCES` sentences, one per question, each with a clause per study."""
    makers = (shares_sentence, correlations_sentence, as_different_sentence, sample_size_sentence, noise_sentence,
              boyd_sentence, sensitivity_sentence)
    return [s for s in (m(studies) for m in makers) if s][:MAX_SENTENCES]


def description(s: Study) -> str:
    """What the study ran, from its task table (one or two sentences, not counted in the answer)."""
    ok = s.ok_tasks
    if ok is None:
        return f"`{s.name}`: no task table."
    fam = ok["family"].nunique() if "family" in ok.columns else len(ok)
    models = int(ok["n_models"].median()) if "n_models" in ok.columns and len(ok) else None
    folds = int(ok["n_folds"].median()) if "n_folds" in ok.columns and len(ok) else None
    src = set(ok["source"].astype(str)) if "source" in ok.columns else set()
    what = f"`{s.name}`: {len(ok)} tasks from {fam} families, pi {num(ok['pi'].min(), 3)} to {num(ok['pi'].max(), 3)} " \
           f"(median {num(ok['pi'].median(), 3)})"
    users = ok["task_id"].astype(str).str.startswith(USER_TASK_PREFIX).any() if "task_id" in ok.columns else False
    if src == {"local"}:
        what += (f"; a fixed panel of {models} scikit-learn learners run here in {folds}-fold cross-validation on "
                 + ("your data files" if users else "datasets shipped in Python packages"))
    elif models:
        what += f"; {models} models per task"
    return what + "."


def offline_note(studies: Sequence[Study]) -> str | None:
    """The one sentence that says what the offline studies are not (when any study is local)."""
    if not any(s.ok_tasks is not None and "source" in s.ok_tasks and (s.ok_tasks["source"] == "local").all()
               for s in studies):
        return None
    return (f"Flach & Kull ranked {FK_MODELS} models on each of {FK_TASKS} OpenML tasks from "
            f"{REG.FK_DATASETS} datasets and do not give those tasks' pi distribution; the offline studies "
            "stand in for that population, and the faithful OpenML study (`config/openml-paper.yaml`) is one "
            "configuration away but was not run for these results.")


def _picks(metrics: pd.DataFrame) -> pd.DataFrame:
    """Per task, the model each metric ranks first (ties joined with " = ")."""
    rows = []
    for task, g in metrics.groupby("task_id", sort=True):
        row = {"task_id": task}
        for m in PICK_METRICS:
            if m in g.columns and g[m].notna().any():
                top = g[m].max()
                row[m] = " = ".join(sorted(g.loc[np.isclose(g[m], top, rtol=0, atol=1e-12), "model_id"].astype(str)))
        rows.append(row)
    return pd.DataFrame(rows)


def _set_sizes(s: Study) -> pd.DataFrame:
    """Per (task, metric), the models in the plausible-best set (``k``) of those ranked (``n``): ``rank_sets.csv``."""
    if s.rank_sets is None or not len(s.rank_sets):
        return pd.DataFrame()
    rs = s.rank_sets
    best = rs["plausible_best"].astype(str).str.lower().isin(("true", "1"))
    return pd.DataFrame({"k": best.groupby([rs["task"], rs["metric"]]).sum(), "n": rs.groupby(["task", "metric"]).size()})


#: Most tasks the picks table of the page shows: above it the page lists the first tasks and says where the rest
#: are (the 886-task loopback draw made it 886 rows ahead of the answer; the committed studies have 87 and 61)
PICKS_SHOWN = 100


def _picks_table(picks: pd.DataFrame, ms: list[str], sizes: pd.DataFrame, pi: pd.Series) -> tuple[list[str], int, int]:
    """The table of picks per task (its first :data:`PICKS_SHOWN` rows), the tasks where the metrics ``ms`` pick
    the same learner, and those where every metric's plausible-best set is one model (both over every task)."""
    head = ["task", "pi"] + [f"best by {METRIC_LABELS[m]}" for m in ms] + ["same pick?", "models that could be the best"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    agree = tell = 0
    for r in picks.itertuples(index=False):
        rd = r._asdict()
        same = len({rd[m] for m in ms}) == 1
        agree += same
        could = []
        for m in ms:
            if (rd["task_id"], m) in sizes.index:
                k, n = sizes.loc[(rd["task_id"], m)]
                could.append(f"{int(k)} of {int(n)} ({METRIC_LABELS[m]})")
        tell += bool(could) and all(c.startswith("1 of") for c in could)
        if len(lines) - 2 >= PICKS_SHOWN:
            continue
        lines.append(f"| {rd['task_id']} | {num(pi.get(rd['task_id'], np.nan), 3)} | "
                     + " | ".join(rd[m] for m in ms) + f" | {'yes' if same else 'no'} | {', '.join(could)} |")
    return lines, agree, tell


def _over_all_tasks(w: pd.DataFrame | None, ms: list[str]) -> list[str]:
    """The learner each metric picks over all tasks (highest mean, ``learner_winners.csv``), if given."""
    if w is None or not len(w) or not {"metric", "criterion", "winner"} <= set(w.columns):
        return []
    mean = w[(w["criterion"] == "mean") & w["metric"].isin(ms)]
    if not len(mean):
        return []
    return ["", "Over all tasks (highest mean): " + ", ".join(
        f"{METRIC_LABELS[r.metric]} picks {r.winner}" for r in mean.itertuples()) + "."]


def own_data_section(s: Study) -> list[str]:
    """Markdown lines: per task, which learner each metric picks, whether they agree and how many
    models could be the best by each metric (``rank_sets.csv``); then the learners over all tasks."""
    if s.metrics is None or not len(s.metrics):
        return []
    picks = _picks(s.metrics)
    ms = [m for m in PICK_METRICS if m in picks.columns]
    sizes = _set_sizes(s)
    ok = s.ok_tasks
    pi = ok.set_index("task_id")["pi"] if ok is not None and "pi" in ok.columns else pd.Series(dtype=float)
    lines, agree, tell = _picks_table(picks, ms, sizes, pi)
    n = len(picks)
    text = [f"On {agree} of {n} task{'s' if n != 1 else ''} {', '.join(METRIC_LABELS[m] for m in ms)} pick the same "
            "learner."]
    if len(sizes):
        text.append(f"On {tell} of {n} the test rows tell the best learner apart by every metric (a plausible-best "
                    "set of one model); elsewhere the table says how many models could be the best.")
    if n > PICKS_SHOWN:
        lines.append(f"\nThe first {PICKS_SHOWN} of the {n} tasks; every task's metrics are in `tables/metrics.csv` and "
                     "its plausible-best sets in `tables/rank_sets.csv`.")
    out = [f"**Your data first** (study `{s.name}`): which learner each metric picks on each task." + " "
           + " ".join(text), ""] + lines
    return out + _over_all_tasks(s.winners, ms) + [""]


def labels_used(studies: Sequence[Study]) -> list[str]:
    """Every row label the pages of these studies show (for the glossary test)."""
    return sorted({label(str(c), str(t)) for s in studies for c, t in zip(s.verdicts["claim_id"], s.verdicts["claim"], strict=True)})
