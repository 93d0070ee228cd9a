"""The coverage of the procedure a study runs, counted in a nested simulation (issue 80.1,
:mod:`prspace.stats.nested.procedure`): checked at smoke size against closed forms on studies made here."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from prspace.core.errors import InputError
from prspace.stats import cluster_bootstrap as CB
from prspace.stats.nested import procedure as NP

#: smoke size: 200 simulated studies, each its own bootstrap-t (400 t*) and double bootstrap (100 x 100)
SMOKE = NP.Settings(studies=200, boot=400, outer=100, inner=100)


def _normal_study(F: int = 30, seed: int = 0) -> list[CB.Stat]:
    """One task per family, its value standard normal: the mean over tasks, unbounded (no working scale)."""
    x = np.random.default_rng(seed).standard_normal(F)
    return [CB.ratio_stat(x, np.arange(F))]


def _z(p: float) -> float:
    """Standard normal CDF."""
    return 0.5 * (1.0 + math.erf(p / math.sqrt(2.0)))


def test_the_procedure_covers_a_normal_mean_at_its_level():
    """A normal mean (the study as population, its mean the truth): the bootstrap-t with its own double
    bootstrap covers at its level within 3 MC SE, at 95% and at 50% (the closed form of a pivot that is
    nearly normal); the sign-flip test's interval (exact for symmetric contributions) likewise at 95%."""
    stats = _normal_study()
    truth = np.array([stats[0].S.sum() / stats[0].N.sum()])
    for level in (0.95, 0.5):
        out = NP.procedure_coverage(stats, truth, "bootstrap-t", SMOKE, seed=1, level=level)
        print(f"bootstrap-t at {level}: {out['coverage'][0]:.3f} +- {out['mc_se'][0]:.3f} (plain {out['plain'][0]:.3f})")
        se = math.sqrt(level * (1 - level) / SMOKE.studies)
        assert abs(out["coverage"][0] - level) <= 3 * se and out["n"][0] == SMOKE.studies
        assert out["miss_below"][0] + out["miss_above"][0] == pytest.approx(1.0 - out["coverage"][0])
    sf = NP.procedure_coverage(stats, truth, "sign-flip", NP.Settings(studies=200, boot=2, outer=100, inner=2), seed=2)
    print(f"sign-flip at 0.95: {sf['coverage'][0]:.3f} +- {sf['mc_se'][0]:.3f}")
    assert abs(sf["coverage"][0] - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / 200)


def test_an_interval_moved_by_one_and_a_half_standard_errors_is_caught(monkeypatch):
    """An intentionally broken procedure, its interval moved up by 1.5 SE of the mean: its coverage is the closed
    form P(|Z - 1.5| <= t) with t the 97.5% point of Student's t with F - 1 = 29 df (2.045): 0.707, within 3 MC SE,
    and more than 4 MC SE below 95%, the truth missed below its lower end (the double bootstrap widens the interval a
    little beyond Student's: its coverage comes out a few points above the closed form)."""
    stats = _normal_study()
    truth = np.array([stats[0].S.sum() / stats[0].N.sum()])
    real = NP.interval_of

    def moved(st, method, settings, seed, *, level=0.95):
        lo, hi, plo, phi = real(st, method, settings, seed, level=level)
        x = st[0].S[:, 0]
        shift = 1.5 * x.std(ddof=1) / math.sqrt(len(x))  # the simulated study's own SE of its mean
        return lo + shift, hi + shift, plo + shift, phi + shift

    monkeypatch.setattr(NP, "interval_of", moved)
    out = NP.procedure_coverage(stats, truth, "bootstrap-t", SMOKE, seed=3)
    closed = _z(2.045 - 1.5) - _z(-2.045 - 1.5)
    se = math.sqrt(closed * (1 - closed) / SMOKE.studies)
    print(f"moved interval: {out['coverage'][0]:.3f} +- {out['mc_se'][0]:.3f}; closed form {closed:.3f}")
    assert abs(out["coverage"][0] - closed) <= 3 * se
    assert out["coverage"][0] < 0.95 - 4 * out["mc_se"][0] and out["miss_below"][0] > out["miss_above"][0]


def test_a_simulated_study_is_the_drawn_families():
    """:func:`resampled`: every family once in order gives the study back (a mean's sums, a quartile's estimate
    and indicator); one family drawn twice is counted twice, and a quartile is the drawn tasks' own."""
    x = np.array([0.1, 0.5, 0.2, 0.9, 0.4, 0.7])
    fam = np.array([0, 0, 1, 1, 2, 2])
    mean, q = CB.ratio_stat(x, fam), CB.quantile_stat(x, fam, 0.25)
    same = NP.resampled([mean, q], np.arange(3))
    assert np.array_equal(same[0].S, mean.S) and np.array_equal(same[1].S, q.S) and np.array_equal(same[1].N, q.N)
    two = NP.resampled([mean, q], np.array([2, 2, 0]))
    assert two[0].S[:, 0].tolist() == pytest.approx([1.1, 1.1, 0.6])
    drawn = np.array([0.4, 0.7, 0.4, 0.7, 0.1, 0.5])
    est = float(np.quantile(drawn, 0.25))
    assert float(np.quantile(two[1].x, 0.25)) == pytest.approx(est)
    assert two[1].S[:, 0].tolist() == [float((np.array([0.4, 0.7]) <= est).sum())] * 2 + [float((np.array([0.1, 0.5]) <= est).sum())]


def test_bad_settings_say_which_and_how_to_fix():
    with pytest.raises(InputError, match="procedure_inner must be an integer >= 2"):
        NP.Settings(studies=10, boot=10, outer=10, inner=1)


def test_every_primary_row_of_a_study_gets_its_procedure_coverage(tmp_path):
    """The verdict table of a small study (20 families), the nested simulation at smoke size: every primary row of
    Flach & Kull has its procedure coverage, MC SE, simulated studies and inner resamples, its explanation names
    it apart from the oracle's; without settings the columns are empty."""
    from prspace.verdicts import study_evidence as EV

    rng = np.random.default_rng(0)
    rows = []
    for t in range(40):
        for a, b in (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc")):
            rows.append(dict(task_id=f"t{t:02d}", metric_a=a, metric_b=b, n_models=10,
                             top1_differs=bool(rng.random() < 0.3), top3_differs=bool(rng.random() < 0.6),
                             spearman=float(np.clip(0.8 + 0.1 * rng.standard_normal(), -1, 1)), kendall=0.7))
    pd.DataFrame(rows).to_csv(tmp_path / "disagreement_per_task.csv", index=False)
    pd.DataFrame({"task_id": [f"t{t:02d}" for t in range(40)], "family": [f"f{t // 2}" for t in range(40)]}
                 ).to_csv(tmp_path / "tasks.csv", index=False)
    s = NP.Settings(studies=4, boot=100, outer=20, inner=20)
    ev = EV.collect_evidence(tmp_path, n_boot=2000, seed=1, power=False, procedure=s)
    v = EV.verdict_table(ev)
    prim = v[v["claim_id"].str.startswith("fk.")]
    assert len(prim) == 14
    assert prim["procedure_coverage"].between(0, 1).all() and (prim["procedure_coverage_n"] == 4).all()
    assert (prim["procedure_coverage_inner"] == 20).all() and prim["procedure_coverage_mc_se"].notna().all()
    assert prim["oracle_coverage"].notna().all() and "coverage" not in v.columns
    assert all("the procedure this study runs" in e and "oracle's coverage" in e for e in prim["explanation"])
    none = EV.verdict_table(EV.collect_evidence(tmp_path, n_boot=2000, seed=1, power=False))
    assert none.loc[none["claim_id"].str.startswith("fk."), "procedure_coverage"].isna().all()


@pytest.mark.parametrize("study", ["default", "paperlike"])
def test_every_committed_primary_row_states_the_coverage_of_its_procedure(study):
    """Issue 80.1 in the committed tables: every primary row with an interval carries its procedure's coverage
    (simulated studies as configured, MC SE binomial over them, inner resamples for a bootstrap-t row), named
    apart from the oracle's in its explanation; a row short of 95% by more than 2 MC SE says so."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "results" / study / "tables" / "verdicts.csv"
    v = pd.read_csv(path, keep_default_na=False, na_values=[""])
    prim = v[(v["role"] == "primary") & v["p_diff"].notna()]
    assert len(prim) and {"oracle_coverage", "procedure_coverage"} <= set(v.columns) and "coverage" not in v.columns
    # an exact (Clopper-Pearson) interval covers its level by construction: no procedure coverage (issue 80.7)
    exact = prim["explanation"].str.contains("exact binomial (Clopper-Pearson) interval", regex=False)
    assert prim.loc[exact, "procedure_coverage"].isna().all()
    for _, r in prim[~exact].iterrows():
        cov, se, n = r["procedure_coverage"], r["procedure_coverage_mc_se"], r["procedure_coverage_n"]
        assert 0 <= cov <= 1 and n >= 100 and se == pytest.approx(math.sqrt(cov * (1 - cov) / n), abs=2e-6), r["claim_id"]
        assert "the procedure this study runs" in r["explanation"], r["claim_id"]
        assert ("short of its 95% by more than 2 MC SE" in r["explanation"]) == (cov < 0.95 - 2 * se), r["claim_id"]
        if r["claim_id"].startswith("fk."):
            assert r["procedure_coverage_inner"] >= 100, r["claim_id"]
