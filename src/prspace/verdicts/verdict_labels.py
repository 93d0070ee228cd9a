"""Plain-words labels of the verdict rows, short names of the verdicts, and the terms the pages use.

Every row label of the generated pages (``summary.md``, ``findings.md``, the report's front page,
``results/summary.md``) comes from :func:`label`; every word in them that a reader may not know is
a key of :data:`TERMS` and is defined in ``docs/glossary.md`` (a test checks both). Each row's outcome
in plain words is :func:`plain_outcome`, beginning with :func:`short_outcome` (the forest plot's label):
one vocabulary for the README, the pages, the report and the figure (issue 78).

One module of about 480 lines on purpose: every word the pages show for a row (its label, its outcome,
its cells, the terms the glossary defines) comes from here, so that they say one thing one way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.metrics.names import METRIC_LABELS
from prspace.verdicts import rule as RULE

_M = "(?:" + "|".join(sorted(METRIC_LABELS, key=len, reverse=True)) + ")"
#: A metric pair in a claim id (``aupr_auprg``, ``aupr_average_precision``, ...).
_P = f"(?P<p>{_M}_{_M})"

#: Labels of the rows by claim id pattern (``{a}``, ``{b}``: the pair's metric labels; ``{k}``: 1 or 3).
_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"fk\.{P}\.top1", "{a} and {b} pick a different best model (share of tasks)"),
    (r"fk\.{P}\.top3", "{a} and {b} pick a different top three, in order (share of tasks)"),
    (r"fk\.{P}\.spearman", "how alike {a} and {b} rank the models (mean rank correlation)"),
    (r"fk\.{P}\.spearman_q25",
     "rank correlation of {a} and {b}: the task at the lower quartile (a quarter of tasks lower)"),
    (r"fk\.{P}\.spearman_q75",
     "rank correlation of {a} and {b}: the task at the upper quartile (a quarter of tasks higher)"),
    (r"fk\.as_different\.top1", "AUPR and AUPRG differ as much as AUPR and AUROC: best model "
                                "(difference of the two shares)"),
    (r"fk\.as_different\.top3", "AUPR and AUPRG differ as much as AUPR and AUROC: top three "
                                "(difference of the two shares)"),
    (r"fk\.as_different\.spearman", "AUPR and AUPRG differ as much as AUPR and AUROC: rank correlation "
                                    "(difference of the two means)"),
    (r"boyd\.sec4_1\.averaging_optimistic",
     f"averaging AUPR over folds of different skew scores higher than pooling them by more than "
     f"{REG.DIRECTION_MARGIN:g} beyond what even folds do (share of tasks, at the widest spread of skews tested)"),
    (r"boyd\.sec4_1\.aucnpr_reduces_bias", "averaging AUCNPR instead of AUPR shrinks that gap (at the same spread)"),
    (r"boyd\.sec4_3\.aupr_rises", "AUPR rises when the test set is downsampled to 1:1"),
    (r"boyd\.sec4_3\.gap_grows_with_pi", "the rise grows as the downsampled test set gets more balanced"),
    (r"boyd\.sec4_3\.aucnpr_moves_less", "AUCNPR rises less than AUPR under downsampling"),
    (r"boyd\.sec4_3\.aucnpr_still_moves", "AUCNPR still rises under downsampling"),
    (r"boyd\.sec4_3\.aucnpr_less_variance",
     "AUCNPR varies less than AUPR over the downsampling ratios (difference of standard deviations)"),
    (r"boyd\.sec4_3\.aucnpr_more_than_twice", "AUCNPR at 1:1 is more than twice the original"),
    (r"fk\.all_different", "AUPR, AUPRG and AUROC all pick a different best model more often than test-set noise "
     "explains (each pair)"),
    (r"px\.all_different\.cd\.order", "AUPR, AUPRG and AUROC each order the learners differently across tasks (one "
     "common order per metric; this project's question)"),
    (r"fk\.def1", "precision and recall gain (Definition 1) match this code"),
    (r"fk\.thm1", "interpolating two models is a straight line in PRG space (Theorem 1) in this code"),
    (r"fk\.thm2", "the F-gain isometrics (Theorem 2) match this code"),
    (r"fk\.thm3", "expected F-gain from AUPRG (Theorem 3) matches this code"),
    (r"fk\.thm4", "the F-calibrated scores (Theorem 4) match this code"),
    (r"fk\.auprg_reference", "AUPRG equals the authors' code (pyprg) on this study's predictions"),
    (r"boyd\.thm1", "the lowest precision at each recall (Theorem 1) matches this code"),
    (r"boyd\.thm2", "the smallest possible AUPR at a given pi (Theorem 2) matches this code"),
    (r"boyd\.thm3", "the smallest possible AP at a given pi (Theorem 3) matches this code"),
    (r"boyd\.cor4", "the smallest possible area over part of the recall range (Corollary 4) matches this code"),
    (r"boyd\.table3", "Table 3's AUCNPR column follows from its AUPR column"),
    (r"boyd\.table2\.mean_row", "Table 2's mean row is the mean of its rows"),
    (r"boyd\.table2\.more_conservative", "AUCNPR is never above AUPR (mean over tasks)"),
    (r"boyd\.aucnpr_orders_as_aupr", "AUCNPR orders a task's models as AUPR does"),
    (r"px\.{P}\.top(?P<k>[13])\.distinguishable",
     "where {a} and {b} pick a different {what}: tasks whose test rows tell the two picks apart"),
    (r"px\.{P}\.top(?P<k>[13])\.cross_vs_self",
     "how much more often {a} and {b} disagree on the {what} than one metric disagrees with itself "
     "on resampled test rows"),
    (r"px\.{P}\.rank_sets\.disjoint",
     "tasks where no model could be the best by both {a} and {b} (plausible-best sets share no model)"),
    (r"px\.{P}\.cd\.order",
     "{a} and {b} order the learners differently over all tasks (a test that swaps the two metrics at "
     "random)"),
    (r"px\.{P}\.top(?P<k>[13])\.skew_trend",
     "{a} and {b} disagree more on the {what} as positives get rarer (change per tenfold fall in pi)"),
    (r"(?:px|fk)\.{P}\.top(?P<k>[13])\.at_paperlike_pi_distribution",
     "{a} and {b} pick a different {what} once each task is reweighted to the paper-like suite's class "
     "balance (share of tasks)"),
    (r"(?:px|fk)\.{P}\.top(?P<k>[13])\.at_paperlike_pi",
     "{a} and {b} pick a different {what} once every task is reweighted to the paper-like suite's median "
     "class balance (share of tasks)"),
)
_COMPILED = tuple((re.compile(p.replace("{P}", _P) + r"$"), text) for p, text in _PATTERNS)


def _split(pair: str) -> tuple[str, str]:
    for a in sorted(METRIC_LABELS, key=len, reverse=True):
        if pair.startswith(a + "_") and pair[len(a) + 1:] in METRIC_LABELS:
            return a, pair[len(a) + 1:]
    return pair, ""


def follows_note(claim_id: str) -> str:
    """``follows from Theorem 1 by arithmetic: cannot fail on data`` (and where, when not everywhere)
    for a primary claim the registry flags (``extra["follows_from"]``: the theorem its sign follows
    from), else empty: the words the pages' row label and the verdict's explanation show."""
    c = REG.BY_ID.get(claim_id)
    theorem = str(c.extra.get("follows_from", "")) if c is not None else ""
    if not theorem:
        return ""
    when = str(c.extra.get("follows_when", ""))  # type: ignore[union-attr]
    return f"follows from {theorem} by arithmetic: cannot fail on data" + (f" {when}" if when else "")


def _plain(claim_id: str, fallback: str = "") -> str:
    for pat, text in _COMPILED:
        m = pat.match(claim_id)
        if m:
            g = m.groupdict()
            a, b = _split(g["p"]) if g.get("p") else ("", "")
            what = "best model" if g.get("k", "1") == "1" else "top three"
            return text.format(a=METRIC_LABELS.get(a, a.upper()), b=METRIC_LABELS.get(b, b.upper()), what=what)
    return fallback or claim_id


def label(claim_id: str, fallback: str = "") -> str:
    """The plain-words label of a row (the row's own claim text when no pattern knows the id), with
    :func:`follows_note` in brackets for a row that follows by arithmetic."""
    note = follows_note(claim_id)
    return _plain(claim_id, fallback) + (f" ({note})" if note else "")


_SHORT = {"top1": "best model", "top3": "top three", "spearman": "rank correlation",
          "spearman_q25": "lower quartile of the rank correlation", "spearman_q75": "upper quartile of the rank correlation"}


def short_name(claim_id: str) -> str:
    """A few plain words naming a primary claim inside a sentence (``AUPR-AUROC best model``)."""
    parts = claim_id.split(".")
    if len(parts) == 3 and parts[0] == "fk" and parts[1] == "as_different":
        return f"as different: {_SHORT.get(parts[2], parts[2])}"
    if len(parts) == 3 and parts[0] == "fk":
        a, b = _split(parts[1])
        return f"{METRIC_LABELS.get(a, a)}-{METRIC_LABELS.get(b, b)} {_SHORT.get(parts[2], parts[2])}"
    return _plain(claim_id)


#: The rule's verdict words, longest first where one begins another (prefix match: ``cannot be told: 4
#: families`` is ``cannot be told``); the pages say them plainly (:func:`plain_outcome`).
VERDICT_WORDS: tuple[str, ...] = (
    "equivalent: replicates", "equivalent: as different, holds", "equivalent: no effect", "equivalent",
    "different, beyond the margin: holds", "different, beyond the margin: contradicted", "different, beyond the margin",
    "different, by less than the margin", "different: higher", "different: lower", "different: holds",
    "different: contradicted", "different", "inconclusive: leans higher", "inconclusive: leans lower",
    "inconclusive: leans the claimed way", "inconclusive", "differs beyond noise", "differs", "borderline",
    "does not hold", "holds", "contradicted", "beyond noise", "mostly within noise", "within noise", "exact", "larger",
    "smaller", "cannot be told",
)


def verdict_key(verdict: str) -> str:
    """The verdict's word (one of :data:`VERDICT_WORDS`): ``differs: higher here`` -> ``differs: higher``."""
    v = str(verdict).strip()
    return next((key for key in VERDICT_WORDS if v.startswith(key)), v)


def num(v: object, d: int = 2) -> str:
    """A number for the pages: ``d`` decimals, or 2 significant digits below ``10**-d``; "" for NaN."""
    try:
        x = float(v)
    except (TypeError, ValueError):
        return ""
    if not np.isfinite(x):
        return ""
    return f"{x:.{d}f}" if abs(x) >= 10 ** -d or x == 0 else f"{x:.2g}"


def value_cell(r: Mapping[str, object], d: int | None = None) -> str:
    """This run's cell of a verdict row: estimate [interval] (``k of n`` for a count, ``p = `` for a test)."""
    est, lo, hi = (float(r[c]) for c in ("estimate", "ci_lo", "ci_hi"))
    kind = str(r["kind"])
    if kind == "bound":
        ci = f" [{num(lo)}, {num(hi)}]" if np.isfinite(lo) and np.isfinite(hi) else ""
        return f"{int(r['k'])} of {int(r['n'])}{ci}"
    if kind == "test":
        return f"p = {num(est, 3)}" if np.isfinite(est) else "not tested"
    if kind == "exact":
        return f"largest deviation {num(est, 6) if est else '0'}"
    if d is None:
        d = 3 if kind in ("correlation", "quartile", "direction", "stable", "difference", "equivalence") else 2
    if not (np.isnan(lo) or np.isnan(hi)):
        # an unbounded end: no nominal level reaches the interval's coverage by counting (cluster_bootstrap)
        ends = [("-inf" if x < 0 else "inf") if np.isinf(x) else num(x, d) for x in (lo, hi)]
        return f"{num(est, d)} [{ends[0]}, {ends[1]}]"
    return num(est, d)


def paper_cell(r: Mapping[str, object]) -> str:
    """The paper's cell: only what the registry quotes (a number the paper prints, else its words)."""
    c = REG.claim(str(r["claim_id"]))
    if c is None or str(r.get("paper", "")) == "prspace":
        return ""
    if c.quantity in ("share", "correlation", "quartile"):
        return num(c.paper_value, c.decimals)
    if c.quantity in ("share_gap", "correlation_gap"):
        return '0 ("as different")'
    return "no number" if c.quantity in ("direction", "test") else ""


def mc_cell(v: object) -> str:
    """A Monte Carlo error: four decimals, ``< 0.0001`` below that, "" when none was recorded."""
    x = float(v) if v is not None else float("nan")
    if not np.isfinite(x):
        return ""
    return "< 0.0001" if 0 < x < 5e-5 else f"{x:.4f}"


def cell(text: object) -> str:
    """A table cell: no pipe, no line break."""
    return str(text).replace("|", "/").replace("\n", " ")


def level_text(rows: pd.DataFrame) -> str:
    """The intervals' coverage as a percentage (the rows' ``level``; 95% when none is recorded)."""
    lv = sorted({round(float(x), 6) for x in rows["level"] if np.isfinite(x)}) if "level" in rows else []
    return " / ".join(f"{100 * x:g}%" for x in lv) if lv else f"{100 * RULE.LEVEL:g}%"


#: Terms the pages use that a reader may not know: term -> pattern that finds it in a page. Each
#: is defined in ``docs/glossary.md`` under a heading of the same name.
TERMS: dict[str, str] = {
    "AUPR": r"\bAUPR\b", "AUPRG": r"\bAUPRG\b", "AUROC": r"\bAUROC\b", "AUCNPR": r"\bAUCNPR\b",
    "AP": r"\bAP\b", "pi": r"\bpi\b", "family of tasks": r"\bfamil(?:y|ies)\b", "task": r"\btasks?\b",
    "learner": r"\blearners?\b", "model": r"\bmodels?\b", "fold": r"\bfolds?\b", "skew": r"\bskew\b",
    "top-1 disagreement": r"best model", "top-3 disagreement": r"top three",
    "rank correlation": r"rank correlation", "quartile": r"quartile",
    "test rows": r"test rows", "resampled test rows": r"resampled", "plausible-best set": r"plausible-best",
    "interval": r"\binterval", "simultaneous interval": r"simultaneous", "Holm": r"\bHolm\b", "margin": r"\bmargin",
    "Monte Carlo error": r"Monte Carlo|\bMC error", "power": r"\bpower\b", "borderline": r"borderline",
    "equivalence": r"equivalen|as different as|differ as much as", "calibrated power": r"calibrated",
    "downsampling": r"downsampl", "pooling the folds": r"pool", "reweighting": r"reweight",
    "paper-like suite": r"paper-like", "saturated task": r"saturated", "balance level": r"balance level",
    "one model per learner method": r"one model per learner method", "swap test": r"swaps the two metrics",
    "implementation check": r"implementation check", "exploratory row": r"this project's analyses",
    "primary claim": r"primary", "sensitivity variant": r"variant",
}

#: Verdict words each page may show; each is defined in ``docs/glossary.md`` under "Verdicts".
VERDICT_TERMS = VERDICT_WORDS


# The outcome of a verdict row in words a reader knows without the glossary (issue 78): Lakens, Scheel &
# Isager's outcomes stay as the rule decides them (column ``outcome``); these only say them plainly, one
# vocabulary for the README, the pages, the report and the forest plot.
#: The short labels, in the order a legend lists them.
SHORT_LABELS: tuple[str, ...] = ("replicates", "holds", "differs beyond margin", "differs", "does not hold",
                                 "undecided", "too close to call", "check")


def _against(row: Mapping[str, object]) -> bool:
    """A decided direction row that went the other way (``different: contradicted``, ``... against the claim``)."""
    v = str(row.get("verdict", ""))
    return "against the claim" in v or "contradicted" in v


def by_construction(row: Mapping[str, object]) -> bool:
    """Whether a row follows from Boyd's Theorem 1 by arithmetic (column ``by_construction`` of
    ``verdicts.csv``, when the table has it): shown as an implementation check, apart from the
    replicated findings, in every tally and table."""
    v = row.get("by_construction", False)
    if isinstance(v, str):
        return v.strip().lower() in ("true", "1", "yes")
    try:
        return bool(v) and v == v
    except (TypeError, ValueError):
        return False


def short_outcome(row: Mapping[str, object]) -> str:
    """The short plain-words label of one verdict row (the first words of :func:`plain_outcome`, which says
    "beyond the margin" of ``differs beyond margin`` at its end).

    Parameters
    ----------
    row : mapping
        A row of ``verdicts.csv`` (``outcome``, ``kind``, ``verdict`` and, when present,
        ``by_construction`` are read).

    Returns
    -------
    str
        One of :data:`SHORT_LABELS`.

    Examples
    --------
    >>> short_outcome({"outcome": "equivalent", "kind": "share", "verdict": "equivalent: replicates"})
    'replicates'
    >>> short_outcome({"outcome": "different", "kind": "direction", "verdict": "different: holds"})
    'holds'
    >>> short_outcome({"outcome": "borderline", "kind": "share", "verdict": "borderline"})
    'too close to call'
    >>> short_outcome({"outcome": "different", "kind": "direction", "verdict": "different: holds",
    ...                "by_construction": True})
    'check'
    >>> short_outcome({"outcome": "inconclusive", "kind": "direction", "verdict": "inconclusive",
    ...                "by_construction": True})
    'undecided'
    """
    outcome = str(row.get("outcome", "") or "")
    outcome = "" if outcome == "nan" else outcome
    direction = str(row.get("kind", "")) == "direction"
    if by_construction(row) and outcome.startswith("different") and not _against(row):
        return "check"  # a check by arithmetic that holds; one that fails is said as any row
    if outcome == "borderline":
        return "too close to call"
    if outcome == "equivalent":
        return "does not hold" if direction else "replicates"
    if outcome.startswith("different"):
        if direction:
            return "does not hold" if _against(row) else "holds"
        return "differs beyond margin" if "beyond" in outcome else "differs"
    return "undecided"


def _f(row: Mapping[str, object], col: str) -> float:
    try:
        return float(row.get(col, np.nan))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return float("nan")


def about(n: float) -> str:
    """A count rounded to two significant digits for a sentence (``1,476`` -> ``1,500``).

    >>> about(1476), about(222), about(53)
    ('1,500', '220', '53')
    """
    k = int(round(n))
    digits = len(str(abs(k)))
    return f"{int(round(k, -(digits - 2))) if digits > 2 else k:,}"


def reference(row: Mapping[str, object]) -> float:
    """The value a row's interval is read against: the paper's number for a share, correlation or
    quartile; 0 for a difference ("as different") or a direction claim."""
    kind = str(row.get("kind", ""))
    return _f(row, "paper_value") if kind in ("share", "correlation", "quartile") else 0.0


def _ci95(row: Mapping[str, object]) -> tuple[float, float]:
    lo, hi = _f(row, "ci95_lo"), _f(row, "ci95_hi")
    return (lo, hi) if np.isfinite(lo) and np.isfinite(hi) else (_f(row, "ci_lo"), _f(row, "ci_hi"))


def excluded_not_decided(row: Mapping[str, object]) -> bool:
    """An undecided row whose own 95% interval excludes the value it is read against (Holm's
    correction over the paper's claims is what leaves it undecided)."""
    if short_outcome(row) != "undecided" or not np.isfinite(_f(row, "p_holm")):
        return False
    lo, hi = _ci95(row)
    ref = reference(row)
    return bool(np.isfinite(lo) and np.isfinite(ref) and (lo > ref or hi < ref))


def _side(row: Mapping[str, object]) -> str:
    """Where the estimate lies: ``higher than the paper's``, or for a difference the verdict's own words."""
    kind = str(row.get("kind", ""))
    verdict = str(row.get("verdict", ""))
    if kind in ("share", "correlation", "quartile"):
        est, ref = _f(row, "estimate"), reference(row)
        return "higher than the paper's" if est > ref else "lower than the paper's"
    return verdict.split(": ", 1)[1] if ": " in verdict else ""


def plain_outcome(row: Mapping[str, object]) -> str:
    """The outcome of a verdict row in words a reader knows without the glossary (issue 78).

    Lakens, Scheel & Isager's outcome (column ``outcome``) stays as the rule decided it; this only says
    it plainly, beginning with :func:`short_outcome`: ``replicates: within ±0.05 of the paper's``,
    ``differs: lower than the paper's, beyond the margin (±0.02)``, ``undecided: about 1,500 task
    families would decide``, ``too close to call: ...`` (the Monte Carlo borderline). An undecided
    row whose own 95% interval excludes the paper's value says so in one clause. A row of this
    project's own analyses (no outcome) keeps its verdict, its coded words said plainly.

    Parameters
    ----------
    row : mapping
        A row of ``verdicts.csv``.

    Returns
    -------
    str
        The phrase (no interval: the table's cell holds it).

    Examples
    --------
    >>> plain_outcome({"outcome": "equivalent", "kind": "share", "verdict": "equivalent: replicates",
    ...                "margin": 0.05})
    "replicates: within ±0.05 of the paper's"
    >>> plain_outcome({"outcome": "inconclusive", "kind": "share", "verdict": "inconclusive: leans lower here",
    ...                "families_80": 1476, "p_holm": 1.0, "ci95_lo": 0.15, "ci95_hi": 0.32, "paper_value": 0.24})
    'undecided: about 1,500 task families would decide'
    """
    short = short_outcome(row)
    outcome = str(row.get("outcome", "") or "")
    if short == "check":
        ok = outcome.startswith("different") and not _against(row)
        return "check: holds, as arithmetic says it must" if ok else "check: does not hold (see findings.md)"
    if short == "too close to call":
        return "too close to call: a p-value within two Monte Carlo errors of its threshold"
    if short != "undecided":
        return _decided(row, short, outcome)
    if not outcome or outcome == "nan":
        return _plain_verdict(row)
    return _not_decided(row)


def _decided(row: Mapping[str, object], short: str, outcome: str) -> str:
    """:func:`plain_outcome` of a decided row: replicates, differs, holds or does not hold."""
    m = _f(row, "margin")
    band = f"±{m:g}" if np.isfinite(m) else "the margin"
    if short == "replicates":
        return (f"replicates: within {band} of the paper's" if str(row.get("kind")) != "equivalence"
                else f"replicates: as different, within {band}")
    if short == "holds":
        return "holds" + (f": beyond the margin ({band})" if "beyond" in outcome else "")
    if short == "does not hold":
        return "does not hold: " + ("no effect beyond " + band if outcome == "equivalent" else "the other way")
    side = _side(row)
    if "by less than" in outcome:
        return f"differs, by less than the margin ({band}): {side}".rstrip(": ")
    return f"differs: {side}" + (f", beyond the margin ({band})" if short == "differs beyond margin" else "")


def _not_decided(row: Mapping[str, object]) -> str:
    """:func:`plain_outcome` of an undecided row: the task families that would decide it, and the clause
    for an own 95% interval that excludes the paper's value (Holm leaves it undecided)."""
    out = "undecided"
    n = _f(row, "families_80")
    if np.isfinite(n):
        out += f": about {about(n)} task families would decide"
    if excluded_not_decided(row):
        ref = "the paper's value" if str(row.get("kind")) in ("share", "correlation", "quartile") else "0"
        out += f"; its own 95% interval excludes {ref}, but not after Holm's correction over the paper's claims"
    return out


#: Coded words of the rule said plainly (a row with no outcome: this project's analyses).
_CODED = (("cannot be told", "undecided"), ("borderline", "too close to call"), ("leans", "tilts"))


def _plain_verdict(row: Mapping[str, object]) -> str:
    """A verdict without one of Lakens' outcomes, its coded words replaced (``cannot be told`` ->
    ``undecided``); a share that is the same in every resample says so."""
    v = str(row.get("verdict", ""))
    lo, hi = _f(row, "ci_lo"), _f(row, "ci_hi")
    if v.startswith("cannot be told") and np.isfinite(lo) and lo == hi:
        return f"undecided: {num(_f(row, 'estimate'), 2)} in every resample, nothing to test"
    for coded, plain in _CODED:
        v = v.replace(coded, plain)
    return v


#: A few words naming each primary claim in the one table of the README (claim id -> words), under its
#: group's title row (:data:`prspace.verdicts.sentences.TABLE_GROUPS`) where it has one (a group of one claim: its title is the claim's name).
TABLE_NAMES: dict[str, str] = {
    **{f"fk.{g}.{k}": w for g in ("aupr_auprg", "aupr_auroc", "auprg_auroc", "as_different")
       for k, w in (("top1", "top-1"), ("top3", "top-3"), ("spearman", "Spearman"))},
    "fk.aupr_auprg.spearman_q25": "lower-quartile Spearman",
    "fk.aupr_auprg.spearman_q75": "upper-quartile Spearman",
    "fk.all_different": "all pairs differ",
    "boyd.sec4_1.averaging_optimistic": "folds optimistic",
    "boyd.sec4_1.aucnpr_reduces_bias": "AUCNPR shrinks fold gap",
    "boyd.sec4_3.aupr_rises": "AUPR rises",
    "boyd.sec4_3.gap_grows_with_pi": "rise grows",
    "boyd.sec4_3.aucnpr_moves_less": "AUCNPR rises less",
    "boyd.sec4_3.aucnpr_less_variance": "AUCNPR varies less",
    "boyd.sec4_3.aucnpr_still_moves": "AUCNPR still rises",
    "boyd.sec4_3.aucnpr_more_than_twice": "AUCNPR doubles",
}


def table_name(claim_id: str) -> str:
    """Two to four words naming a primary claim in the README's table under its group's title row
    (:data:`TABLE_NAMES`, else :func:`short_name`): ``top-1`` under ``AUPR–AUPRG``; Boyd et al.'s
    downsampling rows (section 4.3) without their section, the table's paper row names it.

    Examples
    --------
    >>> table_name("fk.aupr_auprg.top1")
    'top-1'
    >>> table_name("boyd.sec4_3.aucnpr_moves_less")
    'AUCNPR rises less'
    """
    return TABLE_NAMES.get(claim_id) or short_name(claim_id)
