"""prspace.metrics against oracles no one here wrote: scikit-learn, the PRG authors' reference
code (pyprg) and the papers' closed forms; plus independent numeric integrals."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate
from sklearn import metrics as skm

from _pyprg_compat import ReferenceError_, prg, reference_auprg, reference_curve
from prspace import metrics as M


def _random_cases(seed: int, n_cases: int, max_n: int = 40):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n_cases:
        n = int(rng.integers(2, max_n))
        y = (rng.random(n) < rng.uniform(0.05, 0.95)).astype(int)
        if y.sum() in (0, n):
            continue
        kind = len(out) % 3
        if kind == 0:
            s = rng.normal(size=n)  # no ties
        elif kind == 1:
            s = rng.integers(0, int(rng.integers(1, 6)), n).astype(float)  # heavy ties
        else:
            s = np.round(rng.random(n) + 0.3 * y, 1)  # informative, some ties
        out.append((y, s))
    return out


CASES = _random_cases(0, 240)


# --------------------------------------------------------------------------------------------
# scikit-learn
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(0, 240, 7))
def test_auroc_and_average_precision_equal_sklearn(i):
    y, s = CASES[i]
    assert M.auroc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert M.average_precision(y, s) == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)
    assert M.aupr(y, s, interpolation="step") == pytest.approx(
        skm.average_precision_score(y, s), abs=1e-12
    )


def test_all_random_cases_equal_sklearn():
    for y, s in CASES:
        d = M.all_metrics(y, s)
        assert d["auroc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
        assert d["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)


def test_weighted_metrics_equal_sklearn():
    rng = np.random.default_rng(1)
    for y, s in CASES[:120]:
        w = rng.uniform(0, 3, len(y))
        w[rng.random(len(y)) < 0.2] = 0.0  # zero weights are dropped rows
        if w[y == 1].sum() == 0 or w[y == 0].sum() == 0:
            continue
        assert M.auroc(y, s, sample_weight=w) == pytest.approx(
            skm.roc_auc_score(y, s, sample_weight=w), abs=1e-12
        )
        assert M.average_precision(y, s, sample_weight=w) == pytest.approx(
            skm.average_precision_score(y, s, sample_weight=w), abs=1e-12
        )


def test_large_inputs_equal_sklearn():
    rng = np.random.default_rng(2)
    for pi, ties in [(0.01, False), (0.3, True), (0.5, False), (0.9, True)]:
        n = 20_000
        y = (rng.random(n) < pi).astype(int)
        s = rng.random(n) + 0.3 * y
        if ties:
            s = np.round(s, 2)
        d = M.all_metrics(y, s)
        assert d["auroc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-11)
        assert d["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-11)
        assert d["pi"] == pytest.approx(y.mean(), abs=1e-15)


def test_pr_curve_vertices_equal_sklearn():
    for y, s in CASES[::5]:
        c = M.pr_curve(y, s)
        prec, rec, thr = skm.precision_recall_curve(y, s, drop_intermediate=False)
        # sklearn: increasing thresholds, plus a final (recall 0, precision 1) point
        np.testing.assert_allclose(c.recall[1:], rec[:-1][::-1], atol=1e-15)
        np.testing.assert_allclose(c.precision[1:], prec[:-1][::-1], atol=1e-15)
        np.testing.assert_array_equal(c.thresholds[1:], thr[::-1])
        # first-point rule: recall 0 with the first threshold's precision
        assert c.recall[0] == 0.0 and c.precision[0] == c.precision[1]
        assert c.thresholds[0] == np.inf


def test_roc_curve_equals_sklearn():
    for y, s in CASES[::5]:
        c = M.roc_curve(y, s)
        fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
        np.testing.assert_allclose(c.fpr, fpr, atol=1e-15)
        np.testing.assert_allclose(c.tpr, tpr, atol=1e-15)
        np.testing.assert_array_equal(c.thresholds[1:], thr[1:])
        assert c.thresholds[0] == np.inf
        assert np.trapezoid(c.tpr, c.fpr) == pytest.approx(M.auroc(y, s), abs=1e-12)


def test_pos_label_and_label_encodings():
    y, s = CASES[10]
    ref = M.all_metrics(y, s)
    for labels in (y.astype(bool), 2 * y - 1, y.astype(float), y.astype(np.uint8)):
        assert M.all_metrics(labels, s) == ref
    strings = np.where(y == 1, "sick", "healthy")
    assert M.all_metrics(strings, s, pos_label="sick") == ref
    # pos_label picks the class: flipping labels and negating scores is the same ranking
    flipped = M.all_metrics(1 - y, -s, pos_label=0)
    assert flipped == ref
    assert M.auroc(strings, s, pos_label="healthy") == pytest.approx(
        skm.roc_auc_score(1 - y, s), abs=1e-12
    )
    assert M.all_metrics(list(y), list(s)) == ref  # plain lists


# --------------------------------------------------------------------------------------------
# The PRG reference code (pyprg)
# --------------------------------------------------------------------------------------------


def test_auprg_equals_reference_code_ties_included():
    checked = 0
    for y, s in CASES:
        try:
            ref = reference_auprg(y, s)
        except ReferenceError_:
            continue
        assert abs(M.auprg(y, s) - ref) <= 1e-9
        assert abs(M.all_metrics(y, s)["auprg"] - ref) <= 1e-9
        checked += 1
    assert checked >= 200


def test_auprg_equals_reference_on_larger_inputs():
    rng = np.random.default_rng(3)
    for pi in (0.02, 0.2, 0.6):
        y = (rng.random(3000) < pi).astype(int)
        s = np.round(rng.random(3000) + 0.4 * y, 2)
        assert abs(M.auprg(y, s) - reference_auprg(y, s)) <= 1e-9


def test_prg_curve_points_equal_reference_points():
    for y, s in CASES[::3]:
        c = M.prg_curve(y, s)
        ref = reference_curve(y, s)
        finite = np.isfinite(ref["recall_gain"])  # reference also keeps TP = 0 points (-inf)
        np.testing.assert_allclose(c.recall_gain, ref["recall_gain"][finite], atol=1e-12)
        np.testing.assert_allclose(c.precision_gain, ref["precision_gain"][finite], atol=1e-12)
        np.testing.assert_array_equal(c.is_crossing, ref["is_crossing"][finite].astype(bool))
        assert np.all(np.isnan(c.thresholds[c.is_crossing]))
        np.testing.assert_array_equal(
            c.thresholds[~c.is_crossing], ref["pos_score"][finite][~c.is_crossing]
        )
        # the area under our points over recall gain >= 0 is auprg
        keep = c.recall_gain >= 0
        x, yy = c.recall_gain[keep], c.precision_gain[keep]
        assert np.trapezoid(yy, x) == pytest.approx(M.auprg(y, s), abs=1e-12)


def test_only_positive_ranked_last():
    """The reference code is known to fail here (meeliskull/prg #6); our value is the closed
    form: the curve runs from the crossing (0, 1 - n) to (1, 0), area (1 - n) / 2."""
    for n in (2, 5, 30):
        y = np.r_[np.zeros(n - 1, int), 1]
        s = np.arange(n, 0, -1.0)
        assert M.auprg(y, s) == pytest.approx((1 - n) / 2, abs=1e-12)
        c = M.prg_curve(y, s)
        np.testing.assert_allclose(c.recall_gain, [0.0, 1.0])
        np.testing.assert_allclose(c.precision_gain, [1.0 - n, 0.0])
        try:
            ref = reference_auprg(y, s)
        except ReferenceError_:
            continue  # prg #6
        assert M.auprg(y, s) == pytest.approx(ref, abs=1e-9)


def test_gain_functions_equal_reference_functions():
    if prg is None:
        pytest.skip("pyprg is not installed")
    rng = np.random.default_rng(4)
    tp = rng.integers(1, 50, 200).astype(float)
    fn = rng.integers(0, 50, 200).astype(float)
    fp = rng.integers(0, 50, 200).astype(float)
    tn = rng.integers(1, 50, 200).astype(float)
    np.testing.assert_allclose(
        M.precision_gain(tp, fn, fp, tn), prg.precision_gain(tp, fn, fp, tn), rtol=1e-14
    )
    np.testing.assert_allclose(
        M.recall_gain(tp, fn, fp, tn), prg.recall_gain(tp, fn, fp, tn), rtol=1e-14
    )


def test_gains_definition_and_theorem_2():
    rng = np.random.default_rng(5)
    tp, fn, fp, tn = (rng.integers(1, 100, 500).astype(float) for _ in range(4))
    pi = (tp + fn) / (tp + fn + fp + tn)
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    pg, rg = M.precision_gain(tp, fn, fp, tn), M.recall_gain(tp, fn, fp, tn)
    # Definition 1
    np.testing.assert_allclose(pg, (prec - pi) / ((1 - pi) * prec), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rg, (rec - pi) / ((1 - pi) * rec), rtol=1e-12, atol=1e-12)
    for beta in (0.5, 1.0, 2.0):
        fg = M.fg_score(tp, fn, fp, tn, beta=beta)
        f = (1 + beta**2) * prec * rec / (beta**2 * prec + rec)
        np.testing.assert_allclose(fg, (f - pi) / ((1 - pi) * f), rtol=1e-12, atol=1e-12)
        # Theorem 2: precG + beta^2 recG = (1 + beta^2) FG_beta
        np.testing.assert_allclose(pg + beta**2 * rg, (1 + beta**2) * fg, rtol=1e-12, atol=1e-12)
    # scalars in, floats out; the always-positive table is exactly (1, 0)
    assert M.precision_gain(5, 0, 7, 0) == 0.0 and M.recall_gain(5, 0, 7, 0) == 1.0
    assert isinstance(M.fg_score(3, 1, 2, 4), float)


# --------------------------------------------------------------------------------------------
# Closed forms (Boyd et al. 2012) and the hyperbolic interpolation
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_pos,n_neg", [(1, 1), (1, 9), (2, 5), (7, 3), (50, 950), (400, 100)])
def test_worst_ranking_gives_aupr_min_and_ap_min(n_pos, n_neg):
    y = np.r_[np.zeros(n_neg, int), np.ones(n_pos, int)]
    s = -np.arange(n_pos + n_neg, dtype=float)  # every negative above every positive
    pi = n_pos / (n_pos + n_neg)
    assert M.aupr(y, s) == pytest.approx(M.aupr_min(pi), rel=1e-12, abs=1e-15)
    assert M.average_precision(y, s) == pytest.approx(M.ap_min(n_pos, n_neg), rel=1e-12)
    assert M.ap_min(n_pos, n_neg) == pytest.approx(skm.average_precision_score(y, s), rel=1e-12)
    assert M.aucnpr(y, s) == pytest.approx(0.0, abs=1e-12)
    assert M.auroc(y, s) == 0.0
    for rr in [(0.0, 0.5), (0.5, 1.0), (0.8, 1.0), (0.2, 0.7)]:
        assert M.aupr(y, s, recall_range=rr) == pytest.approx(
            M.aupr_min(pi, rr), rel=1e-11, abs=1e-15
        )
        assert M.aucnpr(y, s, recall_range=rr) == pytest.approx(0.0, abs=1e-10)


@pytest.mark.parametrize("n_pos,n_neg", [(1, 1), (3, 17), (40, 10)])
def test_perfect_ranking_gives_one(n_pos, n_neg):
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = -np.arange(n_pos + n_neg, dtype=float)
    d = M.all_metrics(y, s)
    for key in ("auroc", "average_precision", "aupr", "aupr_linear", "aucnpr", "auprg"):
        assert d[key] == pytest.approx(1.0, abs=1e-12), key
    assert M.aucnpr(y, s, recall_range=(0.3, 0.9)) == pytest.approx(1.0, abs=1e-12)
    assert M.expected_fg1(y, s) == pytest.approx(0.75, abs=1e-12)  # y0 = 1: AUPRG/2 + 1/4


@pytest.mark.parametrize("n_pos,n_neg", [(1, 1), (3, 17), (40, 10)])
def test_all_tied_scores_give_pi(n_pos, n_neg):
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = np.full(n_pos + n_neg, 0.3)
    pi = n_pos / (n_pos + n_neg)
    for interpolation in ("hyperbolic", "linear", "step"):
        assert M.aupr(y, s, interpolation=interpolation) == pytest.approx(pi, rel=1e-12)
        assert M.aupr(y, s, interpolation=interpolation, recall_range=(0.25, 0.75)) == (
            pytest.approx(0.5 * pi, rel=1e-12)
        )
    assert M.auroc(y, s) == 0.5
    assert M.average_precision(y, s) == pytest.approx(pi, rel=1e-12)
    assert M.auprg(y, s) == pytest.approx(0.0, abs=1e-12)  # PRG curve at precision gain 0


def _dg_reference_area(y, s, a=0.0, b=1.0):
    """Independent implementation: loop over distinct thresholds, integrate the
    Davis-Goadrich precision numerically with scipy's quad (first-point rule included)."""
    y = np.asarray(y)
    s = np.asarray(s, dtype=float)
    p = float(y.sum())
    pts = [(0.0, 0.0)]
    for t in sorted(set(s.tolist()), reverse=True):
        sel = s >= t
        pts.append((float(y[sel].sum()), float((1 - y[sel]).sum())))
    area = 0.0
    for (tpa, fpa), (tpb, fpb) in zip(pts[:-1], pts[1:], strict=True):
        if tpb == tpa:
            continue
        slope = (fpb - fpa) / (tpb - tpa)

        def prec(x, tpa=tpa, fpa=fpa, slope=slope, tpb=tpb, fpb=fpb):
            if tpa + fpa == 0:
                return tpb / (tpb + fpb)
            return (tpa + x) / (tpa + x + fpa + slope * x)

        lo = min(max(a * p - tpa, 0.0), tpb - tpa)
        hi = min(max(b * p - tpa, 0.0), tpb - tpa)
        if hi > lo:
            area += integrate.quad(prec, lo, hi, epsabs=1e-13, epsrel=1e-12)[0] / p
    return area


def test_hyperbolic_area_equals_numeric_integral_of_davis_goadrich():
    for y, s in CASES[::4]:
        assert M.aupr(y, s) == pytest.approx(_dg_reference_area(y, s), abs=1e-10)
        for rr in [(0.1, 0.6), (0.5, 1.0), (0.0, 0.33)]:
            assert M.aupr(y, s, recall_range=rr) == pytest.approx(
                _dg_reference_area(y, s, *rr), abs=1e-10
            )


def test_davis_goadrich_worked_example():
    """The interpolation notes' example: from (TP, FP) = (2, 1) to (3, 2) with P = 4, the point
    at recall 0.625 has precision 0.625 (linear interpolation would give 0.633)."""
    y = np.array([1, 1, 0, 1, 0, 1])
    s = np.array([6.0, 5.0, 4.0, 3.0, 3.0, 1.0])  # one tie group takes (2, 1) to (3, 2)
    c = M.pr_curve(y, s)
    np.testing.assert_array_equal(c.tp, [0, 1, 2, 2, 3, 4])
    np.testing.assert_array_equal(c.fp, [0, 0, 0, 1, 2, 2])
    dense = M.interpolate_pr_curve(c, points_per_segment=3)
    mid = 3 * 3 + 1  # middle point of segment 3, (2, 1) -> (3, 2)
    assert dense.recall[mid] == pytest.approx(0.625)
    assert dense.precision[mid] == pytest.approx(0.625)
    assert (c.precision[3] + c.precision[4]) / 2 == pytest.approx(0.6333, abs=1e-4)


def test_recall_ranges_add_up():
    for y, s in CASES[::6]:
        for interpolation in ("hyperbolic", "linear", "step"):
            whole = M.aupr(y, s, interpolation=interpolation)
            parts = sum(
                M.aupr(y, s, interpolation=interpolation, recall_range=rr)
                for rr in [(0.0, 0.3), (0.3, 0.71), (0.71, 1.0)]
            )
            assert parts == pytest.approx(whole, abs=1e-12)


def test_linear_and_step_match_direct_sums_over_pr_vertices():
    for y, s in CASES[::5]:
        c = M.pr_curve(y, s)
        assert M.aupr(y, s, interpolation="linear") == pytest.approx(
            np.trapezoid(c.precision, c.recall), abs=1e-12
        )
        assert M.aupr(y, s, interpolation="step") == pytest.approx(
            np.sum(np.diff(c.recall) * c.precision[1:]), abs=1e-12
        )


def test_interpolated_pr_curve_area_matches_aupr():
    y, s = CASES[3]
    dense = M.interpolate_pr_curve(M.pr_curve(y, s), points_per_segment=400)
    assert np.trapezoid(dense.precision, dense.recall) == pytest.approx(M.aupr(y, s), abs=1e-5)


@pytest.mark.parametrize("pi", [0.001, 0.01, 0.1, 0.5, 0.9, 1.0])
def test_aupr_min_closed_forms(pi):
    # Theorem 2
    if pi < 1:
        assert M.aupr_min(pi) == pytest.approx(1 + (1 - pi) * np.log(1 - pi) / pi, rel=1e-9)
    else:
        assert M.aupr_min(pi) == 1.0

    def curve(r):
        return pi * r / (1 - pi + pi * r)

    # Corollary 4 equals the integral of the minimum curve (Theorem 1)
    for a, b in [(0.0, 1.0), (0.5, 1.0), (0.8, 1.0), (0.1, 0.4)]:
        num = integrate.quad(curve, a, b, epsabs=1e-14, epsrel=1e-13)[0]
        assert M.aupr_min(pi, (a, b)) == pytest.approx(num, rel=1e-9, abs=1e-15)
        if pi < 1:  # Boyd's printed formula (0 * log 0 at pi = 1)
            boyd = b - a + (1 - pi) / pi * np.log((pi * (a - 1) + 1) / (pi * (b - 1) + 1))
            assert M.aupr_min(pi, (a, b)) == pytest.approx(boyd, rel=1e-8, abs=1e-14)


def test_aupr_min_is_vectorised_and_matches_boyd_figure_3():
    pis = np.array([0.01, 0.1, 0.5, 0.99])
    out = M.aupr_min(pis)
    assert out.shape == (4,)
    np.testing.assert_allclose(out, [M.aupr_min(p) for p in pis], rtol=1e-15)
    assert np.all(np.diff(out) > 0)  # minimum area grows with the skew
    # Boyd section 2.2: skew 0.01 -> 0.5 raises AUCPR_MIN by about 0.3
    assert M.aupr_min(0.5) - M.aupr_min(0.01) == pytest.approx(0.3, abs=0.01)
    # restricting to high recall makes the minimum a larger share of the range (Figure 3)
    assert M.aupr_min(0.1, (0.8, 1.0)) / 0.2 > M.aupr_min(0.1)


def test_ap_min_matches_theorem_3_sum():
    for pos, neg in [(1, 0), (1, 5), (10, 90), (123, 4567)]:
        direct = sum(i / (i + neg) for i in range(1, pos + 1)) / pos
        assert M.ap_min(pos, neg) == pytest.approx(direct, rel=1e-13)


def test_min_pr_curve():
    c = M.min_pr_curve(0.2)
    assert c.recall.shape == (201,) and c.recall[0] == 0 and c.recall[-1] == 1
    np.testing.assert_allclose(c.precision, 0.2 * c.recall / (0.8 + 0.2 * c.recall))
    assert c.precision[-1] == pytest.approx(0.2)  # ends at (1, pi)
    r = np.array([0.25, 0.5])
    np.testing.assert_allclose(M.min_pr_curve(0.5, r).precision, [0.25 / 1.25, 0.5 / 1.5])
    # the worst ranking's PR vertices lie on the minimum curve (Theorem 1 equality case)
    y = np.r_[np.zeros(8, int), np.ones(2, int)]
    pr = M.pr_curve(y, -np.arange(10.0))
    np.testing.assert_allclose(pr.precision, M.min_pr_curve(0.2, pr.recall).precision)


def test_aucnpr_definition():
    for y, s in CASES[::9]:
        pi = y.mean()
        for rr in [(0.0, 1.0), (0.5, 1.0)]:
            a, b = rr
            expected = (M.aupr(y, s, recall_range=rr) - M.aupr_min(pi, rr)) / (
                (b - a) - M.aupr_min(pi, rr)
            )
            assert M.aucnpr(y, s, recall_range=rr) == pytest.approx(expected, abs=1e-12)


def test_aucnpr_remembers_the_minimum_with_the_bits_of_the_call():
    # the minimum is remembered per skew (Boyd's fold-skew runs ask for the same few skews thousands of times);
    # the area is the definition's to the bit, whatever was asked before
    from prspace.metrics.boyd_minima import _aupr_min_remembered

    _aupr_min_remembered.cache_clear()
    rng = np.random.default_rng(5)
    for _ in range(3):  # a second and third pass are served from the memo
        for n_pos in (1, 3, 17, 60):
            y = np.r_[np.ones(n_pos), np.zeros(97)].astype(int)
            s = rng.normal(size=y.size) + y
            for rr in [(0.0, 1.0), (0.2, 0.9)]:
                a, b = rr
                lo = M.aupr_min(float(y.mean()), rr)
                expected = float((M.aupr(y, s, recall_range=rr) - lo) / ((b - a) - lo))
                assert M.aucnpr(y, s, recall_range=rr) == min(max(expected, 0.0), 1.0)
    assert _aupr_min_remembered.cache_info().hits >= 16


# --------------------------------------------------------------------------------------------
# Weights, all_metrics, extras
# --------------------------------------------------------------------------------------------


def test_integer_sample_weights_equal_repeated_rows():
    rng = np.random.default_rng(6)
    for y, s in CASES[::4]:
        w = rng.integers(0, 4, len(y))
        if w[y == 1].sum() == 0 or w[y == 0].sum() == 0:
            continue
        yr, sr = np.repeat(y, w), np.repeat(s, w)
        dw, dr = M.all_metrics(y, s, sample_weight=w), M.all_metrics(yr, sr)
        for key in dr:
            assert dw[key] == pytest.approx(dr[key], abs=1e-12), key
        for rr in [(0.2, 0.9)]:
            assert M.aupr(y, s, sample_weight=w, recall_range=rr) == pytest.approx(
                M.aupr(yr, sr, recall_range=rr), abs=1e-12
            )
        cw, cr = M.pr_curve(y, s, sample_weight=w), M.pr_curve(yr, sr)
        np.testing.assert_allclose(cw.recall, cr.recall)
        np.testing.assert_allclose(cw.precision, cr.precision)
        gw, gr = M.prg_curve(y, s, sample_weight=w), M.prg_curve(yr, sr)
        np.testing.assert_allclose(gw.recall_gain, gr.recall_gain, atol=1e-12)
        np.testing.assert_allclose(gw.precision_gain, gr.precision_gain, atol=1e-12)
        try:
            e_rows = M.expected_fg1(yr, sr)
        except ValueError:  # degenerate Delta range (see test_expected_fg1_degenerate)
            with pytest.raises(ValueError, match="Delta"):
                M.expected_fg1(y, s, sample_weight=w)
            continue
        assert M.expected_fg1(y, s, sample_weight=w) == pytest.approx(e_rows, abs=1e-12)


def test_unit_weights_take_the_same_values_as_the_fast_path():
    rng = np.random.default_rng(7)
    for pi, ties in [(0.05, False), (0.5, True), (0.5, False), (0.95, True)]:
        y = (rng.random(5000) < pi).astype(int)
        s = rng.random(5000) + 0.2 * y
        if ties:
            s = np.round(s, 2)
        a, b = M.all_metrics(y, s), M.all_metrics(y, s, sample_weight=np.ones(5000))
        assert a == b  # unit weights take the unweighted kernel: the same numbers bit for bit
        # the weighted kernel (weights 2: every count doubled) gives the same ratios within rounding
        c = M.all_metrics(y, s, sample_weight=np.full(5000, 2.0))
        assert (c["n_pos"], c["n_neg"]) == (2 * a["n_pos"], 2 * a["n_neg"])
        for key in set(a) - {"n_pos", "n_neg"}:
            assert a[key] == pytest.approx(c[key], abs=1e-12), key


def test_all_metrics_keys_and_consistency():
    for y, s in CASES[::11]:
        d = M.all_metrics(y, s)
        assert list(d) == [*M.METRIC_KEYS, "pi", "n_pos", "n_neg"]  # every metric (tests/metrics/test_metric_keys.py)
        assert M.METRIC_KEYS[:6] == ("auroc", "average_precision", "aupr", "aupr_linear", "aucnpr", "auprg")
        assert all(isinstance(v, float) for v in d.values())
        assert d["auroc"] == M.auroc(y, s)
        assert d["average_precision"] == M.average_precision(y, s)
        assert d["aupr"] == M.aupr(y, s)
        assert d["aupr_linear"] == M.aupr(y, s, interpolation="linear")
        assert d["aucnpr"] == M.aucnpr(y, s)
        assert d["auprg"] == M.auprg(y, s)
        assert d["n_pos"] == y.sum() and d["n_neg"] == len(y) - y.sum()
        assert d["pi"] == y.mean()


def _expected_fg1_numeric(y, s):
    """Theorem 3 by direct averaging: walk the PRG curve from recall gain 0 to 1 and average
    FG1 = (precG + recG) / 2 with Delta = recG / pi - precG / (1 - pi) uniform."""
    pi = np.mean(y)
    c = M.prg_curve(y, s)
    keep = c.recall_gain >= 0
    x, yy = c.recall_gain[keep], c.precision_gain[keep]
    t = np.linspace(0.0, 1.0, 2001)
    xs = (x[:-1, None] + t * np.diff(x)[:, None]).ravel()
    ys = (yy[:-1, None] + t * np.diff(yy)[:, None]).ravel()
    delta = xs / pi - ys / (1 - pi)
    fg1 = (xs + ys) / 2
    assert np.all(np.diff(delta) >= -1e-12)  # Delta increases along the curve
    return np.trapezoid(fg1, delta) / (delta[-1] - delta[0])


def test_expected_fg1_degenerate():
    # the worst ranking (every negative first): FP = N at every point with TP > 0, so
    # Delta = recG / pi - precG / (1 - pi) = 1 / pi everywhere and y0 = -(1 - pi) / pi
    y = np.array([0, 0, 1, 1, 1, 1, 1])
    s = -np.arange(7.0)
    pi = 5 / 7
    c = M.prg_curve(y, s)
    keep = c.recall_gain >= 0
    delta = c.recall_gain[keep] / pi - c.precision_gain[keep] / (1 - pi)
    assert c.precision_gain[keep][0] == pytest.approx(-(1 - pi) / pi)
    assert np.ptp(delta) < 1e-12
    with pytest.raises(ValueError, match="Delta"):
        M.expected_fg1(y, s)


def test_expected_fg1_theorem_3_by_numeric_average():
    checked = 0
    for y, s in CASES[::3]:
        try:
            value = M.expected_fg1(y, s)
        except ValueError:  # only when the Delta range is empty
            pi = y.mean()
            c = M.prg_curve(y, s)
            keep = c.recall_gain >= 0
            delta = c.recall_gain[keep] / pi - c.precision_gain[keep] / (1 - pi)
            assert np.ptp(delta) < 1e-9
            continue
        assert value == pytest.approx(_expected_fg1_numeric(y, s), abs=1e-9)
        checked += 1
    assert checked > 50


def test_prg_convex_hull_properties_and_reference_hull():
    if prg is None:
        pytest.skip("pyprg is not installed")
    for y, s in CASES[::4]:
        h = M.prg_convex_hull(y, s)
        c = M.prg_curve(y, s)
        pts = c.recall_gain[~c.is_crossing], c.precision_gain[~c.is_crossing]
        assert h.recall_gain[-1] == 1.0
        assert h.precision_gain[-1] == pts[1][pts[0] == 1.0].max()
        assert h.precision_gain[0] == pts[1].max()
        # every curve point lies on or below every hull segment's line
        for k in range(len(h.f_calibrated)):
            x0, x1 = h.recall_gain[k], h.recall_gain[k + 1]
            y0, y1 = h.precision_gain[k], h.precision_gain[k + 1]
            cross = (x1 - x0) * (pts[1] - y0) - (y1 - y0) * (pts[0] - x0)
            assert np.all(cross <= 1e-9)
        # F-calibrated scores: d = 1 / (1 + beta^2) in (0, 1], decreasing along the hull
        assert np.all((h.f_calibrated > 0) & (h.f_calibrated <= 1))
        assert np.all(np.diff(h.f_calibrated) < 0)
        # same vertices as the reference code's upper hull (its Pareto part)
        ref = prg.convex_hull(list(zip(*pts, strict=True)))[::-1]  # left to right
        rx = np.array([p[0] for p in ref])
        ry = np.array([p[1] for p in ref])
        top = np.flatnonzero(ry == ry.max())[-1]  # Pareto part: from the rightmost top vertex
        rx, ry = rx[top:], ry[top:]
        # same polyline (the two may keep or drop vertices that are collinear up to rounding)
        assert rx[0] == pytest.approx(h.recall_gain[0]) and rx[-1] == h.recall_gain[-1]
        np.testing.assert_allclose(np.interp(rx, h.recall_gain, h.precision_gain), ry, atol=1e-9)
        np.testing.assert_allclose(np.interp(h.recall_gain, rx, ry), h.precision_gain, atol=1e-9)


def test_f_calibrated_score_matches_theorem_4():
    y, s = CASES[2]
    h = M.prg_convex_hull(y, s)
    pi = y.mean()
    # back from gains to precision and recall: 1/rec = (1 - (1 - pi) recG) / pi
    inv_rec = (1 - (1 - pi) * h.recall_gain) / pi
    inv_prec = (1 - (1 - pi) * h.precision_gain) / pi
    d_rec = inv_rec[:-1] - inv_rec[1:]
    d_prec = inv_prec[:-1] - inv_prec[1:]
    np.testing.assert_allclose(h.f_calibrated, d_rec / (d_rec - d_prec), rtol=1e-10)


def test_large_extreme_skews_stay_in_range_and_exact():
    """Rounding noise never leaves the metric's range; Boyd's minimum stays exact for tiny pi."""
    for n_pos, n_neg in [(10, 200_000), (199_995, 5)]:
        s = -np.arange(n_pos + n_neg, dtype=float)
        best = M.all_metrics(np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)], s)
        for key in ("auroc", "average_precision", "aupr", "aupr_linear", "aucnpr", "auprg"):
            assert best[key] == pytest.approx(1.0, abs=1e-9) and best[key] <= 1.0, key
        worst = M.all_metrics(np.r_[np.zeros(n_neg, int), np.ones(n_pos, int)], s)
        pi = n_pos / (n_pos + n_neg)
        assert worst["aupr"] == pytest.approx(M.aupr_min(pi), rel=1e-13)
        assert 0.0 <= worst["aucnpr"] <= 1e-9
    # the series branch of aupr_min (pi < 0.2) agrees with the closed form where both are fine
    for pi in (0.05, 0.19, 0.21):
        closed = 1 + (1 - pi) * np.log1p(-pi) / pi
        assert M.aupr_min(pi) == pytest.approx(closed, rel=1e-12)
    assert M.aupr_min(1e-9) == pytest.approx(0.5e-9, rel=1e-8)  # ~ pi / 2 for tiny pi


def test_the_kernels_log1p_is_within_4_ulps_of_numpys_and_keeps_its_special_values():
    """The AUPR's ``log1p`` (issue 60: only IEEE's basic operations, the same bits on every machine)."""
    from prspace.metrics._kernel import _log1p

    rng = np.random.default_rng(60)
    x = np.r_[np.exp(rng.uniform(-700, 700, 20_000)), rng.uniform(-0.999, 1.0, 20_000),
              -np.exp(rng.uniform(-60, -1e-3, 5_000)), 5e-324, 1.7e308]
    ref = np.log1p(x)
    assert float(np.max(np.abs(_log1p(x) - ref) / np.spacing(np.abs(ref)))) <= 4
    special = np.array([-1.0, np.inf, np.nan, -2.0, 0.0, -0.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_array_equal(np.signbit(_log1p(special)), np.signbit(np.log1p(special)))
        np.testing.assert_array_equal(_log1p(special), np.log1p(special))
    assert isinstance(_log1p(0.5), float) and _log1p(np.array([[0.5]])).shape == (1, 1)


def test_the_one_memo_of_the_minimum_keeps_each_callers_bits():
    # one home for the remembered AUPR_MIN (metrics.boyd_minima._aupr_min_remembered): the batch kernel asks for
    # a one-value array, AUCNPR for a float; numpy's vector loops and its scalar arithmetic can differ in the last
    # bit, so each form must be the bits of its own direct call, asked first or from the memo
    from prspace.metrics.boyd_minima import _aupr_min_remembered
    from prspace.metrics.headline import _aupr_min_of

    rng = np.random.default_rng(11)
    # four skews whose two forms differ in the last bit on this project's AVX-512 machine (2026-11-28), then others
    differ = [0.09250592762577028, 0.13831283089332858, 0.1620693323726435, 0.19321247081342177]
    skews = np.concatenate([differ, rng.uniform(1e-4, 1.0, 1000), np.arange(1, 200) / 200, 1.0 / np.arange(2, 600)])
    _aupr_min_remembered.cache_clear()
    for _ in range(2):
        for p in skews:
            one = np.array([p])
            got = _aupr_min_of(one)
            assert got.shape == (1,) and got.tobytes() == np.asarray(M.aupr_min(one), dtype=np.float64).tobytes()
            assert _aupr_min_remembered(float(p), 0.0, 1.0) == M.aupr_min(float(p))
    assert _aupr_min_remembered.cache_info().hits >= 2 * skews.size
    several = skews[:5]
    assert _aupr_min_of(several).tobytes() == np.asarray(M.aupr_min(several), dtype=np.float64).tobytes()
