"""Completeness: fk.all_different from the learner-order tests, Flach & Kull's theorems against
prspace.metrics (and a planted bug caught), AUPRG against the authors' code, every quote of the
registry and of the not-tested table found in the papers' text, and the differences table."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace import metrics as M
from prspace.core.claims import BOYD, CLAIMS, FK
from prspace.verdicts import completeness_step as C
from prspace.verdicts import differences as D
from prspace.verdicts.rule import apply_rule, evidence_frame

PAPERS = Path(__file__).resolve().parents[3] / "shared" / "papers"
if not PAPERS.is_dir():
    PAPERS = Path("/work/shared/papers")


def _pairs(p=(0.01, 0.002, 0.03), exact=False) -> pd.DataFrame:
    rows = [{"metric_a": a, "metric_b": b, "n_tasks": 61, "p_value": pv, "n_perm": 2000, "exact": exact, "alpha": 0.05,
             "power_planted_reversal": pw} for (a, b), pv, pw in zip(C.FK_PAIRS, p, (1.0, 0.9, 0.95), strict=True)]
    rows.append({"metric_a": "aupr", "metric_b": "aucnpr", "n_tasks": 61, "p_value": 1e-4, "n_perm": 2000,
                 "exact": exact, "alpha": 0.05, "power_planted_reversal": 1.0})  # not one of the three: ignored
    return pd.DataFrame(rows)


def test_the_common_order_test_is_this_projects_intersection_union_test():
    r = C.all_different_row(_pairs())
    assert r["estimate"] == 0.03 and r["tolerance"] == 0.05 and r["power"] == 0.9
    assert r["mc_error"] == pytest.approx(np.sqrt(0.03 * 0.97 / 2000))
    v = apply_rule(evidence_frame([r])).iloc[0]
    # this project's own question (one learner order per metric across tasks), not Flach & Kull's claim
    assert (v["claim_id"], v["role"], v["paper"]) == (C.COMMON_ORDER_ID, "exploratory", "prspace")
    assert v["verdict"].startswith("differs") and "fk.all_different" in r["detail"]
    # one pair not beyond noise: the claim is not shown, whatever the other two say
    r2 = C.all_different_row(_pairs((1e-4, 1e-4, 0.4)))
    assert r2["estimate"] == 0.4
    assert not apply_rule(evidence_frame([r2])).iloc[0]["verdict"].startswith("differs")
    # a pair missing: no p-value, the row says why
    r3 = C.all_different_row(_pairs().iloc[1:])
    assert np.isnan(r3["estimate"]) and "AUPR-AUPRG" in r3["detail"]


def test_flach_kull_theorems_hold_in_prspace_metrics():
    rows = {r["claim_id"]: r for r in C.fk_theory_rows(0)}
    assert set(rows) == {"fk.def1", "fk.thm1", "fk.thm2", "fk.thm3", "fk.thm4"}
    for r in rows.values():
        assert 0 <= r["estimate"] <= C.EXACT_TOL, r["claim_id"]
    assert "segments" in rows["fk.thm4"]["detail"] and not rows["fk.thm4"]["detail"].startswith("0 segments")


def test_a_planted_bug_in_the_gains_is_caught(monkeypatch):
    real = M.precision_gain
    monkeypatch.setattr(M, "precision_gain", lambda tp, fn, fp, tn: real(tp, fn, fp, tn) * (1 + 1e-6))
    rows = {r["claim_id"]: r["estimate"] for r in C.fk_theory_rows(0)}
    assert rows["fk.def1"] > C.EXACT_TOL and rows["fk.thm2"] > C.EXACT_TOL


def test_theorem3_integration_is_the_closed_form_and_not_a_tautology():
    y = np.r_[np.ones(30, bool), np.zeros(170, bool)]
    s = np.random.default_rng(3).normal(size=200) + y
    assert C._theorem3_by_integration(y, s) == pytest.approx(M.expected_fg1(y, s), abs=1e-12)
    # the integral is not the area: a different statistic of the same curve
    assert abs(C._theorem3_by_integration(y, s) - M.auprg(y, s)) > 0.01


def test_auprg_equals_the_authors_code_on_scikit_learn_predictions():
    pytest.importorskip("prg")
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict
    from sklearn.naive_bayes import GaussianNB

    X, y = make_classification(n_samples=400, weights=[0.85], random_state=0)
    frames = []
    for name, est in (("lr", LogisticRegression(max_iter=500)), ("nb", GaussianNB())):
        s = cross_val_predict(est, X, y, cv=5, method="predict_proba")[:, 1]
        frames.append(pd.DataFrame({"model_id": name, "y_true": y.astype(bool), "score": s}))
    r = C.auprg_reference_row([pd.concat(frames)])
    assert r["estimate"] <= 1e-9 and "2 models of 1 tasks" in r["detail"]
    assert apply_rule(evidence_frame([r])).iloc[0]["verdict"] == "exact"


def test_without_the_reference_code_the_row_says_how_to_get_it(monkeypatch):
    import contextlib

    monkeypatch.setattr(C, "_reference_code", lambda: contextlib.nullcontext(None))
    r = C.auprg_reference_row([pd.DataFrame({"model_id": ["a"] * 4, "y_true": [1, 0, 1, 0], "score": [0.1, 0.2, 0.3, 0.4]})])
    assert np.isnan(r["estimate"]) and "pip install" in r["detail"]


def test_the_numpy_shim_is_present_in_use_and_removed_after(monkeypatch):
    """``pyprg`` calls ``numpy.alen`` (gone since numpy 1.23): the shim exists inside the context and
    numpy is left as it was found (other tests' compatibility module may have added it already)."""
    monkeypatch.delattr(np, "alen", raising=False)
    with C._reference_code():
        assert np.alen([1, 2, 3]) == 3 and np.alen(np.float64(2.0)) == 1
    assert not hasattr(np, "alen")


_GREEK = {"π": "pi", "β": "beta", "∆": "delta", "µ": "mu", "μ": "mu", "λ": "lambda", "ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff",
          "’": "'", "−": "-", "≈": "~"}


def _norm(s: str) -> str:
    for a, b in _GREEK.items():
        s = s.replace(a, b)
    s = re.sub(r"-\s*\n\s*", "", s)
    return re.sub(r"[^a-z0-9]", "", s.lower())


def test_every_quote_is_the_papers_words():
    if not PAPERS.is_dir():
        pytest.skip("the papers' text is not here")
    text = {FK: _norm((PAPERS / "flach-kull2015-precision-recall-gain-curves.txt").read_text()),
            BOYD: _norm((PAPERS / "boyd2012-unachievable-region-pr-space.txt").read_text())}
    quotes = [(c.paper, c.claim_id, c.quote) for c in CLAIMS]
    quotes += [(r.paper, "not tested", r.quote) for r in C.not_tested_table().itertuples()]
    checked = 0
    for paper, cid, q in quotes:
        for part in re.split(r"\.\.\.|\(i\.e\.|=|\^|\*|\[|\]|\(|\)|/", q):
            n = _norm(part)
            if len(n) >= 12:
                assert n in text[paper], f"{cid}: {part!r} is not in the paper"
                checked += 1
    assert checked > 60


def test_not_tested_table_is_complete_in_its_columns():
    t = C.not_tested_table()
    assert list(t.columns) == C.NOT_TESTED_COLUMNS and len(t) >= 15
    assert (t["why_not_tested"].str.len() > 10).all() and set(t["paper"]) == {FK, BOYD}
    ids = {c.claim_id for c in CLAIMS} | {"px.boyd.sec4_2.order_changes"}
    for rel in t["related_rows"]:
        for cid in filter(None, (x.strip() for x in rel.split(";"))):
            assert cid in ids, cid
    # its numbers are computed: Boyd's "approximately 0.3" is Theorem 2's arithmetic
    row = t[t["quote"].str.contains("0.01 to 0.5")].iloc[0]
    assert f"{M.aupr_min(0.5) - M.aupr_min(0.01):.3f}" in row["why_not_tested"]


def test_differences_table():
    md = D.differences_markdown({"default": pd.DataFrame({"task_id": ["a", "b", "c"], "status": "ok",
                                                           "family": ["f", "f", "g"]})})
    assert "`default`: 3 tasks in 2 families" in md
    t = D.differences_table()
    assert {"panel of models", "population of tasks", "rows per dataset", "preprocessing",
            "saturated tasks and ties"} <= set(t["what"])
    assert md.count("\n|") == len(t) + 2
