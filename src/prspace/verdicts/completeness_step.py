"""Completeness of the replication: the claims the verdict table tests that no other table states,
and the claims it does not test, with why.

* :func:`all_different_row`: this project's own question whether each metric pair orders the
  learners differently across tasks, one common order per metric (``px.all_different.cd.order``,
  exploratory) from the learner-order tests of ``cd_metric_pairs.csv``: an intersection-union test
  (Berger 1982) over the three pairs, whose p-value is the largest of the three (its size is at most
  the pairs' alpha, no correction needed). Flach & Kull, who drew different models on every task,
  had no common order; their "all significantly different" (``fk.all_different``, primary) is
  decided with their other primary claims from each pair's per-task disagreement beyond test-set
  noise (:mod:`prspace.verdicts.primary`).
* :func:`fk_theory_rows`: Flach & Kull's Definition 1 and Theorems 1-4 written out again from the
  paper and checked against :mod:`prspace.metrics` (kind ``exact``, as Boyd's theorem rows of
  :mod:`prspace.experiments.boyd.boyd_evidence`); :func:`auprg_reference_row`: AUPRG against the authors'
  own code (PyPI ``pyprg``) on the study's pooled predictions.
* :func:`not_tested_table`: every checkable claim of both papers that has no row, where it stands,
  the paper's words and why it is not tested (the table ``claims_not_tested``).

Step ``completeness`` (:func:`completeness_step`) writes ``fk_evidence`` (an evidence table that
rule ``verdicts`` reads, :data:`prspace.core.registry.EVIDENCE_ROWS`) and ``claims_not_tested``.

One module of about 470 lines on purpose: every claim of the papers that this project does not
test, and the rows that complete Flach & Kull's (their implementation checks and "all significantly
different"), read in one place against the papers.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypedDict

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.core import registry as R
from prspace.core.claims import BOYD, FK, claim
from prspace.core.contracts import ok_predictions
from prspace.core.evidence import evidence_frame, evidence_row
from prspace.core.steps import StepOutput, TableOut

#: Flach & Kull's three metric pairs, in their order.
FK_PAIRS = (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"))
_LABEL = {"aupr": "AUPR", "auprg": "AUPRG", "auroc": "AUROC"}
#: Tolerance of a closed-form check (float64 arithmetic on sums of up to a few thousand terms).
EXACT_TOL = 1e-9
#: Random contingency tables / rankings per theorem check.
N_TABLES = 2_000
RANKING_SIZES: tuple[tuple[int, int], ...] = tuple((p, n) for p in (3, 10, 50, 200) for n in (7, 40, 400, 2000))


# --- fk.all_different ----------------------------------------------------------------------------


def _pair_row(pairs: pd.DataFrame, a: str, b: str) -> pd.Series | None:
    hit = pairs[((pairs["metric_a"] == a) & (pairs["metric_b"] == b)) | ((pairs["metric_a"] == b) & (pairs["metric_b"] == a))]
    return None if hit.empty else hit.iloc[0]


def _num(r: pd.Series, col: str) -> float:
    v = r.get(col, np.nan)
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


#: The exploratory row of :func:`all_different_row`.
COMMON_ORDER_ID = "px.all_different.cd.order"


def _p_mc_error(r: pd.Series, p: float, n: float) -> float:
    """The Monte Carlo SE of a sign-flip p-value from ``n`` random flips (0 when it was exact)."""
    exact = str(r.get("exact", False)).lower() in ("true", "1")
    return 0.0 if exact else (float(np.sqrt(p * (1 - p) / n)) if n > 0 and np.isfinite(p) else float("nan"))


def _noise_text(noise: pd.DataFrame | None) -> str:
    """The sentence naming the noise rows of the three pairs beside the test, or "" without them."""
    noise_txt = ""
    if noise is not None and len(noise):
        nz = noise.set_index("claim_id")
        bits = []
        for a, b in FK_PAIRS:
            cid = f"px.{a}_{b}.top1.cross_vs_self"
            if cid in nz.index:
                x = nz.loc[cid]
                bits.append(f"{_LABEL[a]}-{_LABEL[b]} {float(x['estimate']):.3f} [{float(x['ci_lo']):.3f}, "
                            f"{float(x['ci_hi']):.3f}]")
        if bits:
            noise_txt = (" Beside it, the noise rows: cross- minus self-disagreement on the best model (share of tasks, "
                         "95% interval; above 0: the metrics disagree more than each disagrees with itself on "
                         "resampled test rows): " + "; ".join(bits) + ".")
    return noise_txt


def all_different_row(pairs: pd.DataFrame, noise: pd.DataFrame | None = None) -> dict[str, object]:
    """The evidence row of ``px.all_different.cd.order`` (kind ``test``): ``estimate`` = the largest of the
    three pairs' sign-flip p-values (an intersection-union test: all three pairs differ at level
    alpha iff it is below alpha), ``tolerance`` = alpha, ``power`` = the smallest calibrated power,
    ``mc_error`` = the Monte Carlo SE of the largest p-value; NaN p when a pair was not tested."""
    found = [(a, b, _pair_row(pairs, a, b)) for a, b in FK_PAIRS]
    missing = [f"{_LABEL[a]}-{_LABEL[b]}" for a, b, r in found if r is None or not np.isfinite(_num(r, "p_value"))]
    parts, ps, powers, mcs, alphas, falses, n_tasks = [], [], [], [], [], [], float("nan")
    for a, b, r in found:
        if r is None:
            continue
        p, n = _num(r, "p_value"), _num(r, "n_perm")
        mc = _p_mc_error(r, p, n)
        ps.append(p)
        mcs.append(mc)
        powers.append(_num(r, "power_planted_reversal"))
        alphas.append(_num(r, "alpha"))
        falses.append(_num(r, "false_rate"))
        n_tasks = _num(r, "n_tasks")
        parts.append(f"{_LABEL[a]}-{_LABEL[b]} p = {p:.4f}")
    if missing or not ps:
        p_max, mc_max = float("nan"), float("nan")
        lead = f"no p-value for {', '.join(missing) or 'any pair'} in cd_metric_pairs.csv: the test could not be made. "
    else:
        i = int(np.nanargmax(ps))
        p_max, mc_max = float(ps[i]), float(mcs[i])
        lead = ""
    alpha = float(np.nanmax(alphas)) if alphas and np.isfinite(alphas).any() else float("nan")
    power = float(np.nanmin(powers)) if powers and np.isfinite(powers).any() else float("nan")
    noise_txt = _noise_text(noise)
    detail = (lead + "Intersection-union test over Flach & Kull's three pairs of the learner-order test of "
              "cd_metric_pairs.csv (does the pair order the learners differently across tasks, sign flips over "
              f"families, calibrated): {'; '.join(parts)}; p of the claim = the largest"
              + (f", power = the smallest calibrated power {power:.2f}" if np.isfinite(power) else "")
              + (f"; its false rate is at most the largest pair's calibrated false rate {np.nanmax(falses):.3f} "
                 "(an intersection-union test needs no multiplicity correction)"
                 if falses and np.isfinite(falses).any() else "")
              + ". This project's own question (one learner order per metric shared by every task), not Flach & "
              "Kull's claim, which fk.all_different tests on each task's disagreement beyond noise." + noise_txt)
    return evidence_row(paper="prspace", claim_id=COMMON_ORDER_ID,
                        claim="AUPR, AUPRG and AUROC each order the learners differently across tasks (one common "
                              "order per metric)", kind="test", estimate=p_max,
                        tolerance=alpha, n_tasks=n_tasks, power=power, mc_error=mc_max, detail=detail)


# --- Flach & Kull's theorems, written out from the paper -------------------------------------------


def gains_closed_form(tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Definition 1: precG = (prec - pi) / ((1 - pi) prec), recG = (rec - pi) / ((1 - pi) rec)."""
    pi = (tp + fn) / (tp + fn + fp + tn)
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    return (prec - pi) / ((1 - pi) * prec), (rec - pi) / ((1 - pi) * rec)


def f_beta(prec: np.ndarray, rec: np.ndarray, b2: float | np.ndarray) -> np.ndarray:
    """F_beta = (1 + beta^2) p r / (beta^2 p + r) (Boyd sec. 4.4; Flach & Kull sec. 2.1)."""
    return (1 + b2) * prec * rec / (b2 * prec + rec)


def _tables(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    tp = rng.integers(1, 300, n).astype(np.float64)
    fn = rng.integers(0, 300, n).astype(np.float64)
    fp = rng.integers(0, 3000, n).astype(np.float64)
    tn = rng.integers(1, 3000, n).astype(np.float64)
    return tp, fn, fp, tn


def _rankings(seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Label and score vectors at every size of :data:`RANKING_SIZES` (scores with signal, some ties)."""
    rng = np.random.default_rng([seed, 40])
    for pos, neg in RANKING_SIZES:
        y = np.r_[np.ones(pos, bool), np.zeros(neg, bool)]
        for shift in (0.0, 0.5, 1.5):
            s = np.round(rng.normal(size=y.size) + shift * y, 2)
            yield y, s


def _theorem3_by_integration(y: np.ndarray, s: np.ndarray) -> float:
    """E[FG1] with Delta = recG / pi - precG / (1 - pi) uniform, integrated along the PRG curve of
    :func:`prspace.metrics.prg_curve` from its point at recall gain 0 to (1, 0): FG1 = (precG + recG) / 2
    (Theorem 2 at beta = 1) is linear on each straight segment, so each segment contributes its
    Delta-length times the mean of its end points' FG1."""
    pi = float(y.mean())
    c = M.prg_curve(y, s)
    keep = c.recall_gain >= 0
    rg, pg = c.recall_gain[keep], c.precision_gain[keep]
    delta = rg / pi - pg / (1 - pi)
    fg1 = (pg + rg) / 2
    return float(np.sum(np.diff(delta) * (fg1[1:] + fg1[:-1]) / 2) / (delta[-1] - delta[0]))


def fk_theory_rows(seed: int = 0) -> list[dict[str, object]]:
    """Definition 1 and Theorems 1-4 of Flach & Kull against :mod:`prspace.metrics` (kind ``exact``,
    ``estimate`` = the largest deviation, tolerance :data:`EXACT_TOL`)."""
    rng = np.random.default_rng([seed, 41])
    tp, fn, fp, tn = _tables(rng, N_TABLES)
    # Definition 1, and the always-positive classifier at (1, 0) at every skew
    pg_c, rg_c = gains_closed_form(tp, fn, fp, tn)
    dev_d1 = max(float(np.max(np.abs(M.precision_gain(tp, fn, fp, tn) - pg_c))),
                 float(np.max(np.abs(M.recall_gain(tp, fn, fp, tn) - rg_c))))
    pos, neg = tp + fn, fp + tn
    z = np.zeros_like(pos)
    dev_d1 = max(dev_d1, float(np.max(np.abs(M.recall_gain(pos, z, neg, z) - 1.0))),
                 float(np.max(np.abs(M.precision_gain(pos, z, neg, z)))))
    # Theorem 1: two tables on the same data (same pos, neg), interpolated with lambda
    tp2 = np.minimum(rng.integers(1, 300, N_TABLES).astype(np.float64), pos)
    fp2 = np.minimum(rng.integers(0, 3000, N_TABLES).astype(np.float64), neg)
    fn2, tn2 = pos - tp2, neg - fp2
    lam = rng.random(N_TABLES)
    ts = [lam * a + (1 - lam) * b for a, b in ((tp, tp2), (fn, fn2), (fp, fp2), (tn, tn2))]
    mu = lam * tp / (lam * tp + (1 - lam) * tp2)
    dev_t1 = 0.0
    for g in (M.precision_gain, M.recall_gain):
        star = g(*ts)
        dev_t1 = max(dev_t1, float(np.max(np.abs(star - (mu * g(tp, fn, fp, tn) + (1 - mu) * g(tp2, fn2, fp2, tn2))))))
    # Theorem 2 at several beta, and FG_beta = (F_beta - pi) / ((1 - pi) F_beta)
    dev_t2 = 0.0
    pi = pos / (pos + neg)
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    for beta in (0.5, 1.0, 2.0):
        b2 = beta * beta
        fg = M.fg_score(tp, fn, fp, tn, beta=beta)
        lhs = M.precision_gain(tp, fn, fp, tn) + b2 * M.recall_gain(tp, fn, fp, tn)
        fb = f_beta(prec, rec, b2)
        dev_t2 = max(dev_t2, float(np.max(np.abs(lhs - (1 + b2) * fg))),
                     float(np.max(np.abs(fg - (fb - pi) / ((1 - pi) * fb)))))
    # Theorems 3 and 4 on rankings
    dev_t3 = dev_t4 = 0.0
    n3 = n4 = 0
    for y, s in _rankings(seed):
        try:
            closed = M.expected_fg1(y, s)
        except ValueError:  # Delta's range is empty (Theorem 3 does not apply)
            closed = float("nan")
        if np.isfinite(closed):
            dev_t3 = max(dev_t3, abs(closed - _theorem3_by_integration(y, s)))
            n3 += 1
        h = M.prg_convex_hull(y, s)
        if h.recall_gain.size >= 2:
            p_ = float(y.mean())
            pr = p_ / (1 - (1 - p_) * h.precision_gain)  # invert Definition 1
            rc = p_ / (1 - (1 - p_) * h.recall_gain)
            a, b = 1 / rc[:-1] - 1 / rc[1:], 1 / pr[:-1] - 1 / pr[1:]
            ok = np.abs(a) > 1e-12
            d = a[ok] / (a[ok] - b[ok])
            b2 = -b[ok] / a[ok]
            dev_t4 = max(dev_t4, float(np.max(np.abs(h.f_calibrated[ok] - d), initial=0.0)))
            with np.errstate(invalid="ignore", divide="ignore"):
                fb1, fb2 = f_beta(pr[:-1][ok], rc[:-1][ok], b2), f_beta(pr[1:][ok], rc[1:][ok], b2)
            fin = np.isfinite(fb1) & np.isfinite(fb2) & (b2 > 0)
            dev_t4 = max(dev_t4, float(np.max(np.abs(fb1[fin] - fb2[fin]), initial=0.0)))
            n4 += int(ok.sum())
    tables = f"{N_TABLES} random contingency tables (tp 1-299, fn 0-299, fp 0-2999, tn 1-2999)"
    ranks = f"{n3} rankings of {len(RANKING_SIZES)} sizes (3-200 positives, 7-2000 negatives, three signal strengths)"

    def row(cid: str, est: float, detail: str) -> dict[str, object]:
        c = claim(cid)
        assert c is not None
        return evidence_row(paper=FK, claim_id=cid, claim=f"{c.where}: {c.quote}", kind="exact", estimate=est,
                            tolerance=EXACT_TOL, detail=detail)

    return [
        row("fk.def1", dev_d1, f"{tables} and the always-positive table at each of their skews: largest deviation of "
            "prspace.metrics.precision_gain / recall_gain from (x - pi) / ((1 - pi) x), and of the always-positive "
            "classifier from (recG, precG) = (1, 0)"),
        row("fk.thm1", dev_t1, f"{tables} paired with a second table on the same data, lambda uniform on [0, 1]: largest "
            "deviation of the gains of lambda C1 + (1 - lambda) C2 from mu precG1 + (1 - mu) precG2 (and recall gain)"),
        row("fk.thm2", dev_t2, f"{tables}, beta 0.5, 1, 2: largest deviation of precG + beta^2 recG from (1 + beta^2) "
            "prspace.metrics.fg_score, and of fg_score from (F_beta - pi) / ((1 - pi) F_beta)"),
        row("fk.thm3", dev_t3, f"{ranks}: largest deviation of prspace.metrics.expected_fg1 (the closed form of equation "
            "(5)) from the mean FG1 over Delta uniform, integrated segment by segment along prspace.metrics.prg_curve"),
        row("fk.thm4", dev_t4, f"{n4} segments of the PRG convex hulls (prspace.metrics.prg_convex_hull) of the same "
            "rankings: largest deviation of f_calibrated from d = (1/rec1 - 1/rec2) / ((1/rec1 - 1/rec2) - (1/prec1 - "
            "1/prec2)) of the segment's end points (gains inverted through Definition 1), and of the two end points' "
            "F_beta at Theorem 4's beta^2"),
    ]


# --- AUPRG against the authors' code ---------------------------------------------------------------


@contextlib.contextmanager
def _reference_code() -> Iterator[object | None]:
    """The module ``prg.prg`` of PyPI ``pyprg`` (None when it is not installed), with ``numpy.alen``
    (removed in numpy 1.23, which it calls) present while in use and removed after."""
    added = not hasattr(np, "alen")
    if added:
        def _alen(a: object) -> int:
            try:
                return len(a)  # type: ignore[arg-type]
            except TypeError:
                return len(np.array(a, ndmin=1))
        np.alen = _alen  # type: ignore[attr-defined]
    try:
        try:
            from prg import prg  # type: ignore[import-not-found]
        except ImportError:
            prg = None
        yield prg
    finally:
        if added:
            del np.alen  # type: ignore[attr-defined]


def auprg_reference_deviations(predictions: Iterable[pd.DataFrame]) -> tuple[float, int, int, int]:
    """(largest |prspace AUPRG - pyprg AUPRG|, models compared, models the reference code failed
    on, tasks) over the pooled predictions of every model of every frame (one frame per task;
    columns ``model_id``, ``y_true``, ``score``; read one at a time); NaN deviation without ``pyprg``."""
    with _reference_code() as prg:
        if prg is None:
            return float("nan"), 0, 0, sum(1 for _ in predictions)
        dev, n, failed, tasks = 0.0, 0, 0, 0
        for df in predictions:
            tasks += 1
            for _, g in df.groupby("model_id", sort=True):
                y = g["y_true"].to_numpy(bool)
                s = g["score"].to_numpy(np.float64)
                if y.all() or not y.any():
                    continue
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        ref = float(prg.calc_auprg(prg.create_prg_curve(y.astype(int), s)))
                except Exception:  # the reference code fails on some rankings (meeliskull/prg #6)
                    failed += 1
                    continue
                dev = max(dev, abs(M.auprg(y, s) - ref))
                n += 1
    return dev, n, failed, tasks


def auprg_reference_row(predictions: Iterable[pd.DataFrame]) -> dict[str, object]:
    """The ``fk.auprg_reference`` row (kind ``exact``)."""
    dev, n, failed, tasks = auprg_reference_deviations(predictions)
    c = claim("fk.auprg_reference")
    assert c is not None
    if not np.isfinite(dev):
        detail = "pyprg (the authors' Python code) is not installed: pip install 'prspace[test]' and rerun the step"
    elif n == 0:
        dev, detail = float("nan"), f"no model with both classes in the predictions of {tasks} task(s)"
    else:
        detail = (f"{n} models of {tasks} tasks, predictions pooled over folds: largest |prspace.metrics.auprg - "
                  "pyprg calc_auprg(create_prg_curve)|"
                  + (f"; the reference code raised on {failed} model(s) (meeliskull/prg #6) and they are left out"
                     if failed else ""))
    return evidence_row(paper=FK, claim_id=c.claim_id, claim=f"{c.where}: AUPRG equals the authors' code (pyprg)",
                        kind="exact", estimate=dev, tolerance=EXACT_TOL, n_tasks=float(tasks), detail=detail)


# --- the claims not tested -------------------------------------------------------------------------

NOT_TESTED_COLUMNS = ["paper", "where", "quote", "why_not_tested", "related_rows"]


def _not_tested() -> list[tuple[str, str, str, str, str]]:
    """(paper, where, quote, why, related rows); numbers in ``why`` are computed here, not typed."""
    m01, m05, m10 = (float(M.aupr_min(p)) for p in (0.01, 0.5, 0.1))
    m005 = float(M.aupr_min(0.05))
    fk_models = 886 * 30
    return [
        (FK, "sec. 4, text on Figure 4 (left)", "(i.e., they agree on top, second and third method in 42% of the tasks)",
         "the complement of the 58% disagreement on the top three: tested there", "fk.aupr_auprg.top3"),
        (FK, "sec. 4", "Figure 4 plots AUPRG-rank against AUPR-rank across all 25980 models.",
         f"a count of the paper's population, not a finding; and 886 tasks x 30 models = {fk_models:,}, not 25,980: the "
         "paper's own numbers disagree. This study's counts are in tasks.csv", ""),
        (FK, "sec. 4, text on Figure 4 (right)", "In both datasets AUPR and AUPRG agree on the best model.",
         "about two OpenML tasks (3872 white-clover, 3896 ada-agnostic) and the 30 runs the authors drew there; the "
         "offline studies have neither (their own quartile tasks are in figure_selection.csv and Figure 4 right)", ""),
        (FK, "sec. 4, text on Figure 4 (right)", "However, in the white-clover dataset the second best is AdaBoost "
         "according to AUPRG and Logistic Regression according to AUPR.",
         "about OpenML runs 145651 and 267741 on task 3872, which the offline studies do not fetch", ""),
        (FK, "sec. 4, Figure 5", "The solid curve is on average lower with AUPR = 0.724 whereas the dashed curve has "
         "AUPR = 0.773. ... the solid curve has AUPRG = 0.714 while the dashed curve has a lower AUPRG of 0.687.",
         "the values of two OpenML runs (145651, 267741) not fetched here; this study's Figure 5 draws its own pair "
         "of models, and the metrics are checked against the authors' code (fk.auprg_reference)", "fk.auprg_reference"),
        (FK, "sec. 4, text on Figure 5", "this disagreement is caused by AUPR taking into account the poor performance "
         "of AdaBoost in the early part of the ranking; AUPRG ignores this part as it has negative recall gain.",
         "an explanation of one pair of runs; no population statement to test", ""),
        (FK, "sec. 1, contribution (v)", "the area under traditional Precision-Recall curves can easily favour models "
         "with lower expected F1 score than others",
         "a possibility shown by one example (Figure 5); this project computes no expected-F1 ranking per task", ""),
        (FK, "sec. 3.3", "The expected reciprocal F1 score can be calculated from the relationship E[1/F1] = (1 - (1 - "
         "pi) E[FG1]) / pi which follows from the definition of FG_beta.",
         "an identity of the definitions (Theorem 2 with beta = 1 rearranged); Theorems 2 and 3 are checked", "fk.thm2; fk.thm3"),
        (FK, "sec. 3.3 / 3.4, Figure 3", "Score 0.76 corresponds to beta^2 = (1 - 0.76)/0.76 = 0.32 and score 0.49 "
         "corresponds to beta^2 = 1.04",
         "the running example's scores are not published as data; the arithmetic is Theorem 4's, which is checked",
         "fk.thm4"),
        (FK, "sec. 2", "the expected accuracy ... = pi (1 - pi) (2 AUROC - 1) + 1/2 [8]",
         "a cited result (Hernandez-Orallo et al.), not this paper's", ""),
        (BOYD, "sec. 2.2", "changing the skew of a data set from 0.01 to 0.5 ... increases the minimum AUCPR by "
         "approximately 0.3",
         f"arithmetic of Theorem 2 (checked as boyd.thm2): AUCPR_MIN(0.5) - AUCPR_MIN(0.01) = {m05:.3f} - {m01:.3f} = "
         f"{m05 - m01:.3f}", "boyd.thm2"),
        (BOYD, "sec. 4", "With pi = 0.1, AUCPR_MIN ~ 0.05, and it increases as pi approaches 0.5.",
         f"arithmetic of Theorem 2 (boyd.thm2): AUCPR_MIN(0.1) = {m10:.4f}; it rises in pi (Boyd's Figure 3)", "boyd.thm2"),
        (BOYD, "sec. 4.2", "the gender predicate's range is [0.31, 1.0] while the genre ... range is [0.02, 1.0]",
         f"the IMDB data are not available; the arithmetic is Theorem 2's: AUCPR_MIN(0.5) = {m05:.3f}, AUCPR_MIN(0.05) "
         f"= {m005:.3f} (the skews Table 2 implies are in boyd_table2_check)", "boyd.thm2"),
        (BOYD, "sec. 4.2", "Across all predicates in IMDB the skew of true groundings is relatively low (pi = 0.06)",
         "a property of the IMDB data, which are not available", ""),
        (BOYD, "sec. 4.2", "AUCNPR is still sensitive to skew, so an AUCNPR of 0.4 in the aforementioned predicates still "
         "does not imply completely comparable performances, but it is closer than AUCPR.",
         "no measure of 'comparable performance' across tasks is stated; this project's rows on learners over tasks "
         "(px.boyd.sec4_2.*) ask a related question", "px.boyd.sec4_2.order_changes"),
        (BOYD, "sec. 4.1", "Even a single fold, which has much higher precision values due to a substantially lower "
         "skew, can cause a higher vertically averaged PR curve because of its larger unachievable region.",
         "vertical averaging of PR curves is not computed; the fold-skew rows test the averaging of AUCPR", "boyd.sec4_1.averaging_optimistic"),
        (BOYD, "sec. 4.1", "A similar normalization approach for summarizing the PR curve leads to a non-linear "
         "transformation of PR space that can change the area under the curves in unexpected ways.",
         "no normalised summary curve is defined in the paper to compute", ""),
        (BOYD, "sec. 4.3, Table 3", "1:2 0.740 0.680 0.329 0.315 ... 1:10 0.383 0.352 0.258 0.242",
         "SAYU on UW-CSE is not available; the table's own AUCNPR arithmetic is checked (boyd.table3) and its pattern "
         "over ratios is tested on this study's tasks (boyd.sec4_3.*)", "boyd.table3; boyd.sec4_3.gap_grows_with_pi"),
        (BOYD, "sec. 4.3", "This is a massive difference and it is disconcerting that it occurs simply by changing the "
         "data set skew.", "a judgement; the size it judges is tested (boyd.sec4_3.aucnpr_more_than_twice)",
         "boyd.sec4_3.aucnpr_more_than_twice"),
        (BOYD, "sec. 4.4, Figure 4", "All three have an F1 score of 0.45, but each has a very different interpretation "
         "if obtained from a data set with pi = 0.33. Point A is unachievable",
         "the points' coordinates are drawn, not given; Theorem 1's bound, which decides achievability, is checked",
         "boyd.thm1"),
        (BOYD, "sec. 4.4", "these three properties are impossible to satisfy because they require 0 = f'(0, 0) < f'(0, pi) "
         "< f'(1, pi) = 0", "a proof, not a computation", ""),
    ]


def not_tested_table() -> pd.DataFrame:
    """The checkable claims of both papers that have no verdict row (:data:`NOT_TESTED_COLUMNS`):
    the paper, where, its words, why not tested and the rows that bear on it."""
    return pd.DataFrame(_not_tested(), columns=NOT_TESTED_COLUMNS)


# --- the step ------------------------------------------------------------------------------------


class CompletenessInputs(TypedDict):
    """Step ``completeness``: every task's prediction status file, the learner-order tests and the
    noise rows."""

    status: list[Path]
    pairs: Path
    noise: Path


NOT_TESTED_NOTE = ("Every checkable claim of Flach & Kull (2015) and Boyd et al. (2012) that no verdict row tests: "
                   "where it stands, the paper's words, why it is not tested and the rows that bear on it.")
FK_EVIDENCE_NOTE = ("Whether AUPR, AUPRG and AUROC each order the learners differently across tasks (this project's "
                    "own question), and Flach & Kull's Definition 1, Theorems 1-4 and code checked against "
                    "prspace.metrics (implementation).")


def fk_evidence(*, pairs: pd.DataFrame | None, noise: pd.DataFrame | None, predictions: Iterable[pd.DataFrame],
                seed: int = 0) -> pd.DataFrame:
    """The rows of ``fk_evidence`` (:data:`prspace.core.evidence.EVIDENCE_COLUMNS`)."""
    rows = [all_different_row(pairs, noise)] if pairs is not None and len(pairs) else []
    rows += fk_theory_rows(seed)
    rows.append(auprg_reference_row(predictions))
    return evidence_frame(rows)


def completeness_step(inputs: CompletenessInputs, *, seed: int) -> StepOutput:
    """Step ``completeness``: ``fk_evidence`` and ``claims_not_tested``."""

    frames = (df[["model_id", "y_true", "score"]] for _, df, _ in ok_predictions(inputs["status"], progress="completeness"))  # one task at a time
    pairs = pd.read_csv(inputs["pairs"], keep_default_na=False, na_values=[""]) if Path(inputs["pairs"]).is_file() else None
    noise = pd.read_csv(inputs["noise"], keep_default_na=False, na_values=[""]) if Path(inputs["noise"]).is_file() else None
    ev = fk_evidence(pairs=pairs, noise=noise, predictions=frames, seed=seed)
    return StepOutput(tables=[TableOut(R.FK_EVIDENCE, ev, FK_EVIDENCE_NOTE),
                              TableOut(R.CLAIMS_NOT_TESTED, not_tested_table(), NOT_TESTED_NOTE)])
