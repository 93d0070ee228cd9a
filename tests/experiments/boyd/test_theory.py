"""Theory figures (Boyd et al. 2012 Figures 1-4, Flach and Kull 2015 Figure 2) and the paper checks.

Oracles: the closed forms and statements of the papers, and their published tables.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.figure import Figure

from prspace import metrics
from prspace.core import registry as R
from prspace.experiments.boyd import boyd_theory_data as TD
from prspace.experiments.boyd.aggregation import BOYD_TABLE2_MEAN, table2_check
from prspace.experiments.boyd.downsampling import table3_check
from prspace.figures import theory


def _boyd_theorem2(pi: float) -> float:
    return 1 + (1 - pi) * math.log(1 - pi) / pi


def test_worst_ranking_sits_on_the_minimum_curve_at_every_skew():
    # Boyd section 2.2: every negative ranked first gives the minimum PR curve, area AUCPR_MIN,
    # hence AUCNPR = 0 whatever the skew.
    for n_pos, n_neg in ((5, 95), (20, 80), (50, 50), (30, 10)):
        y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
        s = np.r_[np.zeros(n_pos), np.ones(n_neg)] + np.arange(n_pos + n_neg) * 1e-6
        m = metrics.all_metrics(y, s)
        pi = n_pos / (n_pos + n_neg)
        assert m["aupr"] == pytest.approx(_boyd_theorem2(pi), abs=1e-12)
        assert m["aucnpr"] == pytest.approx(0.0, abs=1e-12)
        assert m["average_precision"] == pytest.approx(metrics.ap_min(n_pos, n_neg), abs=1e-12)


def test_figure3_numbers_quoted_in_the_paper():
    # "With pi = 0.1, AUCPR_MIN ~ 0.05"; "changing the skew ... from 0.01 to 0.5 increases the
    # minimum AUCPR by approximately 0.3" (Boyd sections 4 and 2.2).
    assert metrics.aupr_min(0.1) == pytest.approx(0.05, abs=0.003)
    assert metrics.aupr_min(0.5) - metrics.aupr_min(0.01) == pytest.approx(0.3, abs=0.01)
    # Corollary 4: the restricted ranges give more of their (smaller) area for free
    for pi in (0.05, 0.2, 0.5):
        full = metrics.aupr_min(pi)
        assert metrics.aupr_min(pi, recall_range=(0.5, 1)) / 0.5 > full
        assert (
            metrics.aupr_min(pi, recall_range=(0.8, 1)) / 0.2
            > metrics.aupr_min(pi, recall_range=(0.5, 1)) / 0.5
        )


def test_f1_points_a_b_c_as_in_figure4():
    pi, f1 = 0.33, 0.45
    pts = TD.f1_example_points(pi, f1)
    for r, p in pts.values():
        assert 2 * p * r / (p + r) == pytest.approx(f1, abs=1e-12)

    def p_min(r):
        return pi * r / (1 - pi + pi * r)  # Boyd Theorem 1

    ra, pa = pts["A"]
    rb, pb = pts["B"]
    rc, pc = pts["C"]
    assert pa < p_min(ra)  # A unachievable
    assert 0 < pb - p_min(rb) < 0.02  # B achievable but barely above the minimum curve
    assert pc > 0.8 and rc < 0.5  # C: good precision at modest recall


def test_theory_figures_have_labelled_axes():
    figs = [
        theory.figure_min_pr_curve(TD.min_pr_curves([1 / 3])),
        theory.figure_min_pr_curves(TD.min_pr_curves((0.05, 0.1, 0.2, 1 / 3, 0.5, 0.7, 0.9))),
        theory.figure_aupr_min_vs_pi(TD.aupr_min_vs_pi()),
        theory.figure_f1_contours(TD.f1_contours_table()),
    ]
    for fig in figs:
        assert isinstance(fig, Figure)
        ax = fig.axes[0]
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    # Figure 3 draws exactly Theorem 2 for [0, 1]
    line = figs[2].axes[0].lines[0]
    x, y = line.get_data()
    assert np.allclose(y, [_boyd_theorem2(p) for p in x], atol=1e-12)
    assert figs[2].axes[0].get_xscale() == "log"


def test_pr_prg_figure_on_real_scores():
    sklearn_datasets = pytest.importorskip("sklearn.datasets")
    from sklearn.naive_bayes import GaussianNB

    X, y = sklearn_datasets.load_breast_cancer(return_X_y=True)
    y = y == 0  # malignant: the minority class
    X = X[:, [9, 14]]  # two weak features so the curve is not trivially perfect
    s = GaussianNB().fit(X[::2], y[::2]).predict_proba(X[1::2])[:, 1]
    t = TD.pr_prg_tables(y[1::2], s, source="sklearn breast cancer, GaussianNB on 2 features")
    fig = theory.figure_pr_prg(*(t[f"boyd_fig_pr_prg_{n}"] for n in ("points", "areas", "hull", "isometrics")),
                               title=t["boyd_fig_pr_prg_text"]["text"].iloc[0])
    ax_pr, ax_prg = fig.axes
    assert ax_prg.get_xlabel() == "Recall Gain" and ax_pr.get_xlabel() == "Recall"
    # the always-positive classifier's F1 maps to FG1 = 1/2: the minor diagonal is its isometric
    n_pos, n_neg = int(y[1::2].sum()), int((~y[1::2]).sum())
    assert metrics.fg_score(n_pos, 0, n_neg, 0) == pytest.approx(0.5)


def test_boyd_table3_aucnpr_follows_from_aucpr_and_skew():
    t = table3_check()
    assert len(t) == 14
    # three published decimals: rounding of AUCPR and AUCNPR allows about 0.001
    assert t["difference"].abs().max() <= 0.001
    assert (t.loc[t["test"] == "original", "test_pi"] == 1 / 25).all()


def test_boyd_table2_mean_row_and_implied_skews():
    t = table2_check().set_index("predicate")
    assert t.loc["mean (recomputed)", "aucpr_published"] == pytest.approx(
        BOYD_TABLE2_MEAN[0], abs=5e-4
    )
    assert t.loc["mean (recomputed)", "aucnpr_published"] == pytest.approx(
        BOYD_TABLE2_MEAN[1], abs=5e-4 + 1e-9
    )
    # gender: "skew close to 0.5"; genre: "closer to 0.05" -- implied skews are in that neighbourhood
    assert 0.4 < t.loc["gender", "implied_pi"] < 0.5
    assert 0.03 < t.loc["genre", "implied_pi"] < 0.1
    # and the implied pi reproduces the published AUCNPR exactly
    pi = t.loc["movie", "implied_pi"]
    lo = metrics.aupr_min(pi)
    assert (t.loc["movie", "aucpr_published"] - lo) / (1 - lo) == pytest.approx(
        t.loc["movie", "aucnpr_published"], abs=1e-9
    )


def test_cli_paper_tables_and_theory(tmp_path):
    from prspace.cli import main

    assert main(["step", R.STEP_BOYD_PAPER_TABLES.name, "--tables-dir", str(tmp_path)]) == 0
    md = (tmp_path / "boyd_table3_check.md").read_text()
    assert "Largest |difference|: 0.0008" in md
    assert main(["step", R.STEP_BOYD_THEORY_DATA.name, "--figure-data-dir", str(tmp_path)]) == 0
    assert main(["figure", "boyd_fig4_f1_contours", "--tables", str(tmp_path / "boyd_fig4_f1_contours.csv"), "--out",
                 str(tmp_path / "boyd_fig4_f1_contours.png"), "--formats", "png"]) == 0
    assert (tmp_path / "boyd_fig4_f1_contours.png").stat().st_size > 10_000


def test_cli_errors_are_one_line(tmp_path, capsys):
    from prspace.cli import main

    assert main(["boyd", "downsample", "--dataset", "no-such-dataset", "--out", str(tmp_path / "x.parquet")]) == 2
    err = capsys.readouterr().err
    assert "unknown dataset" in err and "Traceback" not in err
    # no qualifying task: the report says so in words, it does not fail or draw an empty plot
    assert main(["step", R.STEP_BOYD_DOWNSAMPLING_REPORT.name, "--tables-dir", str(tmp_path), "--figure-data-dir",
                 str(tmp_path), "--set", 'criteria="pi <= 0.1"']) == 0
    assert "No task" in (tmp_path / "boyd_downsampling_summary.md").read_text()


def test_cli_pr_prg_draws_the_median_model_and_names_its_source(tmp_path):
    import json

    import pandas as pd

    from prspace.cli import main
    from prspace.core.schema import TaskInfo, write_predictions

    rng = np.random.default_rng(0)
    n, n_pos, k = 400, 100, 5
    y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
    fold = np.r_[np.arange(n_pos) % k, np.arange(n - n_pos) % k]
    frames = []
    for m, sep in (("weak", 0.3), ("mid", 1.0), ("strong", 3.0)):
        frames.append(pd.DataFrame({"task_id": "syn-task", "model_id": m, "flow_id": m, "flow_name": m, "repeat": 0,
                                    "fold": fold, "row_id": np.arange(n), "y_true": y,
                                    "score": rng.normal(0, 1, n) + sep * y}))
    info = TaskInfo("syn-task", "local", "0", "synthetic", n, n_pos, "1", "5-fold", k, 1, 3, "test fixture", "now")
    write_predictions(pd.concat(frames), info, tmp_path / "syn-task.parquet")
    status = tmp_path / "syn-task.json"
    status.write_text(json.dumps({"task_id": "syn-task", "status": "ok", "reason": "",
                                  "predictions": str(tmp_path / "syn-task.parquet")}))
    pr_prg = ["step", R.STEP_BOYD_PR_PRG.name, "--in", f"status={status}", "--set", 'task="auto"', "--set",
              "target_positives=30", "--tables-dir", str(tmp_path), "--figure-data-dir", str(tmp_path)]
    assert main([*pr_prg, "--set", 'model="auto"']) == 0
    sel = R.BOYD_FIG_PR_PRG_SOURCE.csv(tmp_path)
    row = pd.read_csv(sel).iloc[0]
    assert row["model_id"] == "mid" and row["fold"] == 0 and row["n_pos"] == 20
    tables = [str(tmp_path / f"boyd_fig_pr_prg_{n}.csv") for n in ("points", "areas", "hull", "isometrics")]
    assert main(["figure", "boyd_fig_pr_prg", "--tables", *tables, "--text", str(tmp_path / "boyd_fig_pr_prg_text.csv"),
                 "--out", str(tmp_path / "boyd_fig_pr_prg.png"), "--formats", "png"]) == 0
    assert (tmp_path / "boyd_fig_pr_prg.png").is_file()
    assert main([*pr_prg, "--set", 'model="nope"']) == 2
