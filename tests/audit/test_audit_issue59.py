"""Issue 59 on files made here: a real metrics-only mode; ``--bootstrap 0`` as its help says; the headline
derived from the body's decisions; no pair called distinguishable beside a simultaneous interval holding 0."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from prspace.audit import audit
from prspace.cli import main


def _wide(n: int, pi: float, seed: int, gaps=(1.0, 1.3, 1.6)) -> pd.DataFrame:
    """Untied scores as predict_proba gives them: three models of growing strength."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < pi).astype(int)
    cols = {"y_true": y}
    for k, g in enumerate(gaps):
        cols[f"m{k}"] = 1 / (1 + np.exp(-(y * g + rng.normal(size=n) - 3)))
    return pd.DataFrame(cols)


def test_metrics_only_is_exact_and_computes_no_interval(tmp_path, capsys):
    df = _wide(5000, 0.05, 0)
    res = audit(df, score_cols=["m0", "m1", "m2"], metrics_only=True)
    for m in ("m0", "m1", "m2"):
        row = res.pooled.set_index("model").loc[m]
        assert abs(row["auroc"] - roc_auc_score(df["y_true"], df[m])) < 1e-12
        assert abs(row["average_precision"] - average_precision_score(df["y_true"], df[m])) < 1e-12
    assert not len(res.intervals) and not len(res.comparisons) and not len(res.pairwise)
    assert res.metrics_only and "--metrics-only" in " ".join(res.headline())
    f = tmp_path / "p.csv"
    df.to_csv(f, index=False)
    assert main(["audit", str(f), "--score-cols", "m0,m1,m2", "--metrics-only"]) == 0
    out = capsys.readouterr().out
    assert "point estimates only" in out and "metrics only" in out and "[0." not in out


def test_bootstrap_help_says_what_it_does(capsys):
    main(["audit", "--help"])  # the command line prints the help and returns (no SystemExit)
    text = " ".join(capsys.readouterr().out.split())
    assert "0 = DeLong and Boyd's intervals only" not in text
    assert "jackknife" in text and "--metrics-only" in text


def _headline_decision(res) -> tuple[str, bool]:
    line = [s for s in res.headline() if "AUPR lead" in s][0]
    return line, "is distinguishable from noise" in line


@pytest.mark.parametrize("gaps", [(1.0, 1.3, 1.6), (1.0, 1.02, 1.04)])
def test_headline_equals_the_body_under_bootstrap_0(gaps):
    res = audit(_wide(4000, 0.08, 3, gaps), score_cols=["m0", "m1", "m2"], n_boot=0)
    line, said = _headline_decision(res)
    assert "not tested" not in line, line
    best = res.ranks.set_index("model")["aupr"].idxmin()
    runner = res.ranks.set_index("model")["aupr"].drop(best).idxmin()
    pw = res.pairwise
    row = pw[(pw["metric"] == "aupr") & (pw["role"] == "decides")
             & (((pw["model_a"] == best) & (pw["model_b"] == runner)) | ((pw["model_a"] == runner) & (pw["model_b"] == best)))]
    assert len(row) == 1 and bool(row["survives"].iloc[0]) == said, (line, row.T)
    short = re.search(r"AUPR \(([^)]+)\)", res.to_text()).group(1)
    assert short in line


def test_no_pair_is_distinguishable_beside_an_interval_holding_0():
    for seed in range(3):
        res = audit(_wide(1500, 0.1, seed, (1.0, 1.15, 1.3)), score_cols=["m0", "m1", "m2"], n_boot=200)
        for table, lo, hi, flag in ((res.comparisons, "lo_simultaneous", "hi_simultaneous", "distinguishable"),
                                    (res.pairwise, "lo", "hi", "survives")):
            t = table[table[flag].astype(bool)]
            assert ((t[lo] > 0) | (t[hi] < 0)).all(), t


def _long(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(n), "fold": np.arange(n) % 5, "y_true": y,
                                    "score": y + rng.normal(size=n)}) for m in ("a", "b", "c")], ignore_index=True)


def test_a_row_id_in_two_folds_of_one_model_is_one_error_naming_model_id_and_folds(tmp_path, capsys):
    df = _long()
    i = df.index[(df["model"] == "b") & (df["row_id"] == 8)][0]
    df.loc[i, ["row_id", "fold"]] = [7, 4]  # row 7 (fold 2) scored again in fold 4 by b alone
    f = tmp_path / "p.csv"
    df.to_csv(f, index=False)
    rc = main(["audit", str(f), "--bootstrap", "0"])
    out, err = capsys.readouterr()
    assert rc == 2 and not out and len(err.strip().splitlines()) == 1, err
    assert "model 'b'" in err and "'7'" in err and "(2, 4)" in err and "--repeat-col" in err
    assert "'a'" not in err and "'c'" not in err  # no blame for the models without the problem


def test_fold_local_row_ids_stay_paired_by_fold_and_id():
    df = _long()
    df["row_id"] = df.groupby(["model", "fold"]).cumcount()  # ids restart in every fold
    res = audit(df, n_boot=0)
    assert res.paired["all"] and not any(f.code == "rows-dropped" for f in res.findings)


def test_grouped_rows_lead_the_headline():
    rng = np.random.default_rng(5)
    n_pat, per = 60, 8
    patient = np.repeat(np.arange(n_pat), per)
    y = np.repeat((rng.random(n_pat) < 0.4).astype(int), per)
    effect = np.repeat(rng.normal(size=n_pat), per)
    df = pd.DataFrame({"patient": patient, "y_true": y, "a": y + effect + 0.3 * rng.normal(size=y.size),
                       "b": y + effect + 0.3 * rng.normal(size=y.size)})
    res = audit(df, score_cols=["a", "b"], n_boot=0)
    head = res.headline()
    assert head[0].startswith("GROUPED ROWS") and "--group-col patient" in head[0], head
    assert not audit(df, score_cols=["a", "b"], n_boot=0, group_col="patient").headline()[0].startswith("GROUPED")


def test_every_interval_lies_in_its_metrics_range_and_tiny_p_values_read_as_below_1e_16():
    rng = np.random.default_rng(2)
    n = 3000
    y = (rng.random(n) < 0.05).astype(int)
    df = pd.DataFrame({"y_true": y, "sharp": y * 4.0 + rng.normal(size=n), "dull": y * 0.5 + rng.normal(size=n)})
    res = audit(df, score_cols=["sharp", "dull"], n_boot=200)
    iv = res.intervals.dropna(subset=["lo", "hi"])
    assert (iv["hi"] <= 1).all() and (iv.loc[iv["metric"] != "auprg", "lo"] >= 0).all(), iv
    auprg = iv[(iv["metric"] == "auprg") & (iv["model"] == "sharp")]
    assert len(auprg) and (auprg["hi"] <= 1).all()
    text = res.to_text()
    assert "p = 0," not in text and "p = 0)" not in text
    assert "p < 1e-16" in " ".join(text.split())


def test_p_values_and_missing_numbers_say_what_they_are():
    from prspace.audit.audit_numbers import p_eq, p_text

    assert p_text(0.0) == "< 1e-16" and p_eq(3e-20) == "< 1e-16" and p_eq(0.0431) == "= 0.043"
    assert p_text(float("nan")) == "not computed"


def test_power_says_why_there_is_no_power_and_shows_small_differences(tmp_path, capsys):
    rng = np.random.default_rng(0)
    n = 400
    y = (rng.random(n) < 0.2).astype(int)
    s = y + rng.normal(size=n)
    f = tmp_path / "p.csv"
    pd.DataFrame({"y_true": y, "a": s, "b": s}).to_csv(f, index=False)
    assert main(["power", str(f), "--score-cols", "a,b", "--sims", "20", "--metric", "auroc", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "nan" not in out and "tied on this metric" in out, out
    assert "prspace power:" in err and "auroc" in err
    from prspace.cli.power import _line

    row = {"task": "t", "metric": "auroc", "model_a": "a", "model_b": "b", "observed_diff": 8.6e-5,
           "power_observed": 0.05, "power_mc_se": 0.01, "minimal_detectable": 0.02, "target": 0.8, "test": "DeLong z",
           "alpha_pair": 0.05, "pairs": 1, "raw_threshold": 0.05}
    line = _line(row, "10 positives", "positives", float("nan"), 1000)
    assert "= +0.0001;" in line and "more than 1,000" in line, line  # never "+0.000" for a difference that is not 0


def test_power_leads_with_the_grouped_rows_warning(tmp_path, capsys):
    rng = np.random.default_rng(5)
    n_pat, per = 40, 5
    y = np.repeat((rng.random(n_pat) < 0.4).astype(int), per)
    effect = np.repeat(rng.normal(size=n_pat), per)
    df = pd.DataFrame({"patient": np.repeat(np.arange(n_pat), per), "y_true": y,
                       "a": y + effect + rng.normal(size=y.size), "b": y + effect + rng.normal(size=y.size)})
    f = tmp_path / "g.csv"
    df.to_csv(f, index=False)
    assert main(["power", str(f), "--score-cols", "a,b", "--sims", "20", "--metric", "auroc"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "GROUPED ROWS" in first and "--group-col patient" in first


def test_the_apis_keywords_are_the_command_lines_options():
    import argparse
    import inspect

    from prspace.cli import audit as cli_audit

    parser = argparse.ArgumentParser()
    cli_audit.register(parser.add_subparsers())
    sub = parser._subparsers._group_actions[0].choices["audit"]
    options = {a.dest for a in sub._actions if a.option_strings and a.dest != "help"}
    file_only = {"sep", "decimal", "out", "strict"}  # reading a file and writing one: the API takes a frame
    params = set(inspect.signature(audit).parameters)
    assert options - file_only <= params, sorted(options - file_only - params)
    df = _wide(600, 0.2, 1).rename(columns={"y_true": "diagnosis"}).assign(site="s1")
    a = audit(df, label_col="diagnosis", score_cols="m0,m1", ignore_col=["m2", "site"], task_col="", n_boot=0)
    with pytest.warns(FutureWarning) as said:  # the former spellings: still accepted, each naming its new keyword
        b = audit(df, label="diagnosis", score_cols="m0,m1", ignore=["m2", "site"], task="", bootstrap=0)
    assert a.n_boot == b.n_boot == 0 and a.pooled.equals(b.pooled)
    assert sorted(str(w.message) for w in said) == [
        f"audit(): {old}= is deprecated, use {new}= instead"
        for old, new in sorted({"label": "label_col", "ignore": "ignore_col", "task": "task_col",
                                "bootstrap": "n_boot"}.items())]


def test_a_result_plots_its_curves_and_shows_them_in_a_notebook():
    from matplotlib.figure import Figure

    res = audit(_wide(800, 0.2, 4), score_cols=["m0", "m1"], metrics_only=True)
    fig = res.plot()
    assert isinstance(fig, Figure) and len(fig.axes) >= 3
    html = res._repr_html_()
    assert "data:image/png;base64," in html and "result.plot()" in html


def test_operating_points_with_intervals_match_scikit_learn_points():
    df = _wide(1500, 0.15, 6)
    res = audit(df, score_cols=["m0", "m1"], metrics_only=True)
    t = res.operating_points(max_fpr=[0.1], specificity=[0.9], recall=[0.5], n_boot=200)
    assert len(t) == 2 * 3 and t["lo"].le(t["estimate"]).all() and t["estimate"].le(t["hi"]).all(), t
    pa = t[(t["model"] == "m1") & t["measure"].str.startswith("partial")]["estimate"].iloc[0]
    assert abs(pa - roc_auc_score(df["y_true"], df["m1"], max_fpr=0.1)) < 1e-9
    assert (t["hi"] - t["lo"] > 0).all() and t["method"].str.contains("bootstrap").all()


def test_out_on_many_untied_rows_writes_every_file_with_exact_points_and_bands_from_the_two_stage_draws(
        tmp_path, monkeypatch):
    """``--out`` on untied scores (the issue's case; the bands' two-stage draws forced at this size): the same
    files as before (names), metrics.csv's AUROC and AP scikit-learn's (to the CSV's 6 decimals), and bands.csv's estimates the exact
    curves of all the rows (every grid point, the first and last of each curve included), its bands around them."""
    import prspace.stats.bands as B

    taken = []
    real = B._block_replicates
    monkeypatch.setattr(B, "_block_replicates", lambda *a, **k: taken.append(1) or real(*a, **k))
    monkeypatch.setattr(B, "BLOCK_MIN_ROWS", 2000)
    monkeypatch.setattr(B, "BLOCK_MIN_GROUPS", 1000)
    df = _wide(6000, 0.1, 3)
    f = tmp_path / "pred.csv"
    df.to_csv(f, index=False)
    out = tmp_path / "out"
    assert main(["audit", str(f), "--score-cols", "m0,m1,m2", "--bootstrap", "200", "--out", str(out)]) == 0
    assert len(taken) == 3  # the three drawn models' bands, two-stage
    written = {p.name for p in out.iterdir()}
    assert written == {"report.md", "report.html", "curves.png", "intervals.png", "bands.png", "bands.csv",
                       "metrics.csv", "ranks.csv", "intervals.csv", "comparisons.csv", "rank_sets.csv", "pairwise.csv",
                       "auroc_bounds.csv", "estimators.csv", "findings.csv"}
    metrics = pd.read_csv(out / "metrics.csv").set_index("model")
    for m in ("m0", "m1", "m2"):
        assert metrics.loc[m, "auroc"] == pytest.approx(roc_auc_score(df["y_true"], df[m]), abs=5e-7)
        assert metrics.loc[m, "average_precision"] == pytest.approx(average_precision_score(df["y_true"], df[m]),
                                                                    abs=5e-7)
    bands = pd.read_csv(out / "bands.csv")
    assert set(bands["model"]) == {"m0", "m1", "m2"}
    for (model, curve), b in bands.groupby(["model", "curve"]):
        exact = B.curve_bands(df["y_true"].to_numpy(), df[model].to_numpy(), curves=(curve,), n_boot=2)[curve]
        np.testing.assert_array_equal(b["grid"].to_numpy(), exact.grid)  # every grid point, its ends included
        np.testing.assert_allclose(b["estimate"].to_numpy(), exact.estimate, rtol=0, atol=5e-7)  # the CSV's digits
        assert (b["lo"] <= b["estimate"] + 1e-12).all() and (b["estimate"] <= b["hi"] + 1e-12).all()
        assert (b["hi"] - b["lo"]).max() > 0 and (b["n_resamples"] == 200).all()
