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
