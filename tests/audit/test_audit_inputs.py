"""Issue 24, cases 7-16: ``prspace audit`` on a user's predictions never misleads and never pools silently.

Each test reproduces one case as a new user met it.  Oracles: scikit-learn (AP, the trapezoid of
``precision_recall_curve``), PRROC's ``compute.pr`` transcribed from its R source (and R's PRROC
itself where installed), and the input files themselves.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.metrics import auc, average_precision_score, precision_recall_curve
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB

from prspace import metrics as M
from prspace.audit import audit
from prspace.audit import audit_numbers as numbers
from prspace.audit.inference.uncertainty import noise
from prspace.audit.report import plot
from prspace.audit.report.tools import tools_table
from prspace.cli import main
from prspace.core.errors import InputError

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "audit-example.csv"
EXAMPLE_ARGS = ["--label-col", "diagnosis", "--pos-label", "malignant"]


def cli(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(["audit", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc: int, out: str, err: str) -> str:
    assert rc == 2 and out == "", out[:300]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("prspace audit: error: "), err
    assert "Traceback" not in err
    return lines[0]


def flat(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- case 7


def test_file_concatenated_to_itself_names_the_duplicates_and_the_fix(tmp_path, capsys):
    df = pd.read_csv(EXAMPLE)
    twice = tmp_path / "twice.csv"
    pd.concat([df, df]).to_csv(twice, index=False)
    out_dir = tmp_path / "report"
    line = one_line_error(*cli(capsys, str(twice), *EXAMPLE_ARGS, "--out", str(out_dir)))
    assert "twice.csv" in line  # the file
    assert "1500 of 3000 rows repeat an earlier row exactly" in line
    assert "every row appears twice" in line and "('model', 'fold', 'row_id')" in line  # the columns
    assert "drop_duplicates" in line  # the fix
    assert "different-test-rows" not in line and "NOT COMPARABLE" not in line
    assert not any(out_dir.iterdir()) if out_dir.exists() else True  # nothing written
    # after the fix the audit is the original's
    fixed = tmp_path / "fixed.csv"
    pd.read_csv(twice).drop_duplicates().to_csv(fixed, index=False)
    rc, out, err = cli(capsys, str(fixed), *EXAMPLE_ARGS, "--bootstrap", "0")
    assert rc == 0 and "NOT COMPARABLE" not in out


def test_conflicting_scores_for_one_row_id_name_the_row_id_fix():
    df = pd.read_csv(EXAMPLE)
    other = df.assign(score=df["score"] * 0.5)  # the same (model, fold, row id) with other scores
    with pytest.raises(InputError, match=r"with other values.*--repeat-col.*--row-col"):
        audit(pd.concat([df, other]), label_col="diagnosis", pos_label="malignant", n_boot=0)


# --------------------------------------------------------------------------- case 8


def test_model_column_under_another_name_is_not_pooled(tmp_path, capsys):
    df = pd.read_csv(EXAMPLE).rename(columns={"model": "classifier"})
    path = tmp_path / "preds.csv"
    df.to_csv(path, index=False)
    line = one_line_error(*cli(capsys, str(path), *EXAMPLE_ARGS))
    assert "column 'classifier' looks like one" in line and "--model-col classifier" in line
    assert "preds.csv" in line
    # the fix works: five models, each with scikit-learn's AP
    rc, out, err = cli(capsys, str(path), *EXAMPLE_ARGS, "--model-col", "classifier", "--bootstrap", "0")
    assert rc == 0, err
    assert "5 models" in out
    res = audit(df, model_col="classifier", label_col="diagnosis", pos_label="malignant", n_boot=0)
    for model, g in df.groupby("classifier"):
        ap = average_precision_score(g["diagnosis"] == "malignant", g["score"])
        assert res.pooled.set_index("model").loc[model, "average_precision"] == pytest.approx(ap, abs=1e-12)
    # pooling on purpose is still possible, and then it is what was asked for
    with pytest.raises(InputError, match="with other values"):  # row ids now repeat: said, not pooled silently
        audit(df, model_col="", label_col="diagnosis", pos_label="malignant", n_boot=0)
    pooled = audit(df.drop(columns="row_id"), model_col="", label_col="diagnosis", pos_label="malignant", n_boot=0)
    assert pooled.pooled["model"].tolist() == ["score"]


def test_several_candidate_model_columns_are_all_named():
    df = pd.read_csv(EXAMPLE).drop(columns="row_id").rename(columns={"model": "classifier"})
    df["learner"] = df["classifier"].str.upper()
    with pytest.raises(InputError, match=r"several columns look like one: 'classifier' \(5 values\), 'learner'"):
        audit(df, label_col="diagnosis", pos_label="malignant", n_boot=0)


def test_a_text_column_without_the_repeating_structure_is_not_a_model_column():
    df = pd.read_csv(EXAMPLE)
    one = df[df["model"] == "knn_15"].drop(columns="model")
    one["site"] = np.where(np.arange(len(one)) % 3 == 0, "north", "south")  # unequal groups
    res = audit(one, label_col="diagnosis", pos_label="malignant", n_boot=0)
    assert res.pooled["model"].tolist() == ["score"]


# --------------------------------------------------------------------------- case 9


def test_pos_label_suggestion_names_the_minority_class_and_says_why(tmp_path, capsys):
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(80, int), np.zeros(20, int)]
    df = pd.DataFrame({"label": np.where(y == 1, "yes", "no"), "score": y + rng.normal(size=y.size)})
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    line = one_line_error(*cli(capsys, str(path)))
    assert "--pos-label 'no'" in line and "--pos-label 'yes'" not in line  # 'yes' is the majority
    assert "the rarer class: 20 of 100 rows" in line
    # naming the majority class is allowed, and said
    rc, out, err = cli(capsys, str(path), "--pos-label", "yes", "--bootstrap", "0")
    assert rc == 0, err
    assert "NOTE [majority-positive]" in out and "pi = 0.800" in flat(out)


def test_pos_label_suggestion_follows_the_positive_class_rule_on_a_tie():
    from prspace.data.dataset import positive_label, suggest_pos_label

    for values in (["no", "yes"], ["yes", "no"], ["b", "a"], [10, 2]):
        labels = pd.Series([values[0]] * 6 + [values[1]] * 6)
        line = suggest_pos_label(labels)
        picked = str(positive_label(labels.astype(str)))  # the studies' rule: the label that sorts last
        assert picked == max(map(str, values))
        assert line.startswith(f"e.g. --pos-label {picked!r};") and "equally frequent (6 rows each)" in line
    # without a tie both name the minority class
    labels = pd.Series(["yes"] * 9 + ["no"] * 3)
    assert positive_label(labels) == "no" and suggest_pos_label(labels).startswith("e.g. --pos-label 'no', the rarer")


def test_one_positive_class_resolver_with_the_studies_and_the_audits_default():
    from prspace.data.dataset import positive_class

    text = pd.Series(["yes"] * 9 + ["no"] * 3)
    mask, what = positive_class(text)  # the studies: the minority
    assert mask.tolist() == [False] * 9 + [True] * 3 and what == "label == 'no'"
    with pytest.raises(InputError, match=r"--pos-label \(e.g. --pos-label 'no', the rarer class: 3 of 12"):
        positive_class(text, default="one")  # the audit asks, suggesting the minority
    ones = pd.Series([1, 0, 0, 0, 1, 0])  # the audit: 1 (here the minority too); -1/1 and booleans alike
    assert positive_class(ones, default="one")[0].tolist() == [True, False, False, False, True, False]
    assert positive_class(pd.Series([-1, 1, 1]), default="one", column="y")[1] == "y == 1"
    assert positive_class(pd.Series([True, False, True]), default="one")[0].tolist() == [True, False, True]
    # a given class wins under both defaults, matched as text, number or boolean spelling
    for default in ("minority", "one"):
        assert positive_class(text, "yes", default=default)[0].sum() == 9
        assert positive_class(ones, "0.0", default=default)[0].sum() == 4
        assert positive_class(pd.Series([True, False, False]), "false", default=default)[0].sum() == 2
    with pytest.raises(InputError, match=r"--pos-label 'maybe' matches no value of column 'label' \(classes: no, yes\)"):
        positive_class(text, "maybe")


# --------------------------------------------------------------------------- case 10


@pytest.mark.parametrize("where", ["file", "out"])
def test_very_long_path_is_shortened_and_named_too_long(tmp_path, capsys, where):
    long = str(tmp_path / ("a" * 3000))
    args = [long + ".csv"] if where == "file" else [str(EXAMPLE), *EXAMPLE_ARGS, "--out", long]
    line = one_line_error(*cli(capsys, *args))
    assert len(line) < 500, len(line)
    assert "too long" in line and "give a shorter path" in line
    assert "disk space" not in line
    assert "..." in line and "(3" in line  # start ... end (N characters)


def test_short_path_keeps_start_and_end():
    from prspace.audit.audit_files import short_path

    assert short_path("/data/preds.csv") == "/data/preds.csv"
    text = short_path("/start/" + "x" * 1000 + "/end.csv")
    assert text.startswith("/start/") and "/end.csv" in text and len(text) < 160


# --------------------------------------------------------------------------- case 11


def prroc_compute_pr(y: np.ndarray, score: np.ndarray) -> tuple[float, float]:
    """PRROC's ``compute.pr`` (R source, unweighted, hard labels): ``(auc.integral, auc.davis.goadrich)``."""
    order = np.argsort(-score, kind="stable")
    s, pos = score[order], y[order].astype(float)
    cum_p, cum_n = np.cumsum(pos), np.cumsum(1 - pos)
    use = np.r_[s[:-1] != s[1:], True]
    tp, fp = cum_p[use], cum_n[use]
    r_fg = pos.sum()
    tp_prev, fp_prev = np.r_[0, tp[:-1]], np.r_[0, fp[:-1]]
    with np.errstate(divide="ignore", invalid="ignore"):
        h = (fp - fp_prev) / (tp - tp_prev)
        a = 1 + h
        b = (fp_prev - h * tp_prev) / r_fg
        same = tp == tp_prev
        h[same], a[same], b[same] = 1, 1, 0
        v = (tp / r_fg - tp_prev / r_fg - b / a * (np.log(a * tp / r_fg + b) - np.log(a * tp_prev / r_fg + b))) / a
        v2 = (tp / r_fg - tp_prev / r_fg) / a
    v = np.where(b == 0, v2, v)
    integral = float(np.sum(v))
    with np.errstate(divide="ignore", invalid="ignore"):
        prec, prec_prev = tp / (tp + fp), tp_prev / (tp_prev + fp_prev)
        idx = (tp - tp_prev > 1) & (prec != prec_prev) & ~np.isnan(prec_prev)  # R's which() drops NA
        m = np.c_[tp_prev, tp, fp_prev, fp][~idx]
        dg = (m[:, 1] - m[:, 0]) / r_fg * (m[:, 0] / (m[:, 0] + m[:, 2]) + m[:, 1] / (m[:, 1] + m[:, 3])) / 2
    if np.isnan(dg[0]):
        dg[0] = (m[0, 1] - m[0, 0]) / r_fg * (m[0, 1] / (m[0, 1] + m[0, 3]))
    total = float(np.sum(dg))
    h2 = (fp - fp_prev) / np.where(tp - tp_prev == 0, 1, tp - tp_prev)
    for i in np.flatnonzero(idx):
        x = np.arange(0, tp[i] - tp_prev[i] + 1)
        prcs = (tp_prev[i] + x) / (tp_prev[i] + x + fp_prev[i] + h2[i] * x)
        total += float(np.sum((prcs[1:] + prcs[:-1]) / 2 / r_fg))
    return integral, total


def _tied_cases():
    rng = np.random.default_rng(11)
    for _k in range(30):
        n = int(rng.integers(30, 400))
        y = rng.random(n) < rng.uniform(0.05, 0.5)
        y[:2] = [True, False]
        score = np.round(y * rng.uniform(0.2, 2.0) + rng.normal(size=n), int(rng.integers(0, 2)))
        yield y, score


def test_prroc_integral_is_the_hyperbolic_aupr_and_davis_goadrich_is_not():
    gaps = []
    for y, score in _tied_cases():
        integral, dg = prroc_compute_pr(y, score)
        est = M.aupr_estimators(y, score)
        assert est["hyperbolic"] == pytest.approx(integral, abs=1e-12)
        gaps.append(abs(dg - est["hyperbolic"]))
    assert max(gaps) > 1e-3  # Davis-Goadrich's discrete version differs with ties (here by up to 7e-3)
    # without ties Davis-Goadrich's version is the trapezoid (and still not the hyperbolic AUPR)
    y, score = next(_tied_cases())
    untied = score + np.random.default_rng(1).random(score.size) * 1e-9
    integral, dg = prroc_compute_pr(y, untied)
    est = M.aupr_estimators(y, untied)
    assert dg == pytest.approx(est["trapezoid"], abs=1e-12) and integral == pytest.approx(est["hyperbolic"], abs=1e-12)
    assert abs(dg - integral) > 1e-5
    t = tools_table().set_index("function")
    assert t.loc["pr.curve()$auc.integral", "estimator"] == "hyperbolic"
    assert pd.isna(t.loc["pr.curve()$auc.davis.goadrich", "estimator"])
    docs = (REPO / "docs" / "audit.md").read_text()
    assert "| PRROC (R) | pr.curve()$auc.integral | hyperbolic" in docs
    assert "| PRROC (R) | pr.curve()$auc.davis.goadrich | hyperbolic" not in docs


def test_prroc_itself_where_installed(tmp_path):
    if shutil.which("Rscript") is None or subprocess.run(
            ["Rscript", "-e", "library(PRROC)"], capture_output=True).returncode != 0:
        pytest.skip("R's PRROC not installed; the transcription of its compute.pr above is the oracle")
    y, score = next(_tied_cases())
    path = tmp_path / "d.csv"
    pd.DataFrame({"y": y.astype(int), "s": score}).to_csv(path, index=False)
    out = subprocess.run(["Rscript", "-e", f"library(PRROC); d <- read.csv('{path}'); "
                          "p <- pr.curve(scores.class0 = d$s, weights.class0 = d$y); "
                          "cat(sprintf('%.15g %.15g', p$auc.integral, p$auc.davis.goadrich))"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert float(out[0]) == pytest.approx(M.aupr_estimators(y, score)["hyperbolic"], abs=1e-12)
    assert float(out[1]) == pytest.approx(prroc_compute_pr(y, score)[1], abs=1e-12)


def precrec_auc(y: np.ndarray, score: np.ndarray, x_bins: int = 1000) -> float:
    """precrec's ``evalmod()`` + ``auc()`` for the PR curve, transcribed from its C++ source
    (create_confusion_matrices.cpp with ties "equiv": counts on the straight line through a tie group;
    calc_basic_measures.cpp: precision at recall 0 is the next point's; create_prc_curve.cpp: the
    hyperbola between points more than 1 / x_bins of recall apart, sampled every 1 / x_bins;
    calc_auc.cpp: the trapezoidal rule)."""
    order = np.argsort(-score, kind="stable")
    s, pos = score[order], y[order].astype(bool)
    P = pos.sum()
    tp = np.r_[0, np.cumsum(pos)].astype(float)
    fp = np.r_[0, np.cumsum(~pos)].astype(float)
    ends = np.flatnonzero(np.r_[s[1:] != s[:-1], True]) + 1
    starts = np.r_[0, ends[:-1]]
    for a, b in zip(starts, ends, strict=True):
        if b - a > 1:
            j = np.arange(1, b - a)
            tp[a + j] = tp[a] + j * (tp[b] - tp[a]) / (b - a)
            fp[a + j] = fp[a] + j * (fp[b] - fp[a]) / (b - a)
    sn = tp / P
    with np.errstate(invalid="ignore", divide="ignore"):
        pr = tp / (tp + fp)
    pr[0] = pr[1]
    step = 1.0 / x_bins
    rec, prec = [], []
    for i in range(len(sn)):
        if i and sn[i] == sn[i - 1] and pr[i] == pr[i - 1]:
            continue
        if i and sn[i] - sn[i - 1] > step:
            t = step * int(sn[i - 1] / step)
            while t < 1:
                t += step
                if t >= sn[i]:
                    break
                if pr[i] == pr[i - 1]:
                    p = pr[i]
                else:
                    x = (t - sn[i - 1]) * tp[i] / sn[i]
                    p = (tp[i - 1] + x) / (tp[i - 1] + x + fp[i - 1] + (fp[i] - fp[i - 1]) * x / (tp[i] - tp[i - 1]))
                if rec and rec[-1] == t and prec[-1] == p:
                    continue
                rec.append(t)
                prec.append(p)
        rec.append(sn[i])
        prec.append(pr[i])
    rec, prec = np.array(rec), np.array(prec)
    d = np.diff(rec)
    return float(np.sum(np.where(d > 0, 0.5 * (prec[1:] + prec[:-1]) * d, 0.0)))


def test_precrec_interpolates_the_hyperbola_and_is_not_the_trapezoid():
    """Issue 32, point 7: precrec's area equals the hyperbolic AUPR (within 1e-5), not the trapezoid."""
    gaps_h, gaps_t = [], []
    for y, score in _tied_cases():
        value, est = precrec_auc(y, score), M.aupr_estimators(y, score)
        gaps_h.append(abs(value - est["hyperbolic"]))
        gaps_t.append(abs(value - est["trapezoid"]))
    assert max(gaps_h) < 1e-5 and max(gaps_t) > 0.02
    df = pd.read_csv(EXAMPLE)
    g = df[df["model"] == "knn_15"]  # k/15 scores: large tie groups
    y, s = (g["diagnosis"] == "malignant").to_numpy(), g["score"].to_numpy()
    est = M.aupr_estimators(y, s)
    assert precrec_auc(y, s) == pytest.approx(est["hyperbolic"], abs=1e-5)
    assert abs(precrec_auc(y, s) - est["trapezoid"]) > 5e-3
    t = tools_table().set_index("tool")
    assert t.loc["precrec (R)", "estimator"] == "hyperbolic"
    assert "not confirmed" not in " ".join(tools_table()["source"])
    docs = (REPO / "docs" / "audit.md").read_text()
    assert "| precrec (R) | evalmod() + auc() | hyperbolic (exact integral)" in docs
    from prspace.audit.report.render import tools_frame

    for r in tools_frame().itertuples(index=False):  # the docs' table is the report's, row for row
        assert f"| {r.tool} | {r.function} | {r.estimator} | {r.source} |" in docs, r.function


# --------------------------------------------------------------------------- case 12


def test_a_stated_difference_gets_the_decimals_it_needs():
    assert numbers.compared(0.9812, 0.9814) == ["0.9812", "0.9814"]
    assert numbers.compared(0.5, 0.25) == ["0.500", "0.250"]  # never fewer than 3
    assert numbers.difference(0.00042, 0.0001, 0.0007) == ("0.0004", "0.0001", "0.0007")
    assert numbers.fmt(3e-12) == "3.0e-12"  # below the cap: scientific, never 0.000
    cmp = pd.DataFrame([{"task": "all", "metric": "aupr", "model_a": "a", "model_b": "b", "diff": 0.00042,
                         "lo": 0.0001, "hi": 0.0007, "p_value": 0.01, "method": "paired bootstrap",
                         "distinguishable": True, "level": 0.95}])
    s = noise(cmp, "all", "aupr", "a", "b")
    assert "by 0.0004 (95% CI 0.0001 to 0.0007" in s and "distinguishable from noise" in s


def test_reports_never_state_an_invisible_difference():
    rng = np.random.default_rng(3)
    n = 4000
    y = (rng.random(n) < 0.3).astype(int)
    base = y * 1.5 + rng.normal(size=n)
    twin = base.copy()
    swap = rng.choice(np.flatnonzero(y == 1), 25, replace=False)
    twin[swap] += 1e-3 * rng.random(25)  # a hair better than base
    df = pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(n), "y_true": y, "score": s})
                    for m, s in (("base", base), ("twin", twin), ("weak", y + 2 * rng.normal(size=n)))])
    res = audit(df, n_boot=200)
    text = res.to_text() + res.to_markdown()
    for a, b in re.findall(r"(-?\d\.\d+) vs (-?\d\.\d+)", text):
        assert a != b, (a, b)
    assert not re.search(r"by [+-]?0\.0+ \(", text)
    assert not re.search(r"\(\+?0\.0+, ", text)
    table = res.to_markdown()
    for line in table.splitlines():
        if line.startswith("| ") and "| yes |" in line:  # beyond noise: the difference is shown non-zero
            diff = line.split("|")[4].strip()
            assert float(diff) != 0.0, line


# --------------------------------------------------------------------------- case 13


def _two_task_result():
    rng = np.random.default_rng(0)
    parts = []
    for task, sep in (("easy", 2.0), ("hard", 0.7)):
        y = (rng.random(200) < 0.2).astype(int)
        for model, sd in (("alpha", 0.6), ("beta", 1.0), ("gamma", 1.4)):
            if task == "hard" and model == "alpha":
                continue  # the colour of beta and gamma must not shift when alpha is absent
            parts.append(pd.DataFrame({"task": task, "model": model, "row_id": np.arange(200), "y_true": y,
                                       "score": sep * y + sd * rng.normal(size=200)}))
    return audit(pd.concat(parts), n_boot=50)


def test_intervals_figure_has_every_task_and_one_colour_per_model():
    from matplotlib.colors import to_hex

    res = _two_task_result()
    fig = plot.intervals_figure(res)
    titles = [ax.get_title() for ax in fig.axes]
    assert sum(t.startswith("easy: ") for t in titles) == 5 and sum(t.startswith("hard: ") for t in titles) == 5
    styles = plot.model_styles(res)
    seen: dict[str, set[str]] = {}
    for ax in fig.axes:
        labels = [t.get_text() for t in ax.get_yticklabels()] or None
        for line in ax.get_lines():
            if line.get_marker() == "o":
                y = int(round(line.get_ydata()[0]))
                seen.setdefault(to_hex(line.get_color()), set()).add((ax.get_title().split(":")[0], y))
        del labels
    expected = {to_hex(styles[m]["color"]) for m in ("alpha", "beta", "gamma")}
    assert set(seen) == expected  # three models, three colours, in every row
    curves = plot.curves_figure(res)
    for ax in curves.axes:
        for line in ax.get_lines():
            label = line.get_label().split(" (")[0]
            if label in styles:
                assert to_hex(line.get_color()) == to_hex(styles[label]["color"])


# --------------------------------------------------------------------------- case 14


def test_headline_says_whether_the_disagreement_is_within_noise():
    rng = np.random.default_rng(5)
    n = 400
    y = (rng.random(n) < 0.1).astype(int)
    # 'early' ranks a few positives first and the rest badly (high AUPR, lower AUROC);
    # 'broad' ranks all positives fairly well (high AUROC, lower AUPR)
    early = np.where(y == 1, np.where(rng.random(n) < 0.4, 5.0, rng.normal(size=n) - 0.5), rng.normal(size=n))
    broad = y * 1.6 + rng.normal(size=n)
    df = pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(n), "y_true": y, "score": s})
                    for m, s in (("early", early), ("broad", broad))])
    res = audit(df, n_boot=300)
    ranks = res.ranks.set_index("model")
    assert ranks.loc["early", "aupr"] == 1 and ranks.loc["broad", "auroc"] == 1  # they disagree
    (line,) = [s for s in res.headline() if "pick different best models" in s]
    assert "within noise" in line or "beyond noise" in line
    assert ("beyond noise" in line) == bool(res.comparisons.query(
        "metric in ['aupr', 'auroc']")["distinguishable"].any())


# --------------------------------------------------------------------------- case 15


def test_python_api_html_has_figures_and_typed_tables():
    df = pd.read_csv(EXAMPLE)
    res = audit(df, label_col="diagnosis", pos_label="malignant", n_boot=0)
    assert res.to_html().count("src='data:image/png;base64,") == 2
    assert pd.api.types.is_integer_dtype(res.folds["fold"])
    assert sorted(res.folds["fold"].unique().tolist()) == sorted(df["fold"].unique().tolist())
    assert pd.api.types.is_integer_dtype(res.pooled["n_pos"]) and res.pooled["n_pos"].iloc[0] == 30
    weighted = audit(df.assign(w=0.5), label_col="diagnosis", pos_label="malignant", weight_col="w", n_boot=0)
    assert weighted.pooled["n_pos"].iloc[0] == pytest.approx(15.0)  # non-integer weights stay float


def test_docs_state_the_p_value_floor_and_write_outputs():
    docs = flat((REPO / "docs" / "audit.md").read_text())
    assert "(min(P(d <= 0), P(d >= 0)) n + 1) / (n + 1)" in docs and "1 / (n + 1)" in docs
    assert "write_outputs(result, out, source=" in docs and "result.to_html()" in docs


# --------------------------------------------------------------------------- case 16


def test_estimators_spread_on_tied_gaussian_nb_scores():
    X, y = make_classification(n_samples=1000, n_features=300, n_informative=5, n_redundant=200, weights=[0.9],
                               class_sep=0.5, flip_y=0.1, random_state=0)
    p = cross_val_predict(GaussianNB(), X, y, cv=5, method="predict_proba")[:, 1]
    assert (p == 1.0).sum() > 50  # GaussianNB saturates: a large group of tied scores at 1
    ap = average_precision_score(y, p)
    precision, recall, _ = precision_recall_curve(y, p)
    trapezoid = auc(recall, precision)
    assert trapezoid - ap > 0.05
    res = audit(pd.DataFrame({"model": "gaussian_nb", "y_true": y, "score": p}), n_boot=0)
    (f,) = [f for f in res.findings if f.code == "estimators-spread"]
    assert f.where == "model gaussian_nb"
    assert f"trapezoid from (0, 1) {trapezoid:.3f}" in f.message
    assert f"by {numbers.fmt(trapezoid - res.estimators['interpolated_median'].iloc[0])}" in f.message
    assert "largest tie group holds" in f.message and "scikit-learn" in f.message
    # without ties and with enough positives the estimators agree: no finding
    rng = np.random.default_rng(0)
    yy = (rng.random(2000) < 0.3).astype(int)
    calm = audit(pd.DataFrame({"y_true": yy, "score": yy + rng.normal(size=2000)}), n_boot=0)
    assert "estimators-spread" not in {f.code for f in calm.findings}


def test_audit_file_is_what_the_command_runs(tmp_path):
    """prspace.audit.audit_files.audit_file: options checked, the file read, columns found, --train-pi parsed."""
    from prspace import metrics as M
    from prspace.audit.audit_files import audit_file, check_options

    with pytest.raises(InputError, match="--confidence must lie strictly between 0 and 1, got 1.5"):
        check_options(skew_tolerance=0.1, downsample_ratio=2, n_boot=0, confidence=1.5)
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(20, int), np.zeros(60, int)]
    df = pd.concat([pd.DataFrame({"model": m, "y_true": y, "score": rng.normal(0, 1, y.size) + sep * y,
                                  "tp": 0.25}) for m, sep in (("a", 1.0), ("b", 2.0))])
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    opts = {"skew_tolerance": 0.1, "downsample_ratio": 2.0, "n_boot": 0, "confidence": 0.95}
    result, cols = audit_file(str(path), train_pi="tp", **opts)
    assert (cols.model, cols.label, cols.score) == ("model", "y_true", "score")
    pooled = result.pooled.set_index("model")
    for m in ("a", "b"):
        sub = df[df["model"] == m]
        assert pooled.loc[m, "auroc"] == pytest.approx(float(M.auroc(sub["y_true"] == 1, sub["score"])))
    df.assign(tp=np.linspace(0.1, 0.4, len(df))).to_csv(path, index=False)
    with pytest.raises(InputError, match=r"p\.csv: column 'tp' \(--train-pi\) varies within task"):
        audit_file(str(path), train_pi="tp", **opts)


def test_audit_takes_what_the_command_gives():
    """audit(): --train-pi as a column name, the file's name in front of a message, a progress callback."""
    from prspace.audit import audit

    rng = np.random.default_rng(1)
    y = np.r_[np.ones(20, int), np.zeros(60, int)]
    df = pd.concat([pd.DataFrame({"model": m, "y_true": y, "score": rng.normal(0, 1, y.size) + sep * y,
                                  "tp": 0.25}) for m, sep in (("a", 1.0), ("b", 2.0))])
    said: list[str] = []
    result = audit(df, train_pi="tp", n_boot=0, progress=said.append)
    assert result.train_pi == {"all": 0.25}
    assert (result.used.model, result.used.label, result.used.score) == ("model", "y_true", "score")
    assert said and said[0].startswith("metrics of 2 model(s) on 1 task(s)")
    with pytest.raises(InputError, match=r"^f\.csv: column 'tp' \(--train-pi\) varies within task"):
        audit(df.assign(tp=np.linspace(0.1, 0.4, len(df))), train_pi="tp", n_boot=0, source="f.csv")
    with pytest.raises(InputError, match=r"^column 'score' has 1 missing"):
        audit(df.assign(score=np.where(np.arange(len(df)) == 3, np.nan, df["score"])), n_boot=0)
