"""Every kind of bad input to prspace.metrics raises ValueError naming the problem."""

from __future__ import annotations

import numpy as np
import pytest

from prspace import metrics as M

Y = np.array([0, 1, 0, 1, 1, 0])
S = np.array([0.1, 0.9, 0.3, 0.7, 0.2, 0.4])

LABEL_SCORE_FUNCTIONS = [
    M.all_metrics,
    # every metric's public function (named as its key): a new metric of METRIC_KEYS is checked here too
    *(getattr(M, key) for key in M.METRIC_KEYS if hasattr(M, key)),
    M.prg_curve,
    M.pr_curve,
    M.roc_curve,
    M.all_curves,
    M.expected_fg1,
    M.prg_convex_hull,
]


@pytest.fixture(params=LABEL_SCORE_FUNCTIONS, ids=lambda f: f.__name__)
def fn(request):
    return request.param


@pytest.mark.parametrize(
    "bad,match",
    [
        (np.nan, "NaN"),
        (np.inf, "infinite"),
        (-np.inf, "infinite"),
    ],
)
def test_non_finite_scores(fn, bad, match):
    for where in (0, 3, 5):
        s = S.copy()
        s[where] = bad
        with pytest.raises(ValueError, match=match):
            fn(Y, s)


def test_lengths_differ(fn):
    with pytest.raises(ValueError, match="different lengths"):
        fn(Y, S[:-1])
    with pytest.raises(ValueError, match="sample_weight has 5 values"):
        fn(Y, S, sample_weight=np.ones(5))


def test_empty(fn):
    with pytest.raises(ValueError, match="empty"):
        fn([], [])


def test_not_one_dimensional(fn):
    with pytest.raises(ValueError, match="1-D"):
        fn(Y.reshape(2, 3), S.reshape(2, 3))
    with pytest.raises(ValueError, match="1-D"):
        fn(Y, S.reshape(-1, 1))


@pytest.mark.parametrize(
    "labels,match",
    [
        ([0, 1, 2, 1, 0, 1], "labels"),
        ([1, 2, 2, 1, 1, 2], "pos_label"),
        ([0.0, 1.0, 0.5, 1.0, 0.0, 1.0], "labels"),
        ([0.0, 1.0, np.nan, 1.0, 0.0, 1.0], "NaN"),
        (["a", "b", "a", "b", "b", "a"], "pos_label"),
        ([-1, 0, 1, 1, 0, -1], "labels"),
    ],
)
def test_labels_not_binary(fn, labels, match):
    with pytest.raises(ValueError, match=match):
        fn(np.array(labels), S)


def test_more_than_two_labels_with_pos_label(fn):
    with pytest.raises(ValueError, match="not binary"):
        fn(np.array(["a", "b", "c", "a", "b", "a"]), S, pos_label="a")


@pytest.mark.parametrize(
    "labels,pos_label",
    [
        ([0, 0, 0, 0, 0, 0], None),
        ([1, 1, 1, 1, 1, 1], None),
        ([True] * 6, None),
        ([False] * 6, None),
        ([-1] * 6, None),
        (["a"] * 6, "a"),
        (["a"] * 6, "b"),
        ([0, 1, 0, 1, 1, 0], 2),
    ],
)
def test_only_one_class(fn, labels, pos_label):
    with pytest.raises(ValueError, match="one class|does not occur"):
        fn(np.array(labels), S, pos_label=pos_label)


def test_weights_leave_only_one_class(fn):
    for w in (np.where(Y == 1, 0.0, 1.0), np.where(Y == 1, 2.0, 0.0)):
        with pytest.raises(ValueError, match="only one class"):
            fn(Y, S, sample_weight=w)
    with pytest.raises(ValueError, match="every sample_weight is 0"):
        fn(Y, S, sample_weight=np.zeros(len(Y)))


@pytest.mark.parametrize(
    "w,match",
    [
        ([1, 1, -1, 1, 1, 1], "negative"),
        ([1, 1, np.nan, 1, 1, 1], "NaN or infinite"),
        ([1, 1, np.inf, 1, 1, 1], "NaN or infinite"),
        (["a", "b", "c", "d", "e", "f"], "numeric"),
    ],
)
def test_bad_weights(fn, w, match):
    with pytest.raises(ValueError, match=match):
        fn(Y, S, sample_weight=np.array(w))


def test_non_numeric_scores(fn):
    with pytest.raises(ValueError, match="numeric"):
        fn(Y, np.array(list("abcdef")))


@pytest.mark.parametrize(
    "rr", [(0.5, 0.5), (0.6, 0.4), (-0.1, 1.0), (0.0, 1.1), (np.nan, 1.0), (0.3,)]
)
def test_bad_recall_range(rr):
    with pytest.raises(ValueError, match="recall_range"):
        M.aupr(Y, S, recall_range=rr)
    with pytest.raises(ValueError, match="recall_range"):
        M.aucnpr(Y, S, recall_range=rr)
    with pytest.raises(ValueError, match="recall_range"):
        M.aupr_min(0.3, recall_range=rr)


def test_bad_interpolation():
    with pytest.raises(ValueError, match="interpolation"):
        M.aupr(Y, S, interpolation="spline")


def test_keyword_only_options():
    with pytest.raises(TypeError):
        M.aupr(Y, S, "linear")  # type: ignore[misc]
    with pytest.raises(TypeError):
        M.all_metrics(Y, S, None)  # type: ignore[misc]


@pytest.mark.parametrize("pi", [0.0, -0.1, 1.5, np.nan])
def test_bad_pi(pi):
    with pytest.raises(ValueError, match="pi"):
        M.aupr_min(pi)
    with pytest.raises(ValueError, match="pi"):
        M.min_pr_curve(pi)
    with pytest.raises(ValueError, match="pi"):
        M.aupr_min(np.array([0.2, pi]))


@pytest.mark.parametrize("pos,neg", [(0, 5), (-1, 5), (3, -1), (2.5, 3), (True, 3), ([1], 2)])
def test_bad_ap_min(pos, neg):
    with pytest.raises(ValueError, match="n_pos|n_neg"):
        M.ap_min(pos, neg)


@pytest.mark.parametrize(
    "counts,match",
    [
        ((-1, 2, 3, 4), "non-negative"),
        ((np.nan, 2, 3, 4), "finite"),
        ((0, 0, 3, 4), "at least one positive"),
        ((2, 2, 0, 0), "one negative"),
    ],
)
def test_bad_contingency_tables(counts, match):
    for f in (M.precision_gain, M.recall_gain, M.fg_score):
        with pytest.raises(ValueError, match=match):
            f(*counts)


def test_bad_beta():
    with pytest.raises(ValueError, match="beta"):
        M.fg_score(1, 2, 3, 4, beta=0.0)


def test_bad_min_pr_curve_recall():
    with pytest.raises(ValueError, match="recall"):
        M.min_pr_curve(0.2, [0.1, 1.2])


def test_bad_interpolate_points():
    with pytest.raises(ValueError, match="points_per_segment"):
        M.interpolate_pr_curve(M.pr_curve(Y, S), points_per_segment=1)
