"""One decision per question (:mod:`prspace.audit.inference.decision`) and its calibration (:mod:`prspace.audit.simulation.simulate`).

Oracles: a made-up calibration table whose answer is known; the closed form of the simulated
mixture's AUROC; scikit-learn's average precision on a large sample; and, for the audit, that
the headline, the pairwise lines and the plausible-best sets state the same decisions.
"""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.metrics import average_precision_score

from prspace import audit
from prspace.audit.inference.audit_pairwise import survival_lines
from prspace.audit.inference.audit_ranksets import plausible_best_lines
from prspace.audit.inference.decision import (
    CANNOT,
    LEVEL,
    NOMINAL,
    corrected_p,
    decide,
    raw_threshold,
    rule_table,
)
from prspace.audit.inference.tables import LABELS
from prspace.audit.inference.uncertainty import comparison
from prspace.audit.simulation import simulate as S
from prspace.stats.replicates import BOOT_METRICS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "audit-example.csv"


def _table(rows):
    from prspace.audit.inference.decision import THRESHOLD_COLUMNS

    cols = ["metric", "method", "pi", "n", "n_pos", "fwer", "power", "reps"]
    t = pd.DataFrame(rows, columns=cols).assign(simultaneous=0.95, null_pairs=1000)
    return t.assign(**{c: level for c, level in zip(THRESHOLD_COLUMNS, NOMINAL, strict=True)})


def test_rule_takes_the_procedure_with_most_power_in_the_nearest_cell_and_never_abstains():
    t = _table([
        ("aupr", "jackknife-Holm", 0.5, 300, 150, 0.04, 0.80, 400),
        ("auroc", "DeLong-Holm", 0.03, 1000, 30, 0.04, 0.30, 400),
        ("auroc", "jackknife-Holm", 0.03, 1000, 30, 0.05, 0.35, 400),  # most power
        ("auprg", "jackknife-Holm", 0.03, 1000, 30, 0.01, 0.01, 400),  # powerless: still decides
    ])
    assert decide("auroc", 25, 900, table=t).label == "jackknife-Holm"
    assert decide("auroc", 25, 900, table=t, available=("DeLong-Holm",)).label == "DeLong-Holm"
    d = decide("auprg", 25, 900, table=t)
    assert d.label == "jackknife-Holm" and d.power == 0.01 and "decides" in d.why()
    assert decide("aupr", 140, 290, table=t).n_pos == 150
    assert decide("ap", 10, 100, table=t).label == CANNOT  # no calibration for the metric


def test_corrected_p_inverts_its_raw_threshold_and_is_monotone():
    th = tuple(level / 3 for level in NOMINAL)  # a raw test three times too liberal
    p = np.logspace(-6, 0, 200)
    c = corrected_p(p, th)
    assert np.all(np.diff(c) >= 0) and c[-1] == 1.0
    for level in (0.001, 0.005, 0.0125, 0.05):
        assert raw_threshold(level, th) == pytest.approx(level / 3, rel=1e-9)
        assert corrected_p(raw_threshold(level, th), th) == pytest.approx(level, rel=1e-9)
    assert np.allclose(corrected_p(p[p < 1e-4], th), 3 * p[p < 1e-4])


def test_level_correction_holds_the_family_wise_error_of_a_liberal_test():
    """Known truth: five equal models whose raw p-values under the null are U^2 (far too small): raw
    Holm errs in most replicates; the corrected procedure, fitted on one half, holds 0.05 on the other."""
    rng = np.random.default_rng(3)
    reps, pairs = 400, 10
    u = rng.random((reps, pairs)) ** 2
    frame = pd.DataFrame({"metric": "aupr", "method": "jackknife-Holm", "pi": 0.1, "n": 1000, "n_pos": 100,
                          "truth": "null", "rep": np.repeat(np.arange(reps), pairs), "pair": np.tile(np.arange(pairs), reps),
                          "p_raw": u.ravel(), "diff": rng.standard_normal(reps * pairs), "se": 1.0, "df": np.nan,
                          "true_diff": 0.0})
    raw = np.mean([(np.minimum(np.sort(r) * (pairs - np.arange(pairs)), 1) < LEVEL).any() for r in u])
    t = rule_table(frame)
    held = int(t["reps"].iloc[0])
    assert raw > 0.3 and held == reps // 2
    assert t["fwer"].iloc[0] <= LEVEL + 2 * np.sqrt(LEVEL * (1 - LEVEL) / held), (raw, t["fwer"].iloc[0])
    # the fitted threshold at 0.05 is near the truth's sqrt(...)-law: P(U^2 < t) = sqrt(t) = 0.05
    assert t["t_7"].iloc[0] == pytest.approx(0.05**2, rel=0.5)


def test_committed_calibration_table_holds_the_family_wise_error_in_every_cell():
    """The regenerated table (``benchmarks/calib_audit.py --write-rule``): every cell, metric and
    procedure errs at most 0.05 + 2 MC se on its held-out replicates, and every cell decides."""
    from prspace.audit.inference.decision import CELLS, COLUMNS

    t = pd.DataFrame(CELLS, columns=COLUMNS)
    se = np.sqrt(LEVEL * (1 - LEVEL) / t["reps"])
    bad = t[t["fwer"] > LEVEL + 2 * se]
    assert bad.empty, bad[["metric", "method", "pi", "n", "fwer", "reps"]]
    assert (t["reps"] >= 100).all() and (t["null_pairs"] >= 1000).all()
    for r in t[["pi", "n", "n_pos"]].drop_duplicates().itertuples(index=False):
        for metric in BOOT_METRICS:
            assert decide(metric, r.n_pos, r.n).method is not None, (metric, r)


def test_population_values_of_the_simulated_truth():
    mu, pi = S.means(True), 0.1
    truth = S.population(mu, pi)
    o = S.FOLD_SHIFT * (np.arange(S.FOLDS) - 2.0)
    for i, m in enumerate(mu):  # AUROC of the fold mixture, in closed form
        closed = np.mean([norm.cdf((m + of - og) / np.sqrt(2)) for of, og in itertools.product(o, o)])
        assert truth[i, 0] == pytest.approx(closed, abs=2e-4)
    rng = np.random.default_rng(0)  # AP on a large sample (se ~0.002)
    b = S.draw(rng, 200_000, pi, mu)
    ap = average_precision_score(b.y, b.scores[0])
    assert truth[0, BOOT_METRICS.index("average_precision")] == pytest.approx(ap, abs=0.01)


def test_calibration_at_small_size_gives_pairs_with_their_truth():
    """A small run of :func:`prspace.audit.simulation.simulate.calibrate` (the full grid is benchmarks/calib_audit.py):
    balanced classes, 200 rows, the planted lead: every pair's raw p-value is a probability, the four
    pairs with model 0 carry the true lead, and the planted lead is found more often than a null pair errs."""
    t = S.calibrate(0.5, 200, 10, alternative=True, seed=1)
    assert set(t["method"]) == {"DeLong-Holm", "bootstrap-z (class)", "jackknife-Holm"}
    assert t["p_raw"].between(0, 1).all()
    assert (t.groupby(["metric", "method", "rep"]).size() == 10).all()
    lead = t[t["pair"] < 4]
    assert (lead["true_diff"] > 0).all() and (t.loc[t["pair"] >= 4, "true_diff"] == 0).all()
    au = t[t["metric"] == "auroc"]
    assert (au.loc[au["pair"] < 4, "p_raw"] < 0.05).mean() > 0.3 > (au.loc[au["pair"] >= 4, "p_raw"] < 0.05).mean()


def _agree(res, task):
    """The headline's verdict, the deciding rows, the plausible-best sets and the sentences agree."""
    pw, rs = res.pairwise[res.pairwise["task"] == task], res.rank_sets[res.rank_sets["task"] == task]
    for metric in BOOT_METRICS:
        dec = pw[(pw["metric"] == metric) & (pw["role"] == "decides")]
        assert dec["method"].nunique() <= 1
        beaten = set(dec.loc[dec["survives"] & (dec["diff"] > 0), "model_b"]) | set(
            dec.loc[dec["survives"] & (dec["diff"] < 0), "model_a"])
        best = set(rs.loc[(rs["metric"] == metric) & rs["plausible_best"], "model"])
        assert best == set(rs.loc[rs["metric"] == metric, "model"]) - beaten, metric
        for r in res.comparisons[(res.comparisons["task"] == task) & (res.comparisons["metric"] == metric)].itertuples():
            hit = dec[(dec["model_a"] == r.model_a) & (dec["model_b"] == r.model_b)]
            assert r.distinguishable == bool(len(hit) and hit["survives"].iloc[0]), (metric, r.model_a, r.model_b)
    for name, flat in _rendered(res).items():
        _agree_rendered(res, task, flat, name)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _rendered(res) -> dict[str, str]:
    """The three reports as one line of words each (HTML: tags dropped, entities decoded)."""
    page = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", " ", res.to_html(), flags=re.S)))
    return {"text": _flat(res.to_text()), "markdown": _flat(res.to_markdown().replace("`", "")),
            "html": _flat(page)}


def _agree_rendered(res, task, flat, name):
    """In one rendered report: the headline, the plausible-best lines and the surviving-pairs lines
    are there and state the deciding procedure's verdicts; no lead is called distinguishable (or
    within noise) that the deciding procedure does not decide so."""
    for line in res.headline() + plausible_best_lines(res.rank_sets, task) + survival_lines(res.pairwise, task):
        assert _flat(line).replace("`", "") in flat, (name, line)
    pw = res.pairwise[(res.pairwise["task"] == task) & (res.pairwise["metric"] == "aupr")]
    decides = bool((pw["role"] == "decides").any())
    ranks = res.ranks[res.ranks["task"] == task].set_index("model")["aupr"].sort_values()
    c = comparison(res.comparisons, task, "aupr", ranks.index[0], ranks.index[1])
    lead = next(s for s in res.headline() if "best model" in s or "every metric picks" in s)
    assert _flat(lead).replace("`", "") in flat
    if "AUPR lead over" in lead:
        if not decides:
            assert c["decided_by"] == CANNOT and "cannot be told" in lead and "distinguishable" not in lead, lead
            assert f"{LABELS['aupr']}: cannot decide" in flat, name
        else:
            said = "is distinguishable from noise" in lead
            assert said == bool(c["distinguishable"]), lead
            assert "simultaneous CI" in lead and "cannot be told" not in lead, lead
            lo, hi = c["lo"], c["hi"]  # the interval shown is the deciding procedure's simultaneous one
            assert (lo, hi) != (c["lo_unadjusted"], c["hi_unadjusted"])
    for metric in BOOT_METRICS:
        best = res.rank_sets[(res.rank_sets["task"] == task) & (res.rank_sets["metric"] == metric)]
        m = res.pairwise[(res.pairwise["task"] == task) & (res.pairwise["metric"] == metric)]
        if len(m) and not (m["role"] == "decides").any():  # nobody decides: every model stays, said so
            assert best["plausible_best"].all()
            assert f"{LABELS[metric]}: cannot decide at this size and skew; all {len(best)} models stay" in flat
    # "within noise" only where a procedure decides
    if "disagreement is within noise" in flat:
        assert (res.comparisons["decided_by"] != CANNOT).all()


def test_readme_example_headline_rank_sets_and_pairs_agree():
    res = audit.audit(pd.read_csv(EXAMPLE), label_col="diagnosis", pos_label="malignant", n_boot=200, seed=3)
    _agree(res, res.pooled["task"].iloc[0])
    # the lead the issue quotes is called distinguishable only if the deciding procedure says so
    aupr = res.pairwise[(res.pairwise["metric"] == "aupr") & (res.pairwise["role"] == "decides")]
    lead = aupr[aupr["model_a"].isin(["gaussian_nb", "logistic_regression"])
                & aupr["model_b"].isin(["gaussian_nb", "logistic_regression"])]
    # issue 40: every metric is decided at this size (level corrected where the raw test errs), so the
    # lead is either distinguishable or NOT, never "cannot be told"
    assert len(lead) == 1
    said = "is distinguishable from noise" if lead["survives"].iloc[0] else "is NOT distinguishable from noise"
    for name, text in _rendered(res).items():
        assert "its AUPR lead over gaussian_nb (+0.088, 95% simultaneous CI" in text and said in text, name
        assert "cannot decide" not in text and "cannot be told" not in text.split("Where the metrics")[0], name


def test_imbalanced_task_headline_rank_sets_and_pairs_agree():
    """pi 0.03 (300 positives of 10,000), five models, one with a large lead."""
    rng = np.random.default_rng(7)
    n, n_pos = 10_000, 300
    y = np.r_[np.ones(n_pos, int), np.zeros(n - n_pos, int)]
    z = rng.standard_normal(n)
    mus = {"strong": 2.2, "a": 1.2, "b": 1.2, "c": 1.0, "d": 0.6}
    frame = pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(n), "label": y,
                                     "score": mu * y + 0.7 * z + 0.7 * rng.standard_normal(n)})
                       for m, mu in mus.items()], ignore_index=True)
    res = audit.audit(frame, n_boot=200, seed=0)
    _agree(res, res.pooled["task"].iloc[0])
    deciding = res.pairwise[res.pairwise["role"] == "decides"]
    assert {"auroc", "auprg"} <= set(deciding["metric"])  # calibrated cell: pi 0.1, 100 positives
    # the strong model's lead is found by AUROC's deciding procedure, and the headline agrees
    strong = deciding[(deciding["metric"] == "auroc") & (deciding["model_a"] == "strong")]
    assert strong["survives"].all()


def test_balanced_task_headline_shows_the_deciding_procedures_simultaneous_interval():
    """pi 0.5 (the calibrated cell where a procedure decides AUPR): the headline's AUPR lead carries
    the deciding procedure's simultaneous interval and adjusted p, in all three reports."""
    rng = np.random.default_rng(11)
    n = 600
    y = np.r_[np.ones(n // 2, int), np.zeros(n // 2, int)]
    mus = {"strong": 2.5, "a": 1.0, "b": 0.9}
    frame = pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(n), "label": y,
                                     "score": mu * y + rng.standard_normal(n)}) for m, mu in mus.items()],
                      ignore_index=True)
    res = audit.audit(frame, n_boot=200, seed=0)
    task = res.pooled["task"].iloc[0]
    _agree(res, task)
    (lead,) = [s for s in res.headline() if "lead over" in s]
    c = comparison(res.comparisons, task, "aupr", "strong", "a")
    assert c["decided_by"] != CANNOT and c["distinguishable"]
    assert "is distinguishable from noise" in lead and "simultaneous CI" in lead and "adjusted p" in lead, lead


def _stub(rows):
    from types import SimpleNamespace

    cols = ["task", "metric", "model_a", "model_b", "diff", "lo", "hi", "p_value", "method", "distinguishable",
            "p_adjusted", "lo_simultaneous", "hi_simultaneous", "decided_by"]
    return SimpleNamespace(comparisons=pd.DataFrame(rows, columns=cols), confidence=0.95)


def test_disagreement_on_the_best_model_undecided_is_cannot_be_told_not_within_noise():
    from prspace.audit.inference.tables import RANKED
    from prspace.audit.report.audit_headline import picks_noise

    best = {m: ["A"] for m in RANKED} | {"aupr": ["B"]}
    auroc = ("all", "auroc", "A", "B", 0.02, -0.01, 0.05, 0.2, "DeLong paired", False, 0.4, -0.03, 0.07,
             "DeLong, Holm")
    others = [("all", m, "A", "B", 0.01, -0.02, 0.04, 0.3, "bootstrap", False, float("nan"), float("nan"),
               float("nan"), CANNOT) for m in RANKED if m != "auroc"]
    said = picks_noise(_stub([auroc, *others]), "all", best)
    assert "cannot be told" in said and "within noise" in said.split(":")[-1] and "is within noise" not in said
    assert f"no procedure decides {len(others)} of" in said and "the other 1 are within noise" in said
    decided = [(*r[:10], 0.5, -0.05, 0.07, "jackknife t, Holm") for r in others]
    said = picks_noise(_stub([auroc, *decided]), "all", best)
    assert said.startswith("the disagreement is within noise") and "cannot be told" not in said
    beyond = [("all", "aupr", "A", "B", -0.2, -0.3, -0.1, 1e-4, "bootstrap", True, 0.001, -0.35, -0.05,
               "bootstrap max-T (Romano-Wolf step-down)")]
    said = picks_noise(_stub([auroc, *(r for r in others if r[1] != "aupr"), *beyond]), "all", best)
    assert said.startswith("the disagreement is beyond noise: AUPR prefers B to A (+0.200, 95% simultaneous CI 0.050 "
                           "to 0.350, adjusted p = 0.001, max-T) (1 other such preference(s) within noise; 3 cannot be told"), said
