"""Grouped rows (issue 41, point 5): ``--group-col`` resamples whole groups (cluster bootstrap and
jackknife) in every interval, paired test and plausible-best set; calibrated by simulation."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from prspace.audit import audit
from prspace.audit.simulation.group_sim import World, draw, truth
from prspace.cli import main
from prspace.core.errors import InputError
from prspace.stats.intervals import jackknife_interval
from prspace.stats.replicates import (
    BOOT_METRICS,
    bootstrap,
    cluster_strata,
    jackknife,
    point_metrics,
)
from prspace.stats.resampling import StratumSampler

AUROC = BOOT_METRICS.index("auroc")


def _table(n_groups: int = 40, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n_groups):
        u, k, p = rng.normal(), int(rng.integers(3, 8)), rng.uniform(0.2, 0.6)
        for _ in range(k):
            y = rng.random() < p
            rows.append({"patient": f"p{g}", "fold": g % 4, "y": int(y), "a": y + u + rng.normal(),
                         "b": 0.8 * y + u + rng.normal()})
    return pd.DataFrame(rows)


def test_cluster_jackknife_leaves_out_whole_groups_as_sklearn_computes():
    block = draw(World(), 25, np.random.default_rng(3))
    reps, strata = jackknife(block)
    assert reps.shape[0] == 25 and (strata == 0).all()
    for g in (0, 7, 24):
        keep = block.cluster != g
        for k in range(2):
            want = roc_auc_score(block.y[keep], block.scores[k][keep])
            assert reps[g, k, AUROC] == pytest.approx(want, abs=1e-12)


def test_cluster_bootstrap_draws_groups_with_all_their_rows():
    block = draw(World(), 30, np.random.default_rng(4))
    reps = bootstrap(block, n_boot=3, rng=np.random.default_rng(9))
    sampler = StratumSampler(block.cluster_stratum, np.random.default_rng(9))
    counts = np.empty((3, 30))
    counts[:, sampler.order] = sampler.counts_batch(3)
    for r in range(3):
        w = counts[r, block.cluster]  # every row weighs its group's count
        keep = w > 0
        want = roc_auc_score(block.y[keep], block.scores[0][keep], sample_weight=w[keep])
        assert reps[r, 0, AUROC] == pytest.approx(want, abs=1e-12)


def test_groups_nest_in_folds_are_drawn_within_folds():
    cluster = np.array([0, 0, 1, 1, 2, 2])
    strata, nested = cluster_strata(cluster, np.array([0, 0, 1, 1, 1, 1]))
    assert nested and strata.tolist() == [0, 1, 1]
    strata, nested = cluster_strata(cluster, np.array([0, 1, 1, 1, 1, 1]))  # group 0 spans folds
    assert not nested and strata.tolist() == [0, 0, 0]


def test_grouped_jackknife_se_matches_the_spread_where_the_row_jackknife_undercovers():
    """Calibration in seconds (the full one: benchmarks/calib_groups.py): over 60 samples of 40 groups
    (ICC 0.5, 3-10 rows a group), the grouped jackknife's AUROC standard error matches the estimates'
    spread across samples, and the row-level one falls short; the grouped 95% jackknife-t intervals
    cover the truth at least 85% of the time (60 samples: MC error 3%)."""
    world = World(icc=0.5)
    true = truth(world, np.random.default_rng(0), n_groups=50_000)[0, AUROC]
    rng = np.random.default_rng(41)
    est, se_g, se_r, cover_g = [], [], [], []
    for _ in range(60):
        b = draw(world, 40, rng)
        pts = point_metrics(b)
        reps, strata = jackknife(b)
        row = dataclasses.replace(b, cluster=None, cluster_stratum=None, stratum=b.y.astype(np.int64))
        rreps, rstrata = jackknife(row)
        for r, s, out in ((reps, strata, se_g), (rreps, rstrata, se_r)):
            g = np.array([np.sum(s == v) for v in s])
            out.append(np.sqrt(np.sum((g - 1) / g * (r[:, 0, AUROC] - [r[s == v, 0, AUROC].mean() for v in s]) ** 2)))
        lo, hi = jackknife_interval(pts, reps, strata, 0.95)
        cover_g.append(lo[0, AUROC] <= true <= hi[0, AUROC])
        est.append(pts[0, AUROC])
    spread = np.std(est, ddof=1)
    assert 0.8 < np.mean(se_g) / spread < 1.3
    assert np.mean(se_r) / spread < 0.8
    assert np.mean(cover_g) >= 0.85


def test_audit_with_group_col_resamples_groups_and_says_so():
    df = _table()
    res = audit(df, label_col="y", score_cols=["a", "b"], n_boot=200, group_col="patient")
    assert "DeLong" not in set(res.intervals["method"])
    assert set(res.comparisons.loc[res.comparisons["metric"] == "auroc", "method"]) == {"paired bootstrap"}
    assert not res.pairwise["method"].str.contains("DeLong").any()
    line = next(c for c in res.columns if c.startswith("resampling unit"))
    assert "'patient'" in line and "40 groups" in line and "within folds" in line
    assert "group 'patient'" in res.columns[0]
    assert res.group_col == "patient" and "resampling unit: the group" in res.to_text()
    plain = audit(df, label_col="y", score_cols=["a", "b"], n_boot=200)
    assert "DeLong" in set(plain.intervals["method"])
    # the grouped intervals are wider here: the patient effect is shared by a patient's rows
    w = [r.intervals.query("metric == 'auroc' and method == 'jackknife-t'").eval("hi - lo").mean()
         for r in (res, plain)]
    assert w[0] != w[1]


def test_a_column_repeating_ids_within_a_task_is_offered_as_group_col():
    res = audit(_table(), label_col="y", score_cols=["a", "b"], n_boot=0)
    hit = [f for f in res.findings if f.code == "group-column"]
    assert len(hit) == 1 and "--group-col patient" in hit[0].message
    assert any("--group-col patient" in c for c in res.columns)


@pytest.mark.parametrize("kind, expected", [
    ("per-row", "one group per row"),
    ("missing", "missing values"),
    ("absent", "is not a column"),
])
def test_bad_group_col_gives_one_line_naming_the_fix(tmp_path, capsys, kind, expected):
    df = _table(12)
    col = "patient"
    if kind == "per-row":
        df["rowid"] = [f"r{i}" for i in range(len(df))]
        col = "rowid"
    elif kind == "missing":
        df.loc[3, "patient"] = None
    elif kind == "absent":
        col = "subject"
    with pytest.raises(InputError, match=expected):
        audit(df, label_col="y", score_cols=["a", "b"], n_boot=0, group_col=col)
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    rc = main(["audit", str(path), "--label-col", "y", "--score-cols", "a,b", "--bootstrap", "0", "--group-col", col])
    out, err = capsys.readouterr()
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and "Traceback" not in err + out


def test_cli_group_col(tmp_path, capsys):
    path = tmp_path / "p.csv"
    _table().to_csv(path, index=False)
    rc = main(["audit", str(path), "--label-col", "y", "--score-cols", "a,b", "--bootstrap", "100",
               "--group-col", "patient"])
    out, _ = capsys.readouterr()
    assert rc in (0, 1)
    assert "resampling unit: the group of column 'patient' (40 groups" in out


def test_grouped_intervals_are_shown_by_their_own_calibration():
    from prspace.audit.inference import grouping

    assert grouping.calibration("auroc", "jackknife-t", 29) is None  # fewer groups than ever simulated
    assert not grouping.shown("auroc", "jackknife-t", 10)
    cell = grouping.calibration("auroc", "jackknife-t", 45)
    assert cell["n_groups"] == 30 and 0 < cell["coverage"] <= 1
    res = audit(_table(), label_col="y", score_cols=["a", "b"], n_boot=200, group_col="patient")
    iv = res.intervals[res.intervals["metric"] == "auroc"].set_index(["model", "method"])["calibrated"]
    assert iv[("a", "jackknife-t")] == grouping.shown("auroc", "jackknife-t", 40)
    assert iv[("a", "bootstrap")] == grouping.shown("auroc", "bootstrap", 40)
    assert set(res.pairwise.loc[res.pairwise["role"] == "decides", "method"]) <= {"jackknife t, Holm"}


def test_grouped_report_lines_follow_the_grouped_calibration():
    res = audit(_table(), label_col="y", score_cols=["a", "b"], n_boot=100, group_col="patient")
    text = res.to_text()
    assert "groups resampled, 40 groups" in text
    assert "covers only" not in text  # the row-level calibration's sentences do not apply to groups


def test_arrays_form_takes_groups():
    df = _table()
    res = audit(df["y"].to_numpy(), scores={"a": df["a"], "b": df["b"]}, groups=df["patient"], n_boot=50)
    assert any("resampling unit: the group" in c and "40 groups" in c for c in res.columns)
    assert "DeLong" not in set(res.intervals["method"])
    with pytest.raises(InputError, match="groups= goes with arrays"):
        audit(df, label_col="y", score_cols=["a", "b"], groups=df["patient"])
