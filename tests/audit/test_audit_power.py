"""Power and sample size (:mod:`prspace.audit.simulation.audit_power`), checked against a known truth and pROC.

Known truth: two binormal models (unit variances, scores correlated 0.5 within a class).  The
method sees one sample of *equal* models and plants a difference; the truth is the detection
rate of the same test on test sets drawn from models that really differ by that much (a sample
of 200 000 rows stands in for the distribution).  pROC's ``power.roc.test`` (DeLong variances,
two paired ROC curves) is the outside oracle for AUROC.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from prspace.audit.simulation.audit_power import (
    PROC_COMPARABLE,
    Pair,
    detection_rate,
    difference,
    minimal_detectable,
    positives_needed,
    power_at,
    proc_null_ratio,
    shift_for,
)
from prspace.cli import main
from prspace.stats.delong import delong

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "audit-example.csv"
RHO = 0.5


def _binormal(rng, n_pos, n_neg, mu_a, mu_b) -> Pair:
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    z = rng.standard_normal(y.size)
    a = mu_a * y + np.sqrt(RHO) * z + np.sqrt(1 - RHO) * rng.standard_normal(y.size)
    b = mu_b * y + np.sqrt(RHO) * z + np.sqrt(1 - RHO) * rng.standard_normal(y.size)
    return Pair(y, a, b)


def test_planting_recovers_a_known_shift():
    rng = np.random.default_rng(0)
    equal = _binormal(rng, 4000, 12000, 1.2, 1.2)
    truth = _binormal(rng, 50_000, 150_000, 1.6, 1.2)
    for metric in ("auroc", "average_precision", "auprg"):
        delta = difference(truth, metric)
        c = shift_for(equal, metric, delta)
        assert difference(equal, metric, c) == pytest.approx(delta, abs=1e-5)
        assert c == pytest.approx(0.4, abs=0.06), metric  # the truth's shift of a's positives


@pytest.mark.parametrize("metric,n_pos,n_neg,sims", [("auroc", 60, 240, 1500), ("average_precision", 40, 160, 250)])
def test_planted_difference_detection_rate_matches_the_truth(metric, n_pos, n_neg, sims):
    rng = np.random.default_rng(1)
    equal = _binormal(rng, 4000, 12000, 1.2, 1.2)
    truth = _binormal(rng, 50_000, 150_000, 1.6, 1.2)
    delta = difference(truth, metric)
    ours, se1 = power_at(equal, metric, delta, n_pos=n_pos, n_neg=n_neg, sims=sims, seed=2)
    real, se2 = detection_rate(truth, metric, c=0.0, n_pos=n_pos, n_neg=n_neg, alpha=0.05, sims=sims,
                               rng=np.random.default_rng(3))
    assert 0.15 < real < 0.95  # neither trivial nor saturated
    assert abs(ours - real) <= 3 * np.hypot(se1, se2), (ours, real, se1, se2)


def test_null_detection_rate_is_the_level():
    rng = np.random.default_rng(4)
    equal = _binormal(rng, 3000, 9000, 1.2, 1.2)
    c = shift_for(equal, "auroc", 0.0)
    p, se = detection_rate(equal, "auroc", c=c, n_pos=80, n_neg=240, alpha=0.05, sims=3000,
                           rng=np.random.default_rng(5))
    assert abs(p - 0.025) <= 3 * np.sqrt(0.025 * 0.975 / 3000)  # one-sided: the planted sign only


def test_minimal_detectable_shrinks_with_size():
    rng = np.random.default_rng(6)
    pair = _binormal(rng, 2000, 6000, 1.3, 1.2)
    small = minimal_detectable(pair, "auroc", n_pos=50, n_neg=150, sims=400, steps=6)
    large = minimal_detectable(pair, "auroc", n_pos=400, n_neg=1200, sims=400, steps=6)
    assert 0 < large < small
    # at its answer the power is near the target (within the bisection's last step and MC error)
    p, _ = power_at(pair, "auroc", small, n_pos=50, n_neg=150, sims=1000, seed=9)
    assert p >= 0.8 - 0.06


R_SCRIPT = """
suppressMessages(library(pROC))
d <- read.csv(commandArgs(TRUE)[1])
r1 <- roc(d$y, d$a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(d$y, d$b, levels = c(0, 1), direction = "<", quiet = TRUE)
cat(sprintf("%.6f", power.roc.test(r1, r2, method = "delong")$power))
"""


def _has_proc() -> bool:
    if shutil.which("Rscript") is None:
        return False
    return subprocess.run(["Rscript", "-e", "library(pROC)"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _has_proc(), reason="needs R with pROC")
@pytest.mark.parametrize("seed,n_pos", [(0, 600), (3, 600), (1, 1000)])
def test_auroc_power_matches_proc(tmp_path, seed, n_pos):
    """Where power.roc.test is comparable (power.py: paired, two-sided, the data's own size, and the
    two AUCs' DeLong variances equal, ``|sqrt(V0 / VA) - 1| <= PROC_COMPARABLE``; here a binormal
    pair whose better model has the wider positive class, sd 1.25, which evens the variances):
    pROC's power.roc.test with DeLong's variances against our resampled DeLong test, within 5%
    (measured within 2.5%); and against the normal power of DeLong's own z, within 3 MC se."""
    n_neg = 3 * n_pos
    pair = _unequal(np.random.default_rng(seed), n_pos, n_neg, 1.3, 1.25, 1.0)
    pd.DataFrame({"y": pair.y.astype(int), "a": pair.a, "b": pair.b}).to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "p.R").write_text(R_SCRIPT)
    out = subprocess.run(["Rscript", str(tmp_path / "p.R"), str(tmp_path / "d.csv")], capture_output=True, text=True,
                         check=True).stdout
    proc = float(out.strip())
    ours, se = detection_rate(pair, "auroc", c=0.0, n_pos=n_pos, n_neg=n_neg, alpha=0.05, sims=1000,
                              rng=np.random.default_rng(12))
    assert 0.2 < proc < 0.95
    assert abs(proc_null_ratio(pair) - 1) <= PROC_COMPARABLE  # comparable (power.py's definition)
    assert abs(ours / proc - 1) <= 0.05, (ours, proc, se)
    est, cov = delong(pair.y, np.vstack([pair.a, pair.b]))
    z = abs(est[0] - est[1]) / np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    normal = norm.cdf(z - norm.isf(0.025))
    assert abs(ours - normal) <= 3 * se + 0.01, (ours, normal, se)


@pytest.mark.skipif(not _has_proc(), reason="needs R with pROC")
def test_auroc_positives_needed_near_proc(tmp_path):
    """Near-comparable (sqrt(V0 / VA) = 0.96 here, close AUCs of equal shapes) and the answer near the
    data's own size: power.roc.test's ncases for 80% power (1402.452, its normal approximation) and our
    simulated positives_needed agree within 12%.  The simulation is run at 1,000 planned test sets: at 400
    the answer moved from 0.92 to 1.14 of pROC's over seeds 0-2 (the MC error of a power near 0.8 is
    about 5% of the size, the search's precision another 5%), too wide to say anything; at 1,000 it sat at
    1.059, 1.094, 1.088 of pROC's over seeds 0-2 (measured 2026-11-27), a few percent above the normal
    approximation on every seed."""
    pair = _binormal(np.random.default_rng(11), 1500, 4500, 1.1, 1.0)
    pd.DataFrame({"y": pair.y.astype(int), "a": pair.a, "b": pair.b}).to_csv(tmp_path / "d.csv", index=False)
    script = R_SCRIPT.replace('cat(sprintf("%.6f", power.roc.test(r1, r2, method = "delong")$power))',
                              'cat(sprintf("%.3f", power.roc.test(r1, r2, method = "delong", power = 0.8)$ncases))')
    assert script != R_SCRIPT
    (tmp_path / "p.R").write_text(script)
    out = subprocess.run(["Rscript", str(tmp_path / "p.R"), str(tmp_path / "d.csv")], capture_output=True, text=True,
                         check=True).stdout
    ncases = float(out.strip())
    ours = positives_needed(pair, "auroc", sims=1000)
    assert abs(ours / ncases - 1) <= 0.12, (ours, ncases)


def test_power_cli_on_the_example(tmp_path, capsys):
    out = tmp_path / "power.csv"
    rc = main(["power", str(EXAMPLE), "--label-col", "diagnosis", "--pos-label", "malignant", "--metric", "auroc",
               "--positives", "30", "300", "--sims", "100", "--out", str(out)])
    assert rc == 0
    t = pd.read_csv(out)
    assert len(t) == 2 and (t["pairs"] == 10).all() and (t["alpha_pair"] == 0.005).all()
    assert t["minimal_detectable"].iloc[1] < t["minimal_detectable"].iloc[0]  # more positives, smaller
    assert "smallest difference detected with power 80%" in capsys.readouterr().out
    assert main(["power", str(EXAMPLE), "--label-col", "diagnosis", "--pos-label", "malignant",
                 "--metric", "aucnpr"]) == 2


def test_audit_result_power_api():
    from prspace import audit

    res = audit.audit(pd.read_csv(EXAMPLE), label_col="diagnosis", pos_label="malignant", n_boot=0)
    t = res.power([30, 120], metrics=("auroc",), sims=60)
    assert list(t["n_pos"]) == [30, 120] and list(t["n_neg"]) == [270, 1080]  # prevalence kept
    assert (t["model_a"] == res.ranks.set_index("model")["auroc"].idxmin()).all()
    assert t["power_observed"].iloc[1] >= t["power_observed"].iloc[0] - 3 * t["power_mc_se"].max()


def _unequal(rng, n_pos, n_neg, mu_a, sd_a, mu_b) -> Pair:
    """Binormal, model a's positives with sd ``sd_a`` (correlated 0.5 with b within a class)."""
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    z, ea, eb = rng.standard_normal((3, y.size))
    a = mu_a * y + np.where(y, sd_a, 1.0) * (np.sqrt(RHO) * z + np.sqrt(1 - RHO) * ea)
    b = mu_b * y + np.sqrt(RHO) * z + np.sqrt(1 - RHO) * eb
    return Pair(y, a, b)


PROC_PARTS = """
suppressMessages(library(pROC))
d <- read.csv(commandArgs(TRUE)[1])
n <- as.numeric(commandArgs(TRUE)[2])
r1 <- roc(d$y, d$a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(d$y, d$b, levels = c(0, 1), direction = "<", quiet = TRUE)
# the functions power.roc.test(r1, r2) calls (pROC's source), at a planned n cases (kappa kept)
cv <- pROC:::covvar(r1, r2, "delong")
cv2 <- pROC:::covvar(r2, r1, "delong")
zb <- function(c, v0c, delta) pROC:::solve.zbeta(nd = n, zalpha = qnorm(1 - 0.025), v0 = pROC:::var0.delta.covvar(v0c),
                                           va = pROC:::var.delta.covvar(c), delta = delta)
own <- power.roc.test(r1, r2, method = "delong")$power
cat(sprintf("%.10f %.10f %.10f %.10f", pnorm(zb(cv, cv, r1$auc - r2$auc)), pnorm(zb(cv2, cv2, r2$auc - r1$auc)), own,
            length(r1$cases)))
"""


def _proc_parts(tmp_path, pair: Pair, n: int) -> list[float]:
    pd.DataFrame({"y": pair.y.astype(int), "a": pair.a, "b": pair.b}).to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "p.R").write_text(PROC_PARTS)
    out = subprocess.run(["Rscript", str(tmp_path / "p.R"), str(tmp_path / "d.csv"), str(n)], capture_output=True,
                         text=True, check=True).stdout
    return [float(x) for x in out.split()]


@pytest.mark.skipif(not _has_proc(), reason="needs R with pROC")
def test_proc_power_is_obuchowski_with_the_first_curves_null_variance(tmp_path):
    """power.roc.test(r1, r2) is Phi((|d| sqrt(n) - z sqrt(V0)) / sqrt(VA)), V0 = 2 (v1 - c12) from the
    first curve, VA = v1 + v2 - 2 c12 (power.py's docstring), computed here from our DeLong
    covariance: the reading of pROC's source that explains the unequal-variance gap."""
    pair = _unequal(np.random.default_rng(21), 300, 900, 1.4, 2.0, 0.9)
    n = int(pair.y.sum())
    _, _, own, cases = _proc_parts(tmp_path, pair, n)
    est, cov = delong(pair.y, np.vstack([pair.a, pair.b]))
    va = n * (cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    v0 = n * 2 * (cov[0, 0] - cov[0, 1])
    formula = norm.cdf((abs(est[0] - est[1]) * np.sqrt(n) - norm.isf(0.025) * np.sqrt(v0)) / np.sqrt(va))
    assert cases == n and own == pytest.approx(formula, abs=1e-8)
    assert abs(proc_null_ratio(pair) - 1) > 5 * PROC_COMPARABLE  # not comparable here


@pytest.mark.skipif(not _has_proc(), reason="needs R with pROC")
@pytest.mark.parametrize("mu_a,sd_a,mu_b", [(2.6, 3.0, 1.0), (1.2, 1.0, 0.9)])
def test_unequal_variances_the_known_truth_supports_the_resampled_power(tmp_path, mu_a, sd_a, mu_b):
    """Where the two AUCs' DeLong variances differ (a positive class three times as wide; or equal
    shapes but different AUCs), the DeLong test's real detection rate on fresh test sets from the
    binormal truth (n = 100 positives, 300 negatives) is our resampled power (within 3 MC se plus the
    population sample's own error, 0.02) and not pROC's, which lies more than 5% (plus 3 MC se) of the
    truth away, on the side its argument order picks.  Measured: truth 0.19 / 0.63, ours 0.21 / 0.66,
    pROC 0.12 / 0.74 (arguments swapped: 0.31 / 0.57)."""
    sims, n_pos, n_neg = 1500, 100, 300
    population = _unequal(np.random.default_rng(22), 100_000, 300_000, mu_a, sd_a, mu_b)
    ours, se1 = detection_rate(population, "auroc", c=0.0, n_pos=n_pos, n_neg=n_neg, alpha=0.05, sims=sims,
                               rng=np.random.default_rng(23))
    rng = np.random.default_rng(24)
    hits = np.zeros(sims, dtype=bool)
    for s in range(sims):
        p = _unequal(rng, n_pos, n_neg, mu_a, sd_a, mu_b)
        est, cov = delong(p.y, np.vstack([p.a, p.b]))
        d = est[0] - est[1]
        hits[s] = d > 0 and d / np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]) > norm.isf(0.025)
    truth = hits.mean()
    se2 = np.sqrt(truth * (1 - truth) / sims)
    proc, proc_swapped, _, _ = _proc_parts(tmp_path, population, n_pos)
    assert 0.1 < truth < 0.9
    assert abs(ours - truth) <= 3 * np.hypot(se1, se2) + 0.02, (ours, truth)
    assert abs(proc / truth - 1) > 0.05 + 3 * se2 / truth, (proc, truth)
    assert (proc - truth) * (proc_swapped - truth) < 0  # the order of pROC's arguments decides the side
    assert abs(proc_null_ratio(population) - 1) > PROC_COMPARABLE


@pytest.mark.parametrize("metric", ["auroc", "aupr"])
def test_a_rate_compared_with_a_target_tests_sets_until_decided_with_the_full_answer(metric, monkeypatch):
    """The searches (positives needed, smallest difference) only ask whether a power reaches the target:
    detection_rate(need=...) draws the same sets and stops testing once that is decided.  Its answer to
    'rate >= need / sims' is the full rate's at every size, and far from the target it tests fewer sets."""
    import prspace.audit.simulation.power_tests as PT

    rng = np.random.default_rng(21)
    pair = _binormal(rng, 600, 1800, 1.45, 1.2)
    tested = []
    real = PT.left_out_replicates_sets  # the sets tested: the chunks' sizes (its fourth argument)
    monkeypatch.setattr(PT, "left_out_replicates_sets", lambda *a, **k: tested.extend([1] * a[3]) or real(*a, **k))
    real_delong = PT._delong_reject
    monkeypatch.setattr(PT, "_delong_reject", lambda y, sa, *a: tested.extend([1] * sa.shape[0]) or real_delong(y, sa, *a))
    sims, target = 60, 0.8
    need = PT.need_for(target, sims)
    assert need == 48 and need / sims >= target > (need - 1) / sims
    fewer = False
    for n_pos in (5, 40, 150, 400):
        kw = {"c": 0.0, "n_pos": n_pos, "n_neg": 3 * n_pos, "alpha": 0.01, "sims": sims}
        tested.clear()
        full, _ = detection_rate(pair, metric, rng=np.random.default_rng(3), **kw)
        n_full = len(tested)
        tested.clear()
        early, _ = detection_rate(pair, metric, rng=np.random.default_rng(3), need=need, **kw)
        assert (early >= target) == (full >= target), (n_pos, full, early)
        assert early <= full
        fewer = fewer or len(tested) < n_full
    assert fewer


def test_search_on_the_grid_from_a_guess_lands_where_the_bisection_does():
    """smallest_on_grid from any guess returns the bisection's grid point (closed form: the first j that reaches)
    for a power rising along the grid, and the bisection's own float (grid_value); a good guess costs few powers."""
    from prspace.audit.simulation.power_search import grid_value, smallest_on_grid

    steps, top = 5, 0.3
    mids = {}

    def bisect(first):  # the search as it was: top first, then steps halvings of (0, top]
        lo, hi = 0.0, top
        for _ in range(steps):
            mid = 0.5 * (lo + hi)
            j = round(mid / top * 2**steps)
            mids[j] = mid
            lo, hi = (lo, mid) if j >= first else (mid, hi)
        return hi

    for first in range(1, 2**steps + 2):
        asked = []

        def reaches(j, first=first, asked=asked):
            asked.append(j)
            return j >= first

        plain = smallest_on_grid(reaches, steps)
        assert plain == (first if first <= 2**steps else None)
        if plain is not None:
            assert grid_value(top, plain, steps) == bisect(first)
        for guess in (0.2, first - 0.4, first + 0.3, first + 3, 2**steps + 7.0):
            asked.clear()
            assert smallest_on_grid(reaches, steps, guess) == plain, (first, guess)
            if abs(guess - first) < 1 and first <= 2**steps:
                assert len(asked) <= 2
    assert all(grid_value(top, j, steps) == mid for j, mid in mids.items())


def test_size_search_from_a_guess_brackets_the_answer_to_five_percent():
    """smallest_size with and without a guess, on a power rising with the size (a closed form): the answer is the top
    of a bracket (lo, hi] whose powers miss and reach the target, hi - lo <= max(1, lo // 20); NaN above the cap."""
    from scipy.stats import norm as sp_norm

    from prspace.audit.simulation.power_search import size_guess, smallest_size

    for truth in (3, 17, 260, 4321, 30_000):
        def power(m, truth=truth):  # Phi(d sqrt(m) / sigma - z) with power 0.8 from m = truth on
            return float(sp_norm.cdf((sp_norm.isf(0.025) + sp_norm.ppf(0.8)) * np.sqrt(m / truth) - sp_norm.isf(0.025)))

        for guess in (float("nan"), truth, truth * 0.6, truth * 1.7, 5.0, 1e9):
            got = smallest_size(power, 0.8 - 1e-12, lo=1, hi=4, cap=20_000, guess=guess)
            if truth > 20_000:
                assert np.isnan(got), guess
                continue
            assert truth <= got <= max(truth + 1, truth * 1.06), (truth, guess, got)
    # the normal approximation's size, from the se at 100 units: the size whose power is the target
    se = 0.02
    m = size_guess(0.05, se, 100, 0.05, 0.8)
    assert sp_norm.cdf(0.05 / (se * np.sqrt(100 / m)) - sp_norm.isf(0.025)) == pytest.approx(0.8)


def test_searches_from_the_guess_answer_as_the_plain_searches():
    """On a binormal population the smallest difference from the data's guess is the plain bisection's (se NaN: no
    guess), float for float, and the positives needed agree within the search's 5% and Monte Carlo error."""
    pair = _binormal(np.random.default_rng(12), 400, 1200, 1.3, 1.2)
    for metric in ("auroc", "average_precision"):
        kw = {"n_pos": 100, "n_neg": 300, "sims": 100, "steps": 5}
        assert minimal_detectable(pair, metric, **kw) == minimal_detectable(pair, metric, se=float("nan"), **kw)
    guessed = positives_needed(pair, "auroc", sims=100)
    plain = positives_needed(pair, "auroc", sims=100, se=float("nan"))
    assert abs(guessed / plain - 1) <= 0.15, (guessed, plain)
