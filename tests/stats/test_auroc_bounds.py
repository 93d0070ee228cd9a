"""The range of AUPR / AP / AUPRG at a given AUROC (prspace.stats.auroc_bounds), its audit table and study command.

Oracle: exhaustive enumeration of every tie-free ranking of P positives and N negatives
(P + N <= 12), scored by the public metrics of prspace.metrics.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from prspace.metrics import aupr, aupr_min, auprg, auroc, average_precision
from prspace.stats import auroc_bounds as B

METRIC_FN = {"ap": average_precision, "aupr": aupr, "auprg": auprg}


def _rankings(p: int, n: int):
    """Every tie-free ranking: labels top to bottom, scores strictly decreasing."""
    s = np.arange(p + n, 0, -1, dtype=np.float64)
    for pos in itertools.combinations(range(p + n), p):
        y = np.zeros(p + n)
        y[list(pos)] = 1
        yield y, s


def _brute(p: int, n: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    lo = {k: np.full(p * n + 1, np.inf) for k in METRIC_FN}
    hi = {k: np.full(p * n + 1, -np.inf) for k in METRIC_FN}
    for y, s in _rankings(p, n):
        m = round((1.0 - auroc(y, s)) * p * n)
        for k, f in METRIC_FN.items():
            v = f(y, s)
            lo[k][m] = min(lo[k][m], v)
            hi[k][m] = max(hi[k][m], v)
    return {k: (lo[k], hi[k]) for k in METRIC_FN}


SIZES = [(p, t - p) for t in range(2, 13) for p in range(1, t)]


@pytest.mark.parametrize(("p", "n"), SIZES)
def test_exact_extremes_equal_exhaustive_enumeration(p, n):
    brute = _brute(p, n)
    for k in METRIC_FN:
        lo, hi = B.exact_extremes(p, n, k)
        np.testing.assert_allclose(lo, brute[k][0], rtol=0, atol=1e-12, err_msg=f"{k} min, P={p} N={n}")
        np.testing.assert_allclose(hi, brute[k][1], rtol=0, atol=1e-12, err_msg=f"{k} max, P={p} N={n}")


def test_metrics_are_sums_of_one_term_per_positive():
    """The separability the programme rests on, on random rankings larger than the enumeration."""
    rng = np.random.default_rng(3)
    for _ in range(30):
        p, n = int(rng.integers(1, 25)), int(rng.integers(1, 60))
        y = rng.permutation(np.r_[np.ones(p), np.zeros(n)])
        s = np.arange(p + n, 0, -1, dtype=np.float64)
        m_k = np.cumsum(1 - y)[y == 1].astype(int)
        for k, f in METRIC_FN.items():
            phi = B.contributions(k, p, n)
            assert phi[np.arange(p), m_k].sum() == pytest.approx(f(y, s), abs=1e-12)


def test_maximum_ap_structure():
    """The brief's conjecture (a block of positives, all negatives, the rest: m = (0^a, c, N^rest), one
    positive inside the negatives) is NOT always the maximiser: P=4, N=6, M=22 needs (5, 5, 6, 6).
    The family (0^a, c^b, (c+1)^d, N^rest) (the continuum's extreme points, FPR 0, one level c, then
    1, with c rounded to two adjacent integers) attains the maximum AP at every M of these sizes."""
    def family_best(p, n, blocks, rounding):
        phi = B.contributions("ap", p, n)
        best = np.full(p * n + 1, -np.inf)
        for a in range(p + 1):
            for b in blocks(p - a):
                for d in (range(p - a - b + 1) if rounding else [0]):
                    for c in range(n):
                        m = np.r_[np.zeros(a), np.full(b, c), np.full(d, c + 1), np.full(p - a - b - d, n)]
                        m = m.astype(int)
                        best[m.sum()] = max(best[m.sum()], phi[np.arange(p), m].sum())
        return best

    _, hi = B.exact_extremes(4, 6, "ap")
    simple = family_best(4, 6, lambda rest: [min(rest, 1)], False)
    assert simple[22] < hi[22] - 5e-4
    for p, n in [(4, 6), (5, 7), (6, 9), (3, 11), (7, 5)]:
        _, hi = B.exact_extremes(p, n, "ap")
        np.testing.assert_allclose(family_best(p, n, lambda rest: range(rest + 1), True), hi, atol=1e-12)


def test_minimum_is_not_negatives_first():
    """The minimum AP interleaves (P=4, N=6, M=16: 3, 4, 4, 5 negatives above the positives)."""
    lo, _ = B.exact_extremes(4, 6, "ap")
    negatives_first = B.contributions("ap", 4, 6)[np.arange(4), [4, 4, 4, 4]].sum()
    assert lo[16] < negatives_first - 1e-3
    assert lo[16] == pytest.approx(B.contributions("ap", 4, 6)[np.arange(4), [3, 4, 4, 5]].sum(), abs=1e-12)


def test_continuum_closed_forms():
    for pi in (0.05, 0.2, 0.5, 0.8):
        # AUROC 0: the worst ranking; AUROC 1: the perfect one
        assert B.continuum_range(0.0, pi, "aupr")[1] == pytest.approx(aupr_min(pi), abs=1e-12)
        assert B.continuum_range(0.0, pi, "aupr")[0] == pytest.approx(aupr_min(pi), abs=1e-12)
        assert B.continuum_range(1.0, pi, "aupr") == (1.0, 1.0)
        assert B.continuum_range(0.0, pi, "auprg")[0] == pytest.approx(1 - (1 + pi) / (2 * pi), abs=1e-12)
        for a in (0.3, 0.7, 0.95):
            lo, hi = B.continuum_range(a, pi, "aupr")
            assert hi == pytest.approx(1 + (1 - pi) / pi * math.log(1 - pi * (1 - a)), abs=1e-12)
            assert lo < hi
            # the closed form is the best of all extreme points f = c 1[t <= r < s] + 1[r >= s]
            t, s, c = B._extreme_points(1 - a)
            one, zero = np.ones_like(t), np.zeros_like(t)
            v = B._pr_block(pi, zero, zero, t) + B._pr_block(pi, c, t, s) + B._pr_block(pi, one, s, one)
            assert v.max() == pytest.approx(hi, abs=1e-12)
            # AUPRG: closed-form minimum and 1-d maximum against every extreme point of the 2-d grid
            g = B._auprg_extreme_values(pi, 1 - a)
            glo, ghi = B.continuum_range(a, pi, "auprg")
            assert g.min() - 1e-2 <= glo <= g.min() + 1e-12  # the grid misses t = pi exactly
            assert g.max() - 1e-12 <= ghi <= g.max() + 1e-4


def test_continuum_minimum_beats_random_monotone_rocs():
    """No random monotone FPR(TPR) with the same area under it goes below the searched minimum."""
    rng = np.random.default_rng(0)
    r = (np.arange(2000) + 0.5) / 2000
    for pi in (0.1, 0.5):
        for a in (0.6, 0.9):
            u = 1 - a
            lo, hi = B.continuum_range(a, pi, "aupr")
            glo, ghi = B.continuum_range(a, pi, "auprg")
            for _ in range(300):
                f = np.sort(rng.random(2000) ** rng.uniform(0.2, 5))
                f = np.clip(f * u / f.mean(), 0, 1)  # scaling may clip: fix the area by bisection on a shift
                lo_s, hi_s = -1.0, 1.0
                for _ in range(60):
                    mid = (lo_s + hi_s) / 2
                    lo_s, hi_s = (mid, hi_s) if np.clip(f + mid, 0, 1).mean() < u else (lo_s, mid)
                f = np.clip(f + hi_s, 0, 1)
                v = np.mean(pi * r / (pi * r + (1 - pi) * f))
                g = 1 - pi / (1 - pi) * np.mean(np.where(r >= pi, f / r**3, 0.0))
                assert lo - 2e-3 <= v <= hi + 2e-3
                assert glo - 2e-2 <= g <= ghi + 2e-2


@pytest.mark.parametrize("metric", B.METRICS)
def test_continuum_is_the_limit_of_the_exact_range(metric):
    grid = np.array([0.5, 0.7, 0.9])
    errs = []
    for p, n in [(5, 20), (10, 40), (20, 80)]:
        lo, hi = B.exact_extremes(p, n, metric)
        e = 0.0
        for a in grid:
            m = round((1 - a) * p * n)
            clo, chi = B.continuum_range(1 - m / (p * n), p / (p + n), metric)
            e = max(e, abs(lo[m] - clo), abs(hi[m] - chi))
        errs.append(e)
    assert errs[-1] < 0.05
    assert errs[-1] < errs[0]


def test_range_and_flip_rule():
    lo, hi = B.aupr_range(0.9, 10, 30)
    exact_lo, exact_hi = B.exact_extremes(10, 30, "aupr")
    assert (lo, hi) == (exact_lo[30], exact_hi[30])
    assert B.range_with_method(0.9, 10, 30, "aupr")[2] == "exact"
    assert B.range_with_method(0.9, 1000, 3000, "aupr")[2] == "continuum"
    assert B.range_with_method(0.9, 10.5, 30, "aupr")[2] == "continuum"  # weighted counts
    # a perfect ranking against a random one: the order is forced
    fb = B.order_can_flip(1.0, 0.5, 5, 20, "aupr")
    assert not fb.can_flip and fb.diff_lo > 0
    assert fb.diff_lo == pytest.approx(fb.range_a[0] - fb.range_b[1])
    assert fb.diff_hi == pytest.approx(fb.range_a[1] - fb.range_b[0])
    # largest_flip_gap is exact on the achievable AUROCs
    a = 1 - 3 / 50
    g = B.largest_flip_gap(a, 5, 10, "ap")
    assert B.order_can_flip(a, a - g, 5, 10, "ap").can_flip
    assert not B.order_can_flip(a, a - g - 1 / 50, 5, 10, "ap").can_flip
    with pytest.raises(ValueError, match="metric"):
        B.aupr_range(0.9, 5, 5, metric="f1")
    with pytest.raises(ValueError, match="auroc"):
        B.aupr_range(1.5, 5, 5)
    with pytest.raises(ValueError, match="too large"):
        B.exact_extremes(500, 500, "aupr")


def _binormal(rng, p, n, shift):
    y = np.r_[np.ones(p), np.zeros(n)]
    return y, rng.normal(shift * y, 1.0)


def test_flip_rule_calibrated_by_simulation():
    """False 'cannot flip' rate (a flip observed where the rule says it cannot) is 0 on tie-free scores;
    power: the rule forces the order on a large planted AUROC gap."""
    rng = np.random.default_rng(11)
    false, forced_big = 0, 0
    n_sim = 400
    for _ in range(n_sim):
        p, n = int(rng.integers(3, 15)), int(rng.integers(5, 40))
        ya, sa = _binormal(rng, p, n, rng.uniform(0, 3))
        yb, sb = _binormal(rng, p, n, rng.uniform(0, 3))
        aa, ab = auroc(ya, sa), auroc(yb, sb)
        if aa < ab:
            (ya, sa, aa), (yb, sb, ab) = (yb, sb, ab), (ya, sa, aa)
        for k, f in METRIC_FN.items():
            fb = B.order_can_flip(aa, ab, p, n, k)
            d = f(ya, sa) - f(yb, sb)
            assert fb.diff_lo - 1e-12 <= d <= fb.diff_hi + 1e-12
            false += (d < 0) and not fb.can_flip
    assert false == 0
    # planted: a strong model (shift 4) against a useless one (shift 0), P = 10, N = 30
    for _ in range(100):
        ya, sa = _binormal(rng, 10, 30, 4.0)
        yb, sb = _binormal(rng, 10, 30, 0.0)
        forced_big += not B.order_can_flip(auroc(ya, sa), auroc(yb, sb), 10, 30, "aupr").can_flip
    assert forced_big >= 80


def test_tied_scores_can_leave_the_tie_free_range():
    """Stated limitation: all scores tied give AP = pi at AUROC 0.5, below the tie-free minimum."""
    y = np.r_[np.ones(3), np.zeros(9)]
    s = np.zeros(12)
    lo, _ = B.aupr_range(auroc(y, s), 3, 9, metric="ap")
    assert average_precision(y, s) < lo


# --------------------------------------------------------------------------------------- audit

def _frame(rng, p=15, n=45):
    rows = []
    y = np.r_[np.ones(p), np.zeros(n)]
    for name, shift in (("strong", 3.0), ("medium", 1.0), ("weak", 0.2)):
        s = rng.normal(shift * y, 1.0)
        rows.append(pd.DataFrame({"model": name, "y_true": y.astype(int), "score": s, "row_id": np.arange(p + n)}))
    return pd.concat(rows, ignore_index=True)


def test_audit_table_api_and_reports(tmp_path):
    from prspace.audit import audit
    from prspace.audit.audit_files import write_outputs
    from prspace.audit.inference.bounds import BOUND_COLUMNS

    res = audit(_frame(np.random.default_rng(2)), n_boot=0)
    t = res.auroc_bounds
    assert list(t.columns) == BOUND_COLUMNS
    assert len(t) == 3 * 3  # 3 pairs x 3 metrics
    assert (t["auroc_a"] >= t["auroc_b"]).all()
    assert set(t["method"]) == {"exact"}
    strong_weak = t[(t["model_a"] == "strong") & (t["model_b"] == "weak") & (t["metric"] == "aupr")].iloc[0]
    fb = B.order_can_flip(strong_weak["auroc_a"], strong_weak["auroc_b"], 15, 45, "aupr")
    assert strong_weak["can_flip"] == fb.can_flip and strong_weak["diff_lo"] == pytest.approx(fb.diff_lo)
    assert ("could flip" in strong_weak["sentence"]) == fb.can_flip
    assert ("cannot flip" in strong_weak["sentence"]) != fb.can_flip
    text = res.to_text()
    assert "What the AUROCs allow" in text and "AUPRG: an AUROC lead fixes the AUPRG order only beyond" in text
    assert "What the AUROCs allow" in res.to_markdown() and "What the AUROCs allow" in res.to_html(figures={})
    write_outputs(res, tmp_path, source="x")
    assert pd.read_csv(tmp_path / "auroc_bounds.csv").shape == t.shape


# --------------------------------------------------------------------------------------- study

def _metrics_table(rng):
    rows = []
    for task, (p, n) in {"t-small": (8, 30), "t-big": (400, 1600)}.items():
        y = np.r_[np.ones(p), np.zeros(n)]
        for j in range(5):
            s = rng.normal(rng.uniform(0.5, 1.5) * y, 1.0)
            rows.append({"task_id": task, "model_id": f"m{j}", "n": p + n, "n_pos": p, "auroc": auroc(y, s),
                         "aupr": aupr(y, s), "auprg": auprg(y, s)})
    return pd.DataFrame(rows)


def test_study_flip_table_and_cli(tmp_path):
    from prspace.experiments.ranking.auroc_flips import FLIP_COLUMNS, flip_summary, flip_table

    rng = np.random.default_rng(5)
    m = _metrics_table(rng)
    # plant a top-1 disagreement on the small task: m0 best by AUROC, m1 best by AUPR
    m.loc[(m.task_id == "t-small") & (m.model_id == "m0"), ["auroc", "aupr"]] = [0.95, 0.50]
    m.loc[(m.task_id == "t-small") & (m.model_id == "m1"), ["auroc", "aupr"]] = [0.94, 0.90]
    t = flip_table(m)
    assert list(t.columns) == FLIP_COLUMNS and len(t) == 4
    row = t[(t.task_id == "t-small") & (t.metric == "aupr")].iloc[0]
    assert (row.model_auroc, row.model_metric, bool(row.top1_differs)) == ("m0", "m1", True)
    assert row.auroc_gap == pytest.approx(0.01)
    assert row.max_flip_gap == pytest.approx(B.largest_flip_gap(0.95, 8, 30, "aupr"))
    assert bool(row.permitted) == B.order_can_flip(0.95, 0.94, 8, 30, "aupr").can_flip
    assert row.tightness == pytest.approx(row.auroc_gap / row.max_flip_gap)
    s = flip_summary(t)
    d = t[t.top1_differs.astype(bool)]
    for metric in ("aupr", "auprg"):
        sr = s[s.metric == metric].iloc[0]
        dd = d[d.metric == metric]
        assert sr.n_top1_differs == len(dd) and sr.n_permitted == int(dd.permitted.astype(bool).sum())
    path = tmp_path / "metrics.csv"
    m.to_csv(path, index=False)
    out = tmp_path / "tables" / "auroc_bounds.csv"
    step = [sys.executable, "-m", "prspace", "step", "auroc_bounds", "--tables-dir", str(out.parent)]
    r = subprocess.run([*step, "--in", f"metrics={path}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    written = pd.read_csv(out)
    assert len(written) == 4 + 2 and (written.task_id == "all").sum() == 2
    assert out.with_suffix(".md").exists()
    r = subprocess.run([*step, "--in", f"metrics={tmp_path / 'no.csv'}"], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "no file at" in r.stderr


def test_flip_rows_are_order_can_flip_and_largest_flip_gap_per_pair():
    from prspace.stats.auroc_bounds import flip_rows, largest_flip_gap, order_can_flip

    aurocs = [0.99, 0.97, 0.7, 0.6]
    pairs = [(0, 3), (0, 1), (0, 2), (1, 2), (2, 3)]  # (0, 3) cannot flip, (0, 1) can
    for metric in ("aupr", "ap"):
        every = flip_rows(aurocs, pairs, 100, 100, metric)
        lazy = flip_rows(aurocs, pairs, 100, 100, metric, every_gap=False)
        seen = set()
        for (i, j), r, q in zip(pairs, every, lazy, strict=True):
            fb = order_can_flip(aurocs[i], aurocs[j], 100, 100, metric)
            assert (r["can_flip"], r["diff_lo"], r["diff_hi"], r["method"]) == (
                fb.can_flip, fb.diff_lo, fb.diff_hi, fb.method)
            assert r["max_flip_gap"] == largest_flip_gap(aurocs[i], 100, 100, metric)
            seen |= {i} if r["can_flip"] else set()
            # the audit's lazy gaps: a model's gap from its first pair that can flip on, NaN before
            assert q["max_flip_gap"] == r["max_flip_gap"] if i in seen else np.isnan(q["max_flip_gap"])
        assert [r["can_flip"] for r in every] == [False, True, False, False, True]
        assert np.isnan(lazy[0]["max_flip_gap"]) and lazy[2]["max_flip_gap"] == every[2]["max_flip_gap"]
