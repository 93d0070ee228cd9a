"""Issue 41, points 2, 3, 4, 6 and 7, each on a file made here (scikit-learn models on its bundled
breast-cancer data, or simulated scores): models cross-validated with their own folds on the same rows
are paired; inverted and constant scores lead the headline; a dataset-like column is named with
``--task-col``; decimal commas are read; the HTML report reads at 1280 px in headless Chromium.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB

from prspace.audit import audit
from prspace.audit.audit_numbers import count, percents
from prspace.audit.inference.coverage import TARGET, Coverage, not_shown
from prspace.audit.inference.uncertainty import shown_method
from prspace.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FEATURES = [0, 1, 4, 8]  # mean radius, texture, smoothness, symmetry: good but not perfect models


def cli(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(["audit", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc: int, out: str, err: str) -> str:
    assert rc == 2 and out == "", out[:200]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("prspace audit: error: ") and "Traceback" not in err, err
    return lines[0]


def cross_validated(column: int = 1, seeds: tuple[int, int] = (0, 1)) -> tuple[pd.DataFrame, dict]:
    df, folds = _cross_validated(column, seeds)
    return df.copy(), folds


@functools.lru_cache(maxsize=4)
def _cross_validated(column: int, seeds: tuple[int, int]) -> tuple[pd.DataFrame, dict]:
    """Out-of-fold scores of two scikit-learn models on breast cancer, each model cross-validated with
    its own 5-fold assignment (KFold shuffled with its own seed); ``column``: the predict_proba column
    passed as the score (1: the positive class, 0: the other one)."""
    data = load_breast_cancer()
    X, y = data.data[:, FEATURES], data.target  # target 1 = benign; the audit takes 1 as positive
    parts, folds = [], {}
    for (name, est), seed in zip((("logreg", LogisticRegression(max_iter=2000)), ("gnb", GaussianNB())), seeds,
                                 strict=True):
        cv = KFold(5, shuffle=True, random_state=seed)
        fold = np.empty(len(y), dtype=int)
        for k, (_, test) in enumerate(cv.split(X)):
            fold[test] = k
        score = cross_val_predict(est, X, y, cv=cv, method="predict_proba")[:, column]
        folds[name] = fold
        parts.append(pd.DataFrame({"model": name, "row_id": np.arange(len(y)), "fold": fold, "y_true": y,
                                   "score": score}))
    return pd.concat(parts, ignore_index=True), folds


# --------------------------------------------------------------------------- 2. paired whatever the folds


def test_own_folds_on_the_same_rows_are_paired_and_fold_tables_use_each_models_folds():
    df, folds = cross_validated()
    res = audit(df, n_boot=50)
    codes = {f.code for f in res.findings}
    assert res.paired == {"all": True} and res.comparable == {"all": True}
    assert "different-test-rows" not in codes and "own-folds" in codes
    assert not any(h.startswith("NOT COMPARABLE") for h in res.headline())
    assert len(res.comparisons) == 5 and res.comparisons["p_value"].notna().all()  # one pair, every metric
    # the pairing ignores the folds: the same numbers as the workaround --fold-col ''
    unfolded = audit(df, fold_col="", n_boot=50)
    pd.testing.assert_frame_equal(res.comparisons, unfolded.comparisons)
    pd.testing.assert_frame_equal(res.intervals, unfolded.intervals)
    # the per-fold tables keep each model's own folds, and say that they differ
    y = load_breast_cancer().target
    for model, fold in folds.items():
        got = res.folds[res.folds["model"] == model].set_index("fold")["n_pos"]
        assert got.to_dict() == {k: int(y[fold == k].sum()) for k in range(5)}
    assert "each model over its own folds, which differ between models" in res.to_text()
    assert "5 folds per model (the models' own)" in res.to_text()
    note = next(f for f in res.findings if f.code == "own-folds")
    assert "same 569 row ids" in note.message and "logreg: 5 folds" in note.message


def test_same_folds_keep_fold_strata_and_truly_different_rows_stay_not_comparable():
    df, _ = cross_validated(seeds=(0, 0))  # the same folds: nothing changes
    res = audit(df, n_boot=0)
    assert res.own_folds == {"all": False} and "own-folds" not in {f.code for f in res.findings}
    assert res.paired == {"all": True}
    # different row ids (a model scored on other rows) stay "not comparable", as before
    other = df.copy()
    other.loc[other["model"] == "gnb", "row_id"] += 10_000
    res = audit(other, n_boot=0)
    assert res.comparable == {"all": False} and "different-test-rows" in {f.code for f in res.findings}
    assert res.headline()[0].startswith("NOT COMPARABLE")


# --------------------------------------------------------------------------- 3. what changes the answer


def test_inverted_scores_lead_the_headline():
    df, _ = cross_validated(column=0)  # predict_proba[:, 0]: the negative class's probability
    res = audit(df, n_boot=0)
    head = res.headline()
    assert head[0].startswith("INVERTED SCORES: every model (AUROC ") and "predict_proba[:, 0]" in head[0]
    inverted = [f for f in res.findings if f.code == "inverted-scores"]
    assert sorted(f.where for f in inverted) == ["model gnb", "model logreg"]
    assert res.findings[0].code == "inverted-scores"  # first among the warnings (no errors here)
    # one model inverted: named with its AUROC; the right way round: no line
    df1, _ = cross_validated(column=1)
    mixed = pd.concat([df1[df1["model"] == "logreg"], df[df["model"] == "gnb"]], ignore_index=True)
    line = audit(mixed, n_boot=0).headline()[0]
    assert line.startswith("INVERTED SCORES: gnb (AUROC 0.0") and "logreg" not in line
    assert not audit(df1, n_boot=0).headline()[0].startswith("INVERTED")


def test_constant_and_near_constant_scores_lead_the_headline():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(50, int), np.zeros(150, int)]
    good = y + 0.8 * rng.normal(size=y.size)
    near = np.where(np.arange(y.size) % 20 == 0, rng.normal(size=y.size), 0.25)  # 95% of each class at 0.25
    df = pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(y.size), "y_true": y, "score": s})
                    for m, s in (("good", good), ("prior", np.full(y.size, 0.25)), ("near", near))],
                   ignore_index=True)
    res = audit(df, n_boot=0)
    head = res.headline()
    assert head[0].startswith("CONSTANT SCORES: near (one score for 9") and "prior (one score for every row)" in head[0]
    found = {f.where: f.message for f in res.findings if f.code == "constant-scores"}
    assert set(found) == {"model near", "model prior"} and "every one of its 200 rows" in found["model prior"]
    assert "good" not in head[0] and "hard-scores" not in {f.code for f in res.findings}


def test_a_single_class_stops_before_any_work(tmp_path, capsys):
    path = tmp_path / "one_class.csv"
    pd.DataFrame({"model": "m", "y_true": np.ones(20, int), "score": np.linspace(0, 1, 20)}).to_csv(path, index=False)
    line = one_line_error(*cli(capsys, str(path)))
    assert "holds one class only" in line and "both" in line


# --------------------------------------------------------------------------- 4. no silent pooling


def two_sources(pi: float = 0.3, n: int = 200, seed: int = 0, same_ids: bool = False) -> pd.DataFrame:
    """Two simulated datasets of equal skew in one file, told apart only by a column ``source``."""
    rng = np.random.default_rng(seed)
    parts = []
    for k, (source, shift) in enumerate((("hospital_a", 1.5), ("hospital_b", 0.5))):
        y = (np.arange(n) < pi * n).astype(int)
        ids = np.arange(n) + (0 if same_ids else k * n)
        for model, sd in (("sharp", 0.6), ("blunt", 1.2)):
            parts.append(pd.DataFrame({"source": source, "model": model, "row_id": ids, "y_true": y,
                                       "score": shift * y + sd * rng.normal(size=n)}))
    return pd.concat(parts, ignore_index=True)


def test_a_source_column_is_named_with_the_flag_that_uses_it(tmp_path, capsys):
    df = two_sources()
    res = audit(df, n_boot=0)
    unused = next(c for c in res.columns if c.startswith("not used:"))
    assert "'source' (splits every model's rows into the same 2 groups" in unused and "--task-col source" in unused
    assert res.headline()[0].startswith("POOLED: column 'source'") and "--task-col source" in res.headline()[0]
    assert "pooled-groups" in {f.code for f in res.findings}
    # with the flag: two tasks, nothing pooled; with --ignore-col: pooled knowingly, no headline line
    split = audit(df, task_col="source", n_boot=0)
    assert sorted(split.pooled["task"].unique()) == ["hospital_a", "hospital_b"]
    assert not any(h.startswith("POOLED") for h in split.headline())
    assert not any(h.startswith("POOLED") for h in audit(df, ignore_col="source", n_boot=0).headline())
    # a feature-like text column that differs between a model's rows is not a grouping
    noisy = df.assign(note=np.where(np.random.default_rng(1).random(len(df)) < 0.5, "x", "y"))
    assert "pooled-groups" in {f.code for f in audit(noisy, n_boot=0).findings}
    assert "'note'" not in audit(noisy, n_boot=0).headline()[0]
    # row ids that repeat within a model across the groups: an error, one line naming the fix
    path = tmp_path / "same_ids.csv"
    two_sources(same_ids=True).to_csv(path, index=False)
    line = one_line_error(*cli(capsys, str(path), "--bootstrap", "0"))
    assert "'source'" in line and "--task-col source" in line


# --------------------------------------------------------------------------- 6. locale-proof input


def test_decimal_commas_are_read(tmp_path, capsys):
    df, _ = cross_validated()
    plain = tmp_path / "plain.csv"
    df.to_csv(plain, index=False)
    excel = tmp_path / "excel.csv"
    df.to_csv(excel, sep=";", decimal=",", index=False)
    assert "0," in excel.read_text().splitlines()[1]
    rc, want, _ = cli(capsys, str(plain), "--bootstrap", "0")
    assert rc == 0
    rc, got, err = cli(capsys, str(excel), "--sep", ";", "--bootstrap", "0")  # detected
    assert rc == 0, err
    assert "numbers read with decimal commas" in got and "'score'" in got
    body = lambda text: text.split("Headline:")[1]  # noqa: E731 - the same audit after the input lines
    assert body(got) == body(want)
    tab = tmp_path / "tab.tsv"
    df.to_csv(tab, sep="\t", decimal=",", index=False)
    line = one_line_error(*cli(capsys, str(tab), "--bootstrap", "0"))  # not detected without --sep ';'
    assert "decimal comma" in line and "--decimal ," in line and "'score'" in line
    rc, got, err = cli(capsys, str(tab), "--decimal", ",", "--bootstrap", "0")
    assert rc == 0 and body(got) == body(want), err
    assert "--decimal" in one_line_error(*cli(capsys, str(tab), "--decimal", ";"))
    # a semicolon file without --sep: the error names --sep ';' and says decimal commas are then detected
    line = one_line_error(*cli(capsys, str(excel)))
    assert "--sep ';'" in line and "decimal commas" in line


# --------------------------------------------------------------------------- 7. the report


def test_numbers_compared_differ_and_counts_are_integers():
    assert percents(0.9295, TARGET) == ["92.95%", "93.00%"] and percents(0.5, 0.93) == ["50%", "93%"]
    cov = Coverage(metric="average_precision", method="jackknife-t", coverage=0.9295, mc_se=0.004, pi=0.1, n=300, n_pos=30)
    text = not_shown(cov, "AP 95%", 100001.0)
    cov_text, target_text = re.search(r"covers only ([\d.]+)%.*target ([\d.]+)%", text).groups()
    assert "100001 positives" in text and cov_text != target_text
    assert count(1.9e6) == "1900000" and count(np.int64(12)) == "12" and count(2.5) == "2.5"
    # weighted rows: 100001 positives and 1.9 million negatives in the task line, as integers
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(40, int), np.zeros(160, int)]
    w = np.where(y == 1, 1.0, 11875.0)
    w[0] = 100001.0 - 39
    df = pd.DataFrame({"model": "m", "y_true": y, "score": y + rng.normal(size=y.size), "weight": w})
    text = audit(df, n_boot=0).to_text()
    assert "(100001 positives, 1900000 negatives)" in text and "e+0" not in text


def simulated(n_models: int = 7, n_pos: int = 60, n_neg: int = 240, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    common = rng.normal(size=y.size)
    return pd.concat([pd.DataFrame({"model": f"model_{i}", "row_id": np.arange(y.size), "y_true": y,
                                    "score": (1.6 - 0.1 * i) * y + 0.5 * common + rng.normal(size=y.size)})
                      for i in range(n_models)], ignore_index=True)


def test_definitions_name_the_intervals_the_tables_show_and_paired_tables_are_summarised():
    res = audit(simulated(), n_boot=100)
    md = res.to_markdown()
    defs = md.split("## Definitions", 1)[1]
    for metric, label in (("auroc", "AUROC"), ("average_precision", "AP"), ("aupr", "AUPR"), ("auprg", "AUPRG")):
        method = shown_method(res.intervals, "all", metric)
        assert method is not None and re.search(rf"{re.escape(label)}[, A-Z]*: {re.escape(method)}", defs), method
    assert "percentile" not in defs or "bootstrap:" in defs.replace("bootstrap within", "bootstrap:")
    table = md.split("Paired comparisons that decide the best model", 1)[1].split("\n\n", 2)[1].splitlines()
    assert len(table) == 2 + 5 * 2  # per metric the best against the next two: 10 rows, not 21 x 5
    assert "all 21 pairs x 5 metrics" in md and "comparisons.csv" in md
    assert len(res.comparisons) == 21 * 5  # every pair stays in the CSV


def test_html_report_reads_at_1280_px_in_headless_chromium(tmp_path, capsys):
    if CHROMIUM is None:
        pytest.skip("chromium not installed (bash .ci/install-r.sh installs Debian's chromium)")
    path = tmp_path / "seven.csv"
    simulated().to_csv(path, index=False)
    rc, _, err = cli(capsys, str(path), "--bootstrap", "100", "--out", str(tmp_path / "r"))
    assert rc == 0, err
    page = tmp_path / "r" / "report.html"
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace("</body>", (
        "<script>const d = document.documentElement;"
        "const imgs = Array.from(document.images).map(i => Math.round(i.getBoundingClientRect().bottom + scrollY));"
        "const cut = Array.from(document.querySelectorAll('.wide')).filter(w => w.scrollWidth > w.clientWidth + 1);"
        "document.body.setAttribute('data-probe', [d.scrollWidth, d.clientWidth, cut.length, imgs.join(' ')].join(';'));"
        "</script></body>")))
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1280,4000"]
    dom = subprocess.run([*base, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120,
                         check=True).stdout
    scroll_width, client_width, cut, bottoms = re.search(r'data-probe="([^"]*)"', dom).group(1).split(";")
    assert int(scroll_width) <= int(client_width) <= 1280  # the page never scrolls sideways
    assert int(cut) == 0  # no table is cut or scrolls in its frame
    bottoms = [int(b) for b in bottoms.split()]
    assert len(bottoms) == 3 and max(bottoms) <= 3000  # curves, intervals, bands within the first 3,000 px
    shot = tmp_path / "shot.png"
    subprocess.run([*base, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120, check=True)
    img = matplotlib.image.imread(shot)
    assert img.shape[:2] == (4000, 1280)
    top = img[:3000, :, :3]
    assert top.std() > 0.05 and (top.mean(axis=2) < 0.5).mean() > 0.01  # text and figures, not a blank page
    Path(shot).replace(tmp_path / "report_1280.png")
