"""Tests of ``prspace audit``: the happy path, every finding, every kind of bad input.

Oracles: scikit-learn (AUROC, AP), Boyd et al.'s closed form for AUPR_MIN, scipy's
rankdata, row duplication for sample weights, and a simulated population for the
downsampling re-weighting.  The CLI runs in-process through ``prspace.cli.main`` and,
once each for good and bad input, as a subprocess.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.metrics import average_precision_score, roc_auc_score

from prspace import audit
from prspace import metrics as M
from prspace.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "audit-example.csv"


def boyd_aupr_min(pi: float) -> float:
    """Boyd et al. (2012), Theorem 2."""
    return 1 + (1 - pi) * math.log(1 - pi) / pi


def frame(
    *,
    n_pos: int = 20,
    n_neg: int = 80,
    noise: dict[str, float] | None = None,
    folds: int = 4,
    stratified: bool = True,
    seed: int = 0,
) -> pd.DataFrame:
    """Long-format predictions: each model's score = label + noise * N(0, 1)."""
    noise = noise or {"sharp": 0.4, "middling": 0.8, "blunt": 1.5}
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    if stratified:
        fold = np.r_[np.arange(n_pos) % folds, np.arange(n_neg) % folds]
    else:
        fold = rng.integers(0, folds, n_pos + n_neg)
    parts = []
    for name, sd in noise.items():
        parts.append(
            pd.DataFrame(
                {
                    "model": name,
                    "fold": fold,
                    "y_true": y,
                    "score": y + sd * rng.normal(size=y.size),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def run_cli(
    tmp_path: Path, df: pd.DataFrame | None, *args: str, name: str = "preds.csv", capsys=None
):
    path = tmp_path / name
    if df is not None:
        if name.endswith(".parquet"):
            df.to_parquet(path, index=False)
        else:
            df.to_csv(path, index=False)
    rc = main(["audit", str(path), *args])
    out, err = capsys.readouterr() if capsys else ("", "")
    return rc, out, err


def flat(text: str) -> str:
    """The terminal summary with its line wrapping undone."""
    return " ".join(text.split())


def audit_frame(df: pd.DataFrame, pos_label: str | None = None, **kwargs) -> audit.AuditResult:
    cols = audit.resolve_columns(list(df.columns))
    data, positive = audit.prepare(df, cols, pos_label=pos_label)
    return audit.run_audit(data, positive, **({"n_boot": 200} | kwargs))


def codes(result: audit.AuditResult) -> set[str]:
    return {f.code for f in result.findings}


# --------------------------------------------------------------------------- happy path


def test_happy_path_metrics_ranks_report_and_figure(tmp_path, capsys):
    df = frame()
    rc, out, err = run_cli(tmp_path, df, "--out", str(tmp_path / "report"), capsys=capsys)
    assert rc == 0, err
    assert "No warnings" in flat(out)
    assert "3 models, 1 task, 4 folds" in flat(out)
    for model in ("sharp", "middling", "blunt"):
        assert model in flat(out)

    # the tables carry 6 significant digits (prspace.core.output precision policy)
    pooled = pd.read_csv(tmp_path / "report" / "metrics.csv")
    for row in pooled.itertuples():
        g = df[df["model"] == row.model]
        assert row.auroc == pytest.approx(roc_auc_score(g["y_true"], g["score"]), abs=1e-5)
        assert row.average_precision == pytest.approx(
            average_precision_score(g["y_true"], g["score"]), abs=1e-5
        )
        assert row.pi == pytest.approx(0.2)
        assert row.aupr_min == pytest.approx(boyd_aupr_min(0.2), abs=1e-5)
        assert row.aucnpr == pytest.approx(
            (row.aupr - row.aupr_min) / (1 - row.aupr_min), abs=1e-5
        )

    # fold means against scikit-learn per fold
    folds = pd.read_csv(tmp_path / "report" / "fold_metrics.csv")
    assert len(folds) == 3 * 4
    g = df[df["model"] == "middling"]
    expect = np.mean([roc_auc_score(f["y_true"], f["score"]) for _, f in g.groupby("fold")])
    result = audit_frame(df)
    s = result.fold_summary.set_index("model")
    assert s.loc["middling", "auroc_mean"] == pytest.approx(expect, abs=1e-12)
    assert s.loc["middling", "n_folds"] == 4

    # ranks: 1 = best, scipy's average ranks
    ranks = pd.read_csv(tmp_path / "report" / "ranks.csv").set_index("model")
    expected = rankdata(-pooled["auroc"].to_numpy())
    assert ranks.loc[pooled["model"], "auroc"].to_numpy() == pytest.approx(expected)
    assert ranks.loc["sharp", "auroc"] == 1  # least noise

    report = (tmp_path / "report" / "report.md").read_text()
    assert "## Findings" in report and "![ROC, PR and PRG curves" in report
    assert "| sharp |" in report
    import matplotlib.image

    from prspace.audit.report.plot import DPI

    img = matplotlib.image.imread(tmp_path / "report" / "curves.png")
    assert img.shape[0] > 500 and img.shape[1] == 15 * DPI  # 15 inches at the report's resolution
    assert img[..., :3].std() > 0.05  # not blank


def test_parquet_input_and_weights_equal_duplicated_rows(tmp_path, capsys):
    df = frame(seed=3)
    rc, out_csv, _ = run_cli(tmp_path, df, capsys=capsys)
    rc2, out_pq, _ = run_cli(tmp_path, df, name="preds.parquet", capsys=capsys)
    assert rc == rc2 == 0
    assert (
        out_csv.split("\n", 1)[1] == out_pq.split("\n", 1)[1]
    )  # same audit apart from the file name

    # weight 2 on some rows == those rows twice
    w = np.where(np.arange(len(df)) % 3 == 0, 2.0, 1.0)
    by_name = audit_frame(df.assign(weight=w), pos_label=None)  # a column 'weight' is taken by default (issue 32)
    assert "weight" in audit.DEFAULT_COLUMNS["weight"]
    cols = audit.resolve_columns(list(df.columns) + ["w"], weight="w")
    data, pos = audit.prepare(df.assign(w=w), cols)
    weighted = audit.run_audit(data, pos)
    duplicated = audit_frame(pd.concat([df, df[w == 2.0]], ignore_index=True))
    a = weighted.pooled.set_index("model")[list(audit.RANKED)]
    b = duplicated.pooled.set_index("model")[list(audit.RANKED)]
    pd.testing.assert_frame_equal(a, b, atol=1e-12, rtol=0)
    pd.testing.assert_frame_equal(by_name.pooled.set_index("model")[list(audit.RANKED)], b, atol=1e-12, rtol=0)


def test_predictions_schema_columns_need_no_flags(tmp_path, capsys):
    # prspace's own predictions files: task_id, model_id, boolean y_true, score, fold
    df = frame(seed=8).rename(columns={"model": "model_id"})
    df = df.assign(task_id="keel-x", y_true=df["y_true"].astype(bool), repeat=0)
    rc, out, err = run_cli(tmp_path, df, name="p.parquet", capsys=capsys)
    assert rc == 0, err
    assert "positive class: y_true == True" in flat(out)
    assert "task_id='keel-x'" not in out and "task 'task_id'" in out
    # two repeats: fold k of repeat 0 and of repeat 1 are different folds
    twice = pd.concat([df, df.assign(repeat=1)], ignore_index=True)
    result = audit_frame(twice)
    assert set(result.folds["fold"]) == {f"{r}/{k}" for r in (0, 1) for k in range(4)}
    assert (result.fold_summary["n_folds"] == 8).all()
    assert "repeat" not in audit.resolve_columns(list(twice.columns), repeat="").__dict__.values()
    # without folds: no fold table, no fold findings
    rc, out, err = run_cli(tmp_path, None, "--fold-col", "", name="p.parquet", capsys=capsys)
    assert rc == 0, err
    assert "over folds" not in out and "3 models, 1 task;" in flat(out)


def test_disagreement_sentences_name_the_models(tmp_path, capsys):
    # "early": half the positives on top, the rest at the very bottom -> high AUPR, low AUROC;
    # "steady": every positive right after one negative -> AUROC 0.94, precision about 1/2 throughout
    early = ["P"] * 5 + ["N"] * 85 + ["P"] * 5 + ["N"] * 5
    steady = ["N", "P"] * 10 + ["N"] * 80
    rows = []
    for name, order in (("early", early), ("steady", steady)):
        n = len(order)
        rows += [
            {"model": name, "y_true": int(c == "P"), "score": float(n - i)}
            for i, c in enumerate(order)
        ]
    df = pd.DataFrame(rows)
    auc = {m: roc_auc_score(g.y_true, g.score) for m, g in df.groupby("model")}
    ap = {m: average_precision_score(g.y_true, g.score) for m, g in df.groupby("model")}
    assert (
        auc["steady"] > auc["early"] and ap["early"] > ap["steady"]
    )  # scikit-learn agrees it is a split
    rc, out, _ = run_cli(tmp_path, df, capsys=capsys)
    assert rc == 0
    assert (
        "AUPR and AUROC disagree on the best model: AUPR picks early, AUROC picks steady"
        in flat(out)
    )
    assert "AP and AUPR agree on the best model (early)" in flat(out)


# --------------------------------------------------------------------------- findings


def test_skew_varies_folds_warns_and_strict_exits_1(tmp_path, capsys):
    df = frame(stratified=False, n_pos=30, n_neg=70, folds=5, seed=1)
    # make the skews differ for sure: move positives into fold 0
    df.loc[(df["y_true"] == 1) & (df.index % 2 == 0), "fold"] = 0
    rc, out, _ = run_cli(tmp_path, df, capsys=capsys)
    assert rc == 0
    assert "WARNING [skew-varies-folds]" in flat(
        out
    ) and "Prefer the pooled AUPR or the mean AUCNPR" in flat(out)
    rc, _, _ = run_cli(tmp_path, None, "--strict", capsys=capsys)
    assert rc == 1
    # a generous tolerance silences it
    rc, out, _ = run_cli(tmp_path, None, "--skew-tolerance", "0.5", capsys=capsys)
    assert "skew-varies-folds" not in flat(out)


def test_fold_skew_finding_names_the_pair_that_swaps():
    # Two folds of skew 0.5 and 0.1.  Y has the higher mean AUPR, X the higher mean AUCNPR
    # (AUCNPR stretches the fold with the higher floor more).
    rows = []
    for model, (a1, a2) in {"X": (0.95, 0.25), "Y": (0.55, 0.67)}.items():
        for fold, pi, a in ((0, 0.5, a1), (1, 0.1, a2)):
            lo = float(M.aupr_min(pi))
            rows.append(
                {
                    "task": "t",
                    "model": model,
                    "fold": fold,
                    "pi": pi,
                    "aupr_min": lo,
                    "aupr": a,
                    "aucnpr": (a - lo) / (1 - lo),
                }
            )
    folds = pd.DataFrame(rows)
    (finding,) = audit.fold_skew_findings(folds, skew_tolerance=0.02)
    assert finding.code == "skew-varies-folds"
    assert "Y beats X by mean AUPR (0.610 vs 0.600) but loses by mean AUCNPR" in finding.message
    # identical skews: nothing to say
    same = folds.assign(pi=0.1, aupr_min=float(M.aupr_min(0.1)))
    assert audit.fold_skew_findings(same) == []


def test_skew_varies_tasks(tmp_path, capsys):
    a = frame(n_pos=50, n_neg=50, seed=4).assign(task_id="balanced")
    b = frame(n_pos=5, n_neg=95, seed=5).assign(task_id="rare")
    rc, out, _ = run_cli(tmp_path, pd.concat([a, b]), capsys=capsys)
    assert rc == 0
    assert (
        "2 tasks" in flat(out)
        and "task balanced: pi = 0.500" in flat(out)
        and "task rare: pi = 0.050" in flat(out)
    )
    assert (
        "WARNING [skew-varies-tasks] across tasks: the tasks' skews differ: pi from 0.050 to 0.500"
        in flat(out)
    )
    assert "Prefer the mean AUCNPR" in flat(out)


def test_worse_than_random_and_below_always_positive(tmp_path, capsys):
    df = frame(noise={"good": 0.5})
    rng = np.random.default_rng(7)
    reversed_ = df.assign(model="reversed", score=-df["y_true"] + 0.3 * rng.normal(size=len(df)))
    constant = df.assign(model="constant", score=0.5)
    rc, out, _ = run_cli(tmp_path, pd.concat([df, reversed_, constant]), capsys=capsys)
    assert rc == 0
    result = audit_frame(pd.concat([df, reversed_, constant]))
    by = {(f.code, f.where) for f in result.findings}
    assert ("worse-than-random", "model reversed") in by
    assert ("below-always-positive", "model reversed") in by
    # all scores tied: exactly the always-positive classifier; AUPRG 0 is not worse than random
    assert ("below-always-positive", "model constant") in by
    assert ("worse-than-random", "model constant") not in by
    assert not any(f.where == "model good" for f in result.findings)
    assert "WARNING [worse-than-random] model reversed" in flat(out)


def test_below_always_positive_is_the_f1_of_predicting_everything_positive():
    # pi = 0.5: always-positive F1 = 2/3.  A model that at best reaches precision 0.5 at
    # recall 1 never beats it; one threshold with F1 > 2/3 is enough to beat it.
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0])
    never = pd.DataFrame({"model": "m", "y_true": y, "score": [8, 9, 6, 7, 4, 5, 2, 3]})
    assert "below-always-positive" in codes(audit_frame(never))
    beats = never.assign(score=[9, 8, 7, 1, 6, 2, 3, 4])  # top 3 all positive: F1 = 6/7
    assert "below-always-positive" not in codes(audit_frame(beats))


def _downsampled(seed: int) -> tuple[pd.DataFrame, float]:
    """A population with pi = 0.05 and its 1:1 downsampled test set (every positive kept)."""
    rng = np.random.default_rng(seed)
    n_pos, n_neg = 1000, 19000
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    score = rng.normal(size=y.size) + 1.5 * y
    keep = np.r_[np.arange(n_pos), n_pos + rng.choice(n_neg, n_pos, replace=False)]
    test = pd.DataFrame({"model": "m", "y_true": y[keep], "score": score[keep]})
    return test, M.aupr(y, score)


def _reweighted(result: audit.AuditResult) -> tuple[float, float]:
    (finding,) = [f for f in result.findings if f.code == "downsampled-test"]
    test_aupr, reweighted = (float(x) for x in finding.message.rsplit("m ", 1)[1].split(" -> "))
    return test_aupr, reweighted


def test_downsampled_test_set_reweighting_recovers_population_aupr(tmp_path, capsys):
    # Re-weighting the 1:1 test set to --train-pi 0.05 must land near the AUPR on the whole
    # population, while the test-set AUPR is far above it (Boyd et al. 2012, Table 3).
    test, population_aupr = _downsampled(0)
    rc, out, _ = run_cli(tmp_path, test, "--train-pi", "0.05", capsys=capsys)
    assert rc == 0
    assert "WARNING [downsampled-test]" in flat(out)
    errors = []
    for seed in range(8):
        test, population_aupr = _downsampled(seed)
        result = audit_frame(test, train_pi=0.05)
        test_aupr, reweighted = _reweighted(result)
        assert test_aupr == pytest.approx(result.pooled["aupr"].iloc[0], abs=5e-4)
        assert test_aupr > population_aupr + 0.4
        errors.append(reweighted - population_aupr)
    # an estimate from 1000 negatives: unbiased up to a small excess at the top of the curve
    assert abs(np.mean(errors)) < 0.02
    assert np.max(np.abs(errors)) < 0.08
    # the same prevalence as the test set: no warning; a train-pi column works too
    assert "downsampled-test" not in codes(audit_frame(test, train_pi=0.5))
    rc, out, _ = run_cli(tmp_path, test.assign(prev=0.05), "--train-pi", "prev", capsys=capsys)
    assert "WARNING [downsampled-test]" in flat(out)


def test_balanced_test_set_note_without_train_pi():
    df = frame(n_pos=40, n_neg=40)
    result = audit_frame(df)
    (f,) = [f for f in result.findings if f.code == "balanced-test"]
    assert f.severity == "note" and "--train-pi" in f.message
    assert "balanced-test" not in codes(audit_frame(frame(n_pos=20, n_neg=80)))


def test_aupr_below_min_is_an_error_with_exit_1(tmp_path, capsys, monkeypatch):
    df = frame()

    def broken(real):  # a metric implementation that loses area (the sorted path and the tie-count path)
        def metric(*args, **kwargs):
            out = real(*args, **kwargs)
            return out | {"aupr": out["aupr"] * 0.1 if out["pi"] > 0 else out["aupr"]}
        return metric

    monkeypatch.setattr(M, "all_metrics", broken(M.all_metrics))
    monkeypatch.setattr(M, "metrics_from_group_counts", broken(M.metrics_from_group_counts))
    rc, out, _ = run_cli(tmp_path, df, capsys=capsys)
    assert rc == 1
    assert "ERROR [aupr-below-min]" in flat(out)
    assert "no ranking can reach" in flat(out)


def test_aupr_and_ap_never_below_their_minima_on_valid_input():
    # Boyd et al.'s bound, as the audit checks it, holds for ties, weights and bad rankings.
    rng = np.random.default_rng(5)
    for i in range(20):
        n = int(rng.integers(4, 60))
        y = rng.random(n) < rng.uniform(0.05, 0.6)
        y[0], y[1] = True, False
        score = np.round(rng.normal(size=n) - rng.uniform(-2, 2) * y, int(rng.integers(0, 2)))
        df = pd.DataFrame(
            {"model": "m", "y_true": y.astype(int), "score": score, "fold": rng.integers(0, 3, n)}
        )
        if i % 2:
            df["weight"] = rng.uniform(0, 3, n)
            cols = audit.resolve_columns(list(df.columns), weight="weight")
        else:
            cols = audit.resolve_columns(list(df.columns))
        data, pos = audit.prepare(df, cols)
        pooled = audit.pooled_metrics(data)
        assert (pooled["aupr"] >= pooled["aupr_min"] - 1e-12).all()
        findings = audit.run_audit(data, pos, n_boot=0).findings
        assert "aupr-below-min" not in {f.code for f in findings}
        # and the worst ranking attains the minimum exactly
        worst = M.aupr(y, np.where(y, 0.0, 1.0))
        assert worst == pytest.approx(float(M.aupr_min(y.mean())), abs=1e-12)


def test_tables_from_tie_counts_equal_the_sorted_tables_bit_for_bit():
    # pooled, fold and estimator tables from each model's tie groups counted (unit weights) are the sorted path's
    # numbers exactly: ties, -0.0 and 0.0, a one-class fold, a model with untied scores (not coded), two tasks
    from prspace.audit.inference import tables

    rng = np.random.default_rng(11)
    n = 6000  # more distinct untied scores than intervals.TIE_HASHED
    y = rng.random(n) < 0.1
    y[:2] = [True, False]
    frames = []
    for task in ("a", "b"):
        for m, decimals in (("tied", 2), ("coarse", 0), ("untied", None)):
            s = rng.normal(size=n) + y
            s = s if decimals is None else np.round(s, decimals)
            s[5:20] = -0.0
            fold = np.where(np.arange(n) < 40, 9, rng.integers(0, 4, n))  # fold 9: rows 0-39
            fold[(fold == 9) & ~y] = 8  # fold 9 only positives: one class
            frames.append(pd.DataFrame({"task": task, "model": m, "y_true": y.astype(int), "score": s,
                                        "fold": fold}))
    df = pd.concat(frames, ignore_index=True)
    data, _ = audit.prepare(df, audit.resolve_columns(list(df.columns)))
    ties = tables.tie_codes(data)
    assert ties is not None and sorted(k[1] for k in ties.width) == ["coarse", "coarse", "tied", "tied"]
    for f in (tables.pooled_metrics, tables.fold_metrics, tables.estimator_table):
        a, b = f(data), f(data, ties)
        assert a.columns.tolist() == b.columns.tolist() and a.dtypes.equals(b.dtypes)
        for c in a.columns:
            assert np.array_equal(a[c].to_numpy(), b[c].to_numpy(), equal_nan=a[c].dtype.kind == "f"), (f, c)
    # the best F1 of the findings from the tie counts: pr_curve's points, bit for bit
    from prspace.audit.report.findings import best_f1

    for i, d in enumerate((0, 1, 2, 3)):
        s = np.round(rng.normal(size=n) + y, d) * (-1) ** i
        s[:30] = -0.0
        curve = M.pr_curve(y, s)
        p, r = curve.precision, curve.recall
        ok = (p + r) > 0
        assert best_f1(y, s, np.ones(n)) == float(np.max(2 * p[ok] * r[ok] / (p[ok] + r[ok])))
    weighted = df.assign(weight=rng.uniform(0.5, 2.0, len(df)))
    data, _ = audit.prepare(weighted, audit.resolve_columns(list(weighted.columns), weight="weight"))
    assert tables.tie_codes(data) is None  # weights: the sorted path


def test_fold_with_one_class_is_left_out_of_fold_means():
    df = frame(n_pos=6, n_neg=60, folds=3)
    df.loc[(df["y_true"] == 1), "fold"] = df.loc[(df["y_true"] == 1), "fold"].where(
        df.loc[(df["y_true"] == 1), "fold"] != 2, 0
    )  # fold 2 now holds negatives only
    result = audit_frame(df)
    assert "fold-one-class" in codes(result)
    assert (result.fold_summary["n_folds"] == 2).all()


def test_models_scored_on_different_rows_are_flagged_in_the_headline(tmp_path, capsys):
    # issue 15, item 5: one model scored with half its negatives removed
    df = frame(folds=5, seed=2)
    # half the negatives of folds 0 and 1 removed for one model: its folds' skews now differ
    drop = (df["model"] == "blunt") & (df["y_true"] == 0) & df["fold"].isin([0, 1]) & (df.index % 2 == 0)
    df = df[~drop]
    n_blunt = int((df["model"] == "blunt").sum())
    assert n_blunt < 100
    result = audit_frame(df)
    (f,) = [f for f in result.findings if f.code == "different-test-rows"]
    assert f.severity == "warning" and f"blunt on {n_blunt} rows" in f.message
    assert result.headline()[0].startswith("NOT COMPARABLE")
    assert result.sentences[audit.SINGLE_TASK][0].startswith("NOT COMPARABLE")
    assert result.comparisons.empty  # no paired test across different rows
    # the folds of blunt only now differ in skew: the finding names it
    (skew,) = [f for f in result.findings if f.code == "skew-varies-folds"]
    assert skew.where == "model blunt" and "the folds of blunt" in skew.message
    rc, out, _ = run_cli(tmp_path, df, "--bootstrap", "50", capsys=capsys)
    head = flat(out).split("Headline:", 1)[1].split("Pooled metrics", 1)[0]
    assert "NOT COMPARABLE" in head


# --------------------------------------------------------------------------- bad input


def _bad(kind: str) -> tuple[pd.DataFrame | None, list[str], str, str]:
    """(table, extra args, file name, expected part of the one-line message)."""
    good = frame(noise={"a": 0.5, "b": 1.0})
    if kind == "missing-column":
        return good, ["--label-col", "truth"], "p.csv", "no column 'truth' (given with --label-col)"
    if kind == "no-score-column":
        return (
            good.rename(columns={"score": "prob"}),
            [],
            "p.csv",
            "no score column: looked for 'score' or 'y_score'",
        )
    if kind == "non-binary":
        return good.assign(y_true=np.arange(len(good)) % 3), [], "p.csv", "has 3 distinct labels"
    if kind == "nan-score":
        bad = good.copy()
        bad.loc[5, "score"] = np.nan
        return bad, [], "p.csv", "1 missing (NaN) scores (first at data row 6, model 'a')"
    if kind == "inf-score":
        return (
            good.assign(score=np.where(good.index == 3, np.inf, good["score"])),
            [],
            "p.csv",
            "infinite scores",
        )
    if kind == "text-score":
        return (
            good.assign(score=good["score"].astype(object).where(good.index != 2, "high")),
            [],
            "p.csv",
            "is not numeric",
        )
    if kind == "one-class":
        return good.assign(y_true=0), [], "p.csv", "holds one class only"
    if kind == "one-class-one-model":
        return (
            good[~((good["model"] == "b") & (good["y_true"] == 1))],
            [],
            "p.csv",
            "model 'b' has no positives",
        )
    if kind == "string-labels":
        return (
            good.assign(y_true=np.where(good["y_true"] == 1, "yes", "no")),
            [],
            "p.csv",
            "--pos-label",
        )
    if kind == "pos-label-absent":
        return good, ["--pos-label", "7"], "p.csv", "--pos-label '7' matches no value"
    if kind == "missing-label":
        return (
            good.assign(y_true=good["y_true"].astype(float).where(good.index != 4)),
            [],
            "p.csv",
            "missing labels",
        )
    if kind == "negative-weight":
        return good.assign(w=-1.0), ["--weight-col", "w"], "p.csv", "must be finite and >= 0"
    if kind == "no-rows":
        return good.iloc[:0], [], "p.csv", "no data rows"
    if kind == "no-file":
        return None, [], "absent.csv", "no such file"
    if kind == "extension":
        return good, [], "p.xlsx", "cannot tell the format of p.xlsx"
    if kind == "corrupt-parquet":
        return None, [], "p.parquet", "cannot read"
    if kind == "train-pi-range":
        return good, ["--train-pi", "1.5"], "p.csv", "--train-pi must lie strictly between 0 and 1"
    if kind == "train-pi-unknown":
        return good, ["--train-pi", "prevalence"], "p.csv", "neither a number nor a column"
    raise AssertionError(kind)


BAD_KINDS = [
    "missing-column",
    "no-score-column",
    "non-binary",
    "nan-score",
    "inf-score",
    "text-score",
    "one-class",
    "one-class-one-model",
    "string-labels",
    "pos-label-absent",
    "missing-label",
    "negative-weight",
    "no-rows",
    "no-file",
    "extension",
    "corrupt-parquet",
    "train-pi-range",
    "train-pi-unknown",
]


@pytest.mark.parametrize("kind", BAD_KINDS)
def test_bad_input_exits_2_with_one_clear_line(tmp_path, capsys, kind):
    df, args, name, expected = _bad(kind)
    path = tmp_path / name
    if df is not None:
        df.to_csv(path, index=False)  # .xlsx gets CSV content: the extension is the problem
    elif kind == "corrupt-parquet":
        path.write_bytes(b"this is not parquet")
    rc = main(["audit", str(path), *args])
    out, err = capsys.readouterr()
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("prspace audit: error: ")
    assert expected in lines[0]
    assert "Traceback" not in err + out


def test_string_labels_with_pos_label(tmp_path, capsys):
    df = frame(noise={"a": 0.5})
    named = df.assign(y_true=np.where(df["y_true"] == 1, "yes", "no"))
    rc, out, _ = run_cli(tmp_path, named, "--pos-label", "yes", capsys=capsys)
    assert rc == 0 and "positive class: y_true == 'yes'" in flat(out)
    numeric = audit_frame(df).pooled
    named_result = audit_frame(named, pos_label="yes").pooled
    assert named_result["aupr"].iloc[0] == pytest.approx(numeric["aupr"].iloc[0], abs=1e-15)
    # choosing the other class as positive changes pi
    other = audit_frame(named, pos_label="no").pooled
    assert other["pi"].iloc[0] == pytest.approx(0.8)


def test_subprocess_entry_point(tmp_path):
    bad = tmp_path / "bad.csv"
    frame().assign(y_true=1).to_csv(bad, index=False)
    proc = subprocess.run(
        [sys.executable, "-m", "prspace", "audit", str(bad)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "one class only" in proc.stderr
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- the shipped example


def test_example_file_is_real_breast_cancer_data_and_warns_about_fold_skew():
    from sklearn.datasets import load_breast_cancer

    df = pd.read_csv(EXAMPLE)
    data = load_breast_cancer()
    truth = np.asarray(data.target_names)[data.target[df["row_id"].to_numpy()]]
    assert (df["diagnosis"].to_numpy() == truth).all()  # labels are the dataset's own
    per_model = df.groupby("model").size()
    assert (per_model == 300).all() and len(per_model) == 5
    assert (
        df.groupby("model")["diagnosis"].apply(lambda s: (s == "malignant").mean()) == 0.1
    ).all()
    result = audit_frame(df.rename(columns={"diagnosis": "y_true"}), pos_label="malignant")
    assert "skew-varies-folds" in codes(result)
    assert "worse-than-random" in codes(result)  # the single-feature model, as the docs say
    assert result.ranks.set_index("model").loc["logistic_regression", "auroc"] == 1
    assert any(
        "The pooled AUPR and the mean AUPR over folds order the models differently" in s
        for s in result.sentences[audit.SINGLE_TASK]
    )


def test_example_command_from_the_docs(capsys):
    rc = main(["audit", str(EXAMPLE), "--label-col", "diagnosis", "--pos-label", "malignant"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "5 models, 1 task, 5 folds; positive class: diagnosis == 'malignant'" in flat(out)
    docs = (REPO / "docs" / "audit.md").read_text()
    # the pooled table pasted into the docs is what the audit prints today
    table = out.split("where calibrated]:\n", 1)[1].split("\n\n", 1)[0]
    assert table in docs
