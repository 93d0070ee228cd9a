"""The audit's headline: first what changes the answer (scores that look inverted, constant scores, groups
pooled into one task, models on different rows), then who is best by each metric and whether the lead (or the metrics'
disagreement on the best model) is beyond noise, by the procedure that decides each metric
(:mod:`prspace.audit.inference.decision`; the same rows as the pairwise lines and the plausible-best sets).

A metric no procedure decides at the task's size and skew gets "cannot be told" (see
``prspace power``), never "within noise"; a decided lead is shown with the deciding procedure's
simultaneous interval and adjusted p-value (:func:`prspace.audit.inference.uncertainty.comparison`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prspace.audit.audit_numbers import compared, difference, fmt, p_eq, percents
from prspace.audit.inference.audit_pairwise import SHORT
from prspace.audit.inference.decision import CANNOT
from prspace.audit.inference.tables import LABELS, RANKED
from prspace.audit.inference.uncertainty import ci_text, comparison
from prspace.audit.report.findings import constant_models, inverted_models

if TYPE_CHECKING:
    from prspace.audit.audit_record import AuditRecord

#: What the headline says of a lead no procedure decides.
CANNOT_TELL = "cannot be told at this size and skew (see prspace power)"


def _one_line(text: object) -> str:
    return " ".join(str(text).splitlines())


def _decided(c: dict) -> bool:
    return "decided_by" in c and c["decided_by"] != CANNOT


def _ci(res: AuditRecord, c: dict) -> str:
    """``"+0.088, 95% simultaneous CI 0.01 to 0.17, adjusted p = 0.03, max-T"`` of a decided comparison."""
    diff = difference(c["diff"], sign=True)[0]
    s = (f"{diff}, {ci_text(c, res.confidence, 'simultaneous CI')}, adjusted p {p_eq(c['p_value'])}, "
         f"{SHORT.get(c['decided_by'], c['decided_by'])}")
    if not c["distinguishable"] and c["p_value"] < 1 - res.confidence and c["lo"] <= 0 <= c["hi"]:
        s += "; the step-down test rejects, but its simultaneous interval includes 0"
    return s


def lead(res: AuditRecord, task: str) -> str:
    """Who is best by each metric, and whether the best model's AUPR lead is beyond noise."""
    r = res.ranks[res.ranks["task"] == task].set_index("model")
    best = {m: sorted(r.index[r[m] == r[m].min()]) for m in RANKED}
    winners = {tuple(b) for b in best.values()}
    where = f"task {_one_line(task)}: " if res.pooled["task"].nunique() > 1 else ""
    if len(winners) > 1:
        picks = "; ".join(f"{LABELS[m]} {', '.join(map(_one_line, best[m]))}" for m in RANKED)
        return f"{where}the metrics pick different best models ({picks}); {picks_noise(res, task, best)}"
    (top,) = winners
    if len(r) < 2 or len(top) > 1:
        return f"{where}every metric picks {', '.join(map(_one_line, top))}."
    runner = r["aupr"].drop(list(top)).idxmin()
    c = comparison(res.comparisons, task, "aupr", top[0], runner)
    if c is None:
        why = ("the metrics alone: --metrics-only" if getattr(res, "metrics_only", False) else
               "no paired rows" if not (res.paired or {}).get(task) else "no procedure tested it")
        return f"{where}every metric picks {_one_line(top[0])}; its AUPR lead was not tested ({why})."
    head = f"{where}every metric picks {_one_line(top[0])}; "
    if not _decided(c):
        diff = difference(c["diff"], sign=True)[0]
        return f"{head}whether its AUPR lead over {_one_line(runner)} ({diff}) is beyond noise {CANNOT_TELL}."
    verdict = "distinguishable from noise" if c["distinguishable"] else "NOT distinguishable from noise"
    return f"{head}its AUPR lead over {_one_line(runner)} ({_ci(res, c)}) is {verdict}."


def picks_noise(res: AuditRecord, task: str, best: dict[str, list[str]]) -> str:
    """Whether the disagreement on the best model is beyond noise: each metric's pick against every
    other metric's pick, by the procedure that decides the metric."""
    picks = sorted({m for b in best.values() for m in b})
    beyond, within, cannot, untested = [], 0, 0, 0
    for metric in RANKED:
        for mine in best[metric]:
            for other in picks:
                if other in best[metric]:
                    continue
                c = comparison(res.comparisons, task, metric, mine, other)
                if c is None:
                    untested += 1
                elif not _decided(c):
                    cannot += 1
                elif c["distinguishable"]:
                    beyond.append(f"{LABELS[metric]} prefers {_one_line(mine)} to {_one_line(other)} "
                                  f"({_ci(res, c)})")
                else:
                    within += 1
    rest = [f"{within} other such preference(s) within noise" if within else "",
            f"{cannot} cannot be told at this size and skew" if cannot else ""]
    rest = [s for s in rest if s]
    if beyond:
        return "the disagreement is beyond noise: " + "; ".join(beyond) + (f" ({'; '.join(rest)})." if rest else ".")
    if cannot:
        return (f"whether the disagreement is beyond noise {CANNOT_TELL}: no procedure decides {cannot} of the "
                f"metrics' preferences for their pick over another metric's pick"
                + (f"; the other {within} are within noise (the deciding procedure's simultaneous "
                   f"{res.confidence:.0%} CI contains 0)." if within else "."))
    if within:
        return (f"the disagreement is within noise: no metric's preference for its pick over another metric's pick "
                f"survives the procedure that decides the metric (every simultaneous {res.confidence:.0%} CI "
                "contains 0).")
    return "whether the disagreement is beyond noise was not tested (no paired rows)."


def _who(task: str, model: str, multi: bool) -> str:
    return f"{_one_line(model)} (task {_one_line(task)})" if multi else _one_line(model)


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def answer_changers(res: AuditRecord) -> list[str]:
    """The lines that lead the headline: what makes the rest of the audit answer another question
    (:func:`prspace.audit.report.findings.inverted_models`, :func:`~prspace.audit.report.findings.constant_models`,
    a column of groups not used, the ``group-column`` finding, and the ``pooled-groups`` finding)."""
    multi = res.pooled["task"].nunique() > 1
    lines = []
    inverted = inverted_models(res.pooled, res.intervals)
    if inverted:
        n_all = len(res.pooled)
        lo, hi = compared(min(r["auroc"] for r in inverted), max(r["auroc"] for r in inverted))
        who = f"every model (AUROC {lo} to {hi})" if len(inverted) == n_all and n_all > 1 else _names(
            [f"{_who(r['task'], r['model'], multi)} (AUROC {fmt(r['auroc'])}, interval to {fmt(r['hi'])})"
             for r in inverted])
        lines.append(f"INVERTED SCORES: {who}: AUROC interval below 0.5; scores look inverted: did you pass "
                     "predict_proba[:, 0]? Pass the positive class's score; every ranking below is of the "
                     "inverted scores.")
    constant = constant_models(res.data)
    if constant:
        parts = [f"{_who(r['task'], r['model'], multi)} ("
                 + ("one score for every row" if r["n_values"] == 1 else
                    f"one score for {percents(min(r['share_pos'], r['share_neg']))[0]} or more of each class") + ")"
                 for r in constant]
        lines.append(f"CONSTANT SCORES: {_names(parts)}: ranks (almost) nothing; check the score column "
                     "(constant-scores below).")
    for name in res.group_candidates or []:
        lines.append(f"GROUPED ROWS: column {name!r} repeats its values within every model (a patient, subject or site "
                     "id?): every interval and test below resamples its rows as if independent, which can call noise a "
                     f"difference: pass --group-col {name} to resample its groups whole (or --ignore-col {name} if its "
                     "rows are independent).")
    for name, values in (res.groupings or {}).items():
        lines.append(f"POOLED: column {name!r} splits every model's rows into the same {len(values)} groups (datasets "
                         f"or sources?), audited here as one task: pass --task-col {name} to audit each apart.")
    return lines


def headline(res: AuditRecord) -> list[str]:
    """The few lines a reader must see first."""
    lines = answer_changers(res)
    for f in res.findings:
        if f.code == "different-test-rows":
            lines.append(f"NOT COMPARABLE{' (' + f.where + ')' if f.where else ''}: the models were scored on "
                         "different test rows; their rankings below say nothing reliable about the metrics.")
    n_err = sum(f.severity == "error" for f in res.findings)
    n_warn = sum(f.severity == "warning" for f in res.findings)
    if n_err or n_warn:
        lines.append(f"{n_err} error(s) and {n_warn} warning(s) below.")
    lines += [lead(res, t) for t in sorted(res.pooled["task"].unique())]
    return lines
