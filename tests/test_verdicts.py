"""The verdict rule (prspace.verdicts.rule), its evidence, and the committed verdict tables."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace.verdicts import report as VR
from prspace.verdicts import rule as R
from prspace.verdicts.pagedata import normalise

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ("default", "paperlike")


def _row(kind, **kw):
    base = dict(paper="prspace", claim_id="x", claim="c", kind=kind, estimate=kw.pop("estimate", 0.5))
    if kind == "bound":
        base.update(k=kw.pop("k"), n=kw.pop("n"))
    return R.evidence_row(**base, **kw)


@pytest.mark.parametrize(
    ("pv", "lo", "hi", "nf", "want"),
    [
        (0.24, 0.20, 0.30, 60, R.REPLICATES),  # inside, half-width 0.05
        (0.24, 0.23, 0.44, 35, R.IMPRECISE),  # inside, half-width 0.105
        (0.29, 0.31, 0.67, 35, R.HIGHER),
        (0.70, 0.31, 0.67, 35, R.LOWER),
        (0.24, 0.14, 0.34, 60, R.REPLICATES),  # half-width exactly 0.10 is narrow enough
    ],
)
def test_share_rule(pv, lo, hi, nf, want):
    got, why, _ = R.decide(_row("share", paper_value=pv, estimate=(lo + hi) / 2, ci_lo=lo, ci_hi=hi, n_families=nf))
    assert got == want, why


def test_imprecise_says_how_many_families():
    _, why, _ = R.decide(_row("share", paper_value=0.24, estimate=0.34, ci_lo=0.14, ci_hi=0.54, n_families=25))
    # half-width 0.2 -> 4x the families for 0.1
    assert "about 100 families" in why


def test_correlation_uses_its_own_tolerance():
    got, _, upd = R.decide(_row("correlation", paper_value=0.95, estimate=0.94, ci_lo=0.90, ci_hi=0.98))
    assert upd["tolerance"] == 0.03 and got == R.IMPRECISE
    assert R.decide(_row("correlation", paper_value=0.95, estimate=0.94, ci_lo=0.92, ci_hi=0.97))[0] == R.REPLICATES


def test_exact_direction_stable_difference():
    assert R.decide(_row("exact", estimate=1e-12))[0] == R.EXACT
    assert R.decide(_row("exact", estimate=1e-3, tolerance=5e-4))[0] == R.DIFFERS
    assert R.decide(_row("direction", paper_value=1, ci_lo=0.01, ci_hi=0.2))[0] == R.HOLDS
    assert R.decide(_row("direction", paper_value=1, ci_lo=-0.2, ci_hi=-0.01))[0] == R.CONTRADICTED
    assert R.decide(_row("direction", paper_value=-1, ci_lo=-0.2, ci_hi=-0.01))[0] == R.HOLDS
    assert R.decide(_row("direction", paper_value=1, ci_lo=-0.1, ci_hi=0.2))[0] == R.CANNOT
    assert R.decide(_row("stable", estimate=0.0, ci_lo=-0.01, ci_hi=0.015))[0] == R.HOLDS
    assert R.decide(_row("stable", estimate=0.1, ci_lo=0.05, ci_hi=0.15))[0] == R.DIFFERS
    assert R.decide(_row("stable", estimate=0.02, ci_lo=-0.01, ci_hi=0.05))[0] == R.CANNOT
    assert R.decide(_row("difference", estimate=-0.2, ci_lo=-0.3, ci_hi=-0.1))[0] == R.SMALLER
    assert R.decide(_row("difference", estimate=0.2, ci_lo=0.1, ci_hi=0.3))[0] == R.LARGER
    assert R.decide(_row("difference", estimate=0.0, ci_lo=-0.1, ci_hi=0.3))[0] == R.CANNOT
    assert R.decide(_row("share", paper_value=0.2, estimate=float("nan")))[0] == R.CANNOT


def test_bound_uses_the_exact_binomial_interval():
    # closed form for k = 0: upper end 1 - (alpha/2)^(1/n); 0 of 82 -> 0.044 (issue 22)
    got, why, upd = R.decide(_row("bound", k=0, n=82))
    assert upd["ci_hi"] == pytest.approx(1 - 0.025 ** (1 / 82), rel=1e-9)
    assert round(upd["ci_hi"], 3) == 0.044 and got == R.WITHIN_NOISE
    # closed form for k = n: lower end (alpha/2)^(1/n)
    got, _, upd = R.decide(_row("bound", k=20, n=20))
    assert upd["ci_lo"] == pytest.approx(0.025 ** (1 / 20), rel=1e-9) and got == R.BEYOND_NOISE
    assert R.decide(_row("bound", k=1, n=4))[0] == R.CANNOT  # [0.006, 0.81]
    assert R.decide(_row("bound", k=0, n=0))[0] == R.CANNOT


def test_evidence_row_refuses_unknown_kind_and_paper():
    with pytest.raises(ValueError, match="kind"):
        R.evidence_row(paper="prspace", claim_id="x", claim="c", kind="vibes", estimate=1)
    with pytest.raises(ValueError, match="paper"):
        R.evidence_row(paper="smith-2020", claim_id="x", claim="c", kind="share", estimate=1)
    with pytest.raises(ValueError, match="k and n"):
        R.evidence_row(paper="prspace", claim_id="x", claim="c", kind="bound", estimate=1)


def _summary():
    rows = []
    for a, b in [("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"), ("aupr", "aucnpr")]:
        zero = b == "aucnpr"
        rows.append(dict(metric_a=a, metric_b=b, n_tasks=50, n_families=30,
                         top1_share=0.0 if zero else 0.3, top1_lo=0.0 if zero else 0.2, top1_hi=0.0 if zero else 0.4,
                         top3_share=0.0 if zero else 0.6, top3_lo=0.0 if zero else 0.5, top3_hi=0.0 if zero else 0.7,
                         spearman_mean=1.0 if zero else 0.9, spearman_lo=1.0 if zero else 0.88, spearman_hi=1.0 if zero else 0.92))
    return pd.DataFrame(rows)


def test_flach_kull_rows_read_the_summary(tmp_path):
    _summary().to_csv(tmp_path / "disagreement_summary.csv", index=False)
    ev = VR.collect_evidence(tmp_path)
    r = ev.set_index("claim_id").loc["fk.aupr_auroc.top3"]
    assert (r.paper_value, r.estimate, r.ci_lo, r.ci_hi, r.n_families) == (0.65, 0.6, 0.5, 0.7, 30)
    v = VR.verdict_table(ev).set_index("claim_id")
    assert v.loc["fk.aupr_auprg.top1", "verdict"] == R.REPLICATES  # 0.24 in [0.2, 0.4], half-width 0.1
    assert v.loc["fk.aupr_auroc.top3", "verdict"] == R.REPLICATES
    assert v.loc["fk.aupr_auprg.spearman", "verdict"] == R.LOWER  # 0.95 above [0.88, 0.92]
    assert v.loc["boyd.aucnpr_orders_as_aupr", "verdict"] == R.EXACT


def test_collect_evidence_refuses_duplicates_and_foreign_tables(tmp_path):
    _summary().to_csv(tmp_path / "disagreement_summary.csv", index=False)
    R.evidence_frame([_row("share", paper_value=0.2, estimate=0.2, ci_lo=0.1, ci_hi=0.3) | {"claim_id": "fk.aupr_auprg.top1"}]
                     ).to_csv(tmp_path / "noise_evidence.csv", index=False)
    with pytest.raises(ValueError, match="twice"):
        VR.collect_evidence(tmp_path)
    pd.DataFrame({"claim_id": ["y"]}).to_csv(tmp_path / "noise_evidence.csv", index=False)
    with pytest.raises(ValueError, match="lacks evidence column"):
        VR.collect_evidence(tmp_path)


def test_summary_answers_in_at_most_six_sentences_read_off_the_table(tmp_path):
    from prspace.verdicts.sentences import MAX_SENTENCES

    _summary().to_csv(tmp_path / "disagreement_summary.csv", index=False)
    v = VR.verdict_table(VR.collect_evidence(tmp_path))
    tasks = pd.DataFrame({"task_id": list("abcd"), "status": "ok", "pi": [0.1, 0.2, 0.3, 0.4], "family": list("aabc")})
    text = VR.summary_markdown(v, study="s", tasks=tasks)
    said = [ln for ln in text.splitlines() if ln.startswith("- ")]
    assert 1 <= len(said) <= MAX_SENTENCES
    assert "4 tasks from 3 families" in text and "0.30 [0.20, 0.40]" in text


@pytest.mark.parametrize("study", STUDIES)
def test_every_committed_verdict_follows_from_its_own_row(study):
    path = ROOT / "results" / study / "tables" / "verdicts.csv"
    assert path.is_file(), f"{path} missing: run the study (make run)"
    v = pd.read_csv(path, keep_default_na=False, na_values=[""])
    assert list(v.columns) == R.VERDICT_COLUMNS
    assert len(v) >= 9 and v["claim_id"].is_unique
    for _, r in v.iterrows():
        got, _, upd = R.decide(r)
        assert got == r["verdict"], r["claim_id"]
        for col, val in upd.items():
            assert (math.isnan(val) and math.isnan(r[col])) or val == pytest.approx(r[col], rel=5e-6, abs=1e-12), (r["claim_id"], col)  # the CSV holds 6 significant digits


def test_test_rule_reaches_every_verdict():
    """kind "test": p < alpha -> differs beyond noise; p >= alpha -> within noise; no p -> cannot be told."""
    got, why, upd = R.decide(_row("test", estimate=0.01))
    assert got == R.ORDER_DIFFERS and upd["tolerance"] == 0.05 and "0.01 < alpha 0.05" in why
    assert R.decide(_row("test", estimate=0.05))[0] == R.ORDER_WITHIN  # the level itself is not below it
    assert R.decide(_row("test", estimate=0.049999))[0] == R.ORDER_DIFFERS
    assert R.decide(_row("test", estimate=0.04, tolerance=0.01))[0] == R.ORDER_WITHIN  # the row's own alpha
    got, why, _ = R.decide(_row("test", estimate=0.5))
    assert got == R.ORDER_WITHIN and "power" in why
    got, why, _ = R.decide(_row("test", estimate=float("nan")))
    assert got == R.CANNOT and "not run" in why


def test_bound_within_noise_wording_is_generic():
    """The bound explanation fits every bound row (separable models, disjoint plausible-best sets): it
    speaks of cases the check flags, and the row's detail carries the specifics."""
    v = R.apply_rule(R.evidence_frame([_row("bound", k=0, n=60, detail="disjoint plausible-best sets")])).iloc[0]
    assert v["verdict"] == R.WITHIN_NOISE
    assert "cases the check flags" in v["explanation"] and "two models" not in v["explanation"]
    assert v["explanation"].endswith("disjoint plausible-best sets")


def _cd_pairs(tmp_path):
    """A small cd table from prspace.cd.study_tables: 12 tasks x 4 learners, AUPR's order of the
    first and last learner reversed under AUROC, AUPRG a copy of AUPR."""
    from prspace.cd import study_tables

    rng = np.random.default_rng(3)
    rows = []
    for t in range(12):
        q = np.array([3.0, 2.0, 1.0, 0.0]) + 0.3 * rng.standard_normal(4)
        roc = q.copy()
        roc[[0, 3]] = roc[[3, 0]]
        for j in range(4):
            rows.append({"task_id": f"t{t}", "model_id": f"m{j}", "aupr": q[j], "auprg": q[j], "auroc": roc[j]})
    tables = study_tables(pd.DataFrame(rows), ["aupr", "auprg", "auroc"], n_perm=500, n_sim=20, seed=0)
    tables["cd_metric_pairs"].to_csv(tmp_path / "cd_metric_pairs.csv", index=False)
    return tables["cd_metric_pairs"]


def test_verdict_builder_makes_a_cd_order_row_per_metric_pair(tmp_path):
    _summary().to_csv(tmp_path / "disagreement_summary.csv", index=False)
    pairs = _cd_pairs(tmp_path)
    v = VR.verdict_table(VR.collect_evidence(tmp_path)).set_index("claim_id")
    ids = [i for i in v.index if i.endswith(".cd.order")]
    # one row per pair, ids in Flach & Kull's order of the pair (as the other px. rows)
    assert sorted(ids) == ["px.aupr_auprg.cd.order", "px.aupr_auroc.cd.order", "px.auprg_auroc.cd.order"]
    assert len(pairs) == 3
    same, flipped = v.loc["px.aupr_auprg.cd.order"], v.loc["px.aupr_auroc.cd.order"]
    assert same["verdict"] == R.ORDER_WITHIN and same["estimate"] == 1.0  # identical ranks: every flip ties
    assert flipped["verdict"] == R.ORDER_DIFFERS and flipped["estimate"] < 0.05
    p = pairs.set_index(["metric_a", "metric_b"]).loc[("aupr", "auroc")]
    assert flipped["estimate"] == p["p_value"] and flipped["n_tasks"] == 12 and flipped["kind"] == "test"
    # the calibrated false rate and power are in the explanation
    assert f"false rate {p['false_rate']:.3f}" in flipped["explanation"]
    assert f"power {p['power_planted_reversal']:.2f}" in flipped["explanation"]
    assert "m0" in flipped["explanation"]  # a learner that moves is named
    # the summary carries the Flach & Kull pairs' rows, shown as p-values
    h = VR.exploratory(normalise(v.reset_index()), VR.SUMMARY_EXPLORATORY)
    assert {"px.aupr_auroc.cd.order", "px.aupr_auprg.cd.order"} <= set(h["claim_id"])
    assert flipped["estimate"] == pytest.approx(2 / 2**12)  # exact: only the observed flips and their mirror
    assert f"| p = {flipped['estimate']:.2g} | {R.ORDER_DIFFERS} |" in VR.summary_markdown(v.reset_index(), study="s", tasks=None)


def test_a_study_without_shared_learners_gets_cannot_be_told_rows(tmp_path):
    """OpenML studies: every task has its own runs, so the cd job writes pairs with only a note;
    the verdict rows say "cannot be told" with that reason, never an error."""
    from prspace.cd import study_tables

    table = pd.DataFrame({"task_id": ["a", "a", "b", "b"], "model_id": ["r1", "r2", "r3", "r4"],
                          "aupr": [0.1, 0.2, 0.3, 0.4], "auroc": [0.5, 0.6, 0.7, 0.8]})
    pairs = study_tables(table, ["aupr", "auroc"], n_sim=0)["cd_metric_pairs"]
    pairs.to_csv(tmp_path / "cd_metric_pairs.csv", index=False)
    _summary().to_csv(tmp_path / "disagreement_summary.csv", index=False)
    v = VR.verdict_table(VR.collect_evidence(tmp_path)).set_index("claim_id")
    r = v.loc["px.aupr_auroc.cd.order"]
    assert r["verdict"] == R.CANNOT
    assert "not run" in r["explanation"] and pairs["note"].iloc[0] in r["explanation"]
    assert "not tested" in VR.verdicts_markdown(v.reset_index(), study="s")
