"""The audit's reports and its command line: the HTML report in headless Chromium, the Python API,
and each audit item of issue 15 reproduced (outputs checked before computing, models on different
rows, duplicate rows, hard scores, wrong separators, numpy reprs, awkward model names, 200 models).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from prspace.audit import audit
from prspace.cli import main
from prspace.core.errors import InputError

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "audit-example.csv"
EXAMPLE_ARGS = ["--label-col", "diagnosis", "--pos-label", "malignant"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def frame(models: dict[str, float] | None = None, n_pos: int = 20, n_neg: int = 80, seed: int = 0) -> pd.DataFrame:
    models = models or {"sharp": 0.4, "blunt": 1.2}
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    return pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(y.size), "y_true": y,
                                    "score": y + sd * rng.normal(size=y.size)}) for m, sd in models.items()],
                     ignore_index=True)


def cli(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(["audit", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc: int, out: str, err: str) -> str:
    assert rc == 2 and out == "", out[:200]  # nothing computed or printed before the error
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("prspace audit: error: "), err
    assert "Traceback" not in err and "np.float64" not in err
    return lines[0]


# --------------------------------------------------------------------------- the HTML report


def test_html_report_renders_in_headless_chromium(tmp_path, capsys):
    if CHROMIUM is None:
        pytest.skip("chromium not installed (bash .ci/install-r.sh installs Debian's chromium)")
    rc, out, err = cli(capsys, str(EXAMPLE), *EXAMPLE_ARGS, "--bootstrap", "200", "--out", str(tmp_path / "r"))
    assert rc == 0, err
    page = tmp_path / "r" / "report.html"
    text = page.read_text()
    assert "src='data:image/png;base64," in text and "http" not in text.split("<body>")[1].split("Which AUPR")[0]
    shot = tmp_path / "shot.png"
    profile = tmp_path / "profile"
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}"]
    subprocess.run([*base, f"--screenshot={shot}", "--window-size=1400,2400", page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    img = matplotlib.image.imread(shot)
    assert img.shape[:2] == (2400, 1400)
    assert img[..., :3].std() > 0.05  # a page with text, tables and figures, not a blank or error page
    dom = subprocess.run([*base, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120,
                         check=True).stdout
    assert "Headline" in dom and "logistic_regression" in dom and dom.count("<img") == 3  # curves, intervals, bands
    assert dom.count("<table") >= 6


def test_python_api_returns_tables_and_reports():
    df = pd.read_csv(EXAMPLE)
    res = audit(df, label_col="diagnosis", pos_label="malignant", n_boot=100)
    assert set(res.pooled["model"]) == set(df["model"])
    assert {"DeLong", "bootstrap", "logit (Boyd 2013)", "binomial (Boyd 2013)"} <= set(res.intervals["method"])
    assert len(res.comparisons) == 10 * 5  # every pair of 5 models x every metric
    md, html = res.to_markdown(), res.to_html()
    assert "## Headline" in md and "## Which AUPR a tool computes" in md
    assert html.startswith("<!DOCTYPE html>") and "</html>" in html
    # every disagreement sentence between two metrics says whether the preference is beyond noise
    # (or that it cannot be told: no procedure calibrated at this size and skew)
    for s in res.sentences["all"][:4]:
        assert "distinguishable from noise" in s or "beyond noise cannot be told" in s


# --------------------------------------------------------------------------- issue 15, item 4


def test_out_is_checked_before_anything_is_computed(tmp_path, capsys):
    line = one_line_error(*cli(capsys, str(EXAMPLE), *EXAMPLE_ARGS, "--out", "/proc/forbidden"))
    assert "cannot create --out /proc/forbidden" in line
    existing = tmp_path / "report.txt"
    existing.write_text("keep me")
    line = one_line_error(*cli(capsys, str(EXAMPLE), *EXAMPLE_ARGS, "--out", str(existing)))
    assert "is a file; give a directory" in line and existing.read_text() == "keep me"


# --------------------------------------------------------------------------- issue 15, item 5


def test_duplicate_rows_are_flagged(tmp_path, capsys):
    df = frame()
    twice = pd.concat([df, df], ignore_index=True)
    # with a row id, the same (model, row id) twice is an input error (issue 24, case 7: tests/audit/test_audit_inputs.py)
    with pytest.raises(InputError, match="200 of 400 rows repeat an earlier row exactly"):
        audit(twice, n_boot=0)
    # without a row id: a file concatenated to itself is still caught (a warning: exact twins can be legitimate)
    res = audit(twice.drop(columns="row_id"), n_boot=0)
    assert "duplicate-rows" in {f.code for f in res.findings}
    assert "duplicate-rows" not in {f.code for f in audit(df, n_boot=0).findings}


def test_hard_predictions_are_flagged():
    df = frame()
    hard = df[df["model"] == "sharp"].assign(model="hard", score=lambda d: (d["score"] > 0.5).astype(int))
    res = audit(pd.concat([df, hard], ignore_index=True), n_boot=0)
    (f,) = [f for f in res.findings if f.code == "hard-scores"]
    assert f.where == "model hard" and "0 and 1" in f.message


def test_every_per_model_finding_names_its_model():
    df = frame({"good": 0.5, "reversed": -1.0, "flat": 0.0})
    df.loc[df["model"] == "flat", "score"] = 0.0
    res = audit(df, n_boot=0)
    per_model = {"worse-than-random", "below-always-positive", "hard-scores", "fold-one-class",
                 "aupr-below-min", "duplicate-rows"}
    hits = [f for f in res.findings if f.code in per_model]
    assert hits and all("model " in f.where for f in hits)


# --------------------------------------------------------------------------- issue 15, item 7


@pytest.mark.parametrize("sep, name", [(";", "semicolon"), ("\t", "tab")])
def test_wrong_separator_is_named(tmp_path, capsys, sep, name):
    path = tmp_path / "p.csv"
    frame().to_csv(path, index=False, sep=sep)
    line = one_line_error(*cli(capsys, str(path)))
    assert f"looks {name}-separated" in line and "--sep" in line
    rc, out, err = cli(capsys, str(path), "--sep", "\\t" if sep == "\t" else sep, "--bootstrap", "0")
    assert rc == 0, err


def test_no_numpy_reprs_in_messages(tmp_path, capsys):
    path = tmp_path / "p.csv"
    frame().assign(w=np.where(np.arange(200) == 3, -0.5, 1.0)).to_csv(path, index=False)
    line = one_line_error(*cli(capsys, str(path), "--weight-col", "w"))
    assert "holds -0.5:" in line


def test_header_only_file(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text("model,y_true,score\n")
    line = one_line_error(*cli(capsys, str(path)))
    assert "no data rows" in line and "0 classes" not in line


def test_report_survives_model_names_with_pipes_and_newlines(tmp_path, capsys):
    df = frame({"a|b": 0.4, "two\nlines": 1.0})
    path = tmp_path / "p.parquet"
    df.to_parquet(path, index=False)
    rc, out, err = cli(capsys, str(path), "--bootstrap", "50", "--out", str(tmp_path / "r"))
    assert rc == 0, err
    md = (tmp_path / "r" / "report.md").read_text()
    table = md.split("Ranks (1 = best", 1)[1].split("\n\n", 2)[1].splitlines()
    assert len(table) == 4  # header, rule, two models: no row broken by a newline
    assert all(row.count(" | ") == 5 for row in table)  # six cells each; the pipe in a|b is escaped
    assert "a\\|b" in md and "two lines" in md


def test_curves_readable_with_200_models(tmp_path):
    from prspace.audit.report import plot

    rng = np.random.default_rng(0)
    y = np.r_[np.ones(30, int), np.zeros(70, int)]
    df = pd.concat([pd.DataFrame({"model": f"model_{i:03d}", "y_true": y, "score": y + rng.uniform(0.3, 3) *
                                  rng.normal(size=100)}) for i in range(200)], ignore_index=True)
    res = audit(df, n_boot=0)
    fig = plot.curves_figure(res)
    assert "top 10 of 200 models by AUPR drawn" in fig._suptitle.get_text()
    roc_ax = fig.axes[0]
    assert len(roc_ax.get_lines()) == 10 + 1  # ten models and the random diagonal
    fig.savefig(tmp_path / "c.png", dpi=80)
    assert matplotlib.image.imread(tmp_path / "c.png")[..., :3].std() > 0.05


def test_one_positive_gives_undefined_delong_interval_without_warnings():
    import warnings

    df = pd.DataFrame({"model": ["a"] * 3 + ["b"] * 3, "y_true": [1, 0, 0] * 2,
                       "score": [0.9, 0.2, 0.4, 0.3, 0.2, 0.5]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = audit(df, n_boot=50)
    d = res.intervals[res.intervals["method"] == "DeLong"]
    assert d["lo"].isna().all() and d["estimate"].tolist() == [1.0, 0.5]


def test_reports_stay_readable_with_many_models():
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(15, int), np.zeros(35, int)]
    df = pd.concat([pd.DataFrame({"model": f"m{i:02d}", "y_true": y, "score": y + rng.uniform(0.5, 2) *
                                  rng.normal(size=50)}) for i in range(30)], ignore_index=True)
    res = audit(df, n_boot=100)
    assert len(res.comparisons) == 30 * 29 // 2 * 5  # every pair in the table
    md = res.to_markdown()
    table = md.split("Paired comparisons that decide", 1)[1].split("\n\n", 2)[1].splitlines()
    assert len(table) == 2 + 5 * 2  # per metric the best model against the next two (issue 41)
    assert "all 435 pairs x 5 metrics, with the unadjusted tests, in comparisons.csv" in md


def test_same_rows_in_another_order_without_row_ids_are_comparable_but_unpaired():
    df = frame().drop(columns="row_id")
    shuffled = pd.concat([df[df["model"] == "sharp"], df[df["model"] == "blunt"].sort_values("score")],
                         ignore_index=True)
    res = audit(shuffled, n_boot=50)
    found = {f.code for f in res.findings}
    assert "different-test-rows" not in found and "unpaired-rows" in found
    assert res.comparisons.empty and not res.headline()[0].startswith("NOT COMPARABLE")
    # in file order, the i-th rows are paired
    assert len(audit(df, n_boot=50).comparisons) == 5


def test_cd_section_in_text_markdown_and_html():
    """An audit of 3 tasks with the same models prints "Across tasks: critical-difference analysis"
    with every line of prspace.audit.inference.audit_cd.cd_lines in all three formats (the terminal summary too);
    an audit of one task has the section in none."""
    import html
    import re

    from prspace.audit.inference.audit_cd import cd_lines

    rng = np.random.default_rng(1)
    parts = []
    for t in range(3):
        f = frame({"sharp": 0.4, "mid": 0.8, "blunt": 1.2}, seed=int(rng.integers(1000)))
        parts.append(f.assign(task=f"task{t}"))
    res = audit(pd.concat(parts, ignore_index=True), task_col="task", model_col="model", label_col="y_true", score_col="score",
                n_boot=0)
    want = cd_lines(res.cd)
    assert len(want) == 4 + 6  # 4 metrics, 6 pairs of metrics

    def flat(s: str) -> str:
        return re.sub(r"\s+", " ", s)

    text, md = res.to_text(), res.to_markdown()
    # the page's text without its figures (drawing them is the PNG tests' business, ~1 CPU s a figure)
    page = html.unescape(res.to_html(figures={}))
    for name, out in (("text", text), ("markdown", md), ("html", page)):
        assert "Across tasks: critical-difference analysis" in out, name
        for line in want:
            assert flat(line) in flat(out), (name, line)
    # in the terminal summary the section comes after the tasks and before the findings
    assert text.index("Across tasks") > text.rindex("AUPR estimators") and text.index("Across tasks") < text.index("Findings:")
    single = audit(frame(), model_col="model", label_col="y_true", score_col="score", n_boot=0)
    assert single.cd is None
    for out in (single.to_text(), single.to_markdown(), single.to_html(figures={})):
        assert "critical-difference analysis" not in out


# --------------------------------------------------------------------------- issue 32, point 7


def test_html_has_the_definitions_and_shows_figures_at_their_size(tmp_path, capsys):
    import re

    from prspace.audit.report.lines import DEFINITIONS, FIGURE_MARGIN, figure_width, png_dpi
    from prspace.audit.report.plot import DPI

    res = audit(pd.read_csv(EXAMPLE), label_col="diagnosis", pos_label="malignant", n_boot=50)
    pngs = res.figures()
    page = res.to_html(figures=pngs)
    assert "<h2>Definitions</h2>" in page and DEFINITIONS.split(";")[0] in page
    assert "## Definitions" in res.to_markdown()
    widths = [int(w) for w in re.findall(r"<img [^>]*width='(\d+)'", page)]
    png_px = [int.from_bytes(p[16:20], "big") for p in pngs.values()]
    assert [png_dpi(p) for p in pngs.values()] == [DPI] * len(pngs)  # the resolution the PNG says it has
    assert widths == [round(px * 96 / DPI) for px in png_px] == [figure_width(p) for p in pngs.values()]
    assert min(png_px) >= 15 * DPI - 10 and min(widths) >= 1200  # 15-inch figures at 96 CSS px per inch
    assert f"max(100vw - {FIGURE_MARGIN}px, {round(0.8 * widths[0])}px)" in page  # never below 80% of the true size
    if CHROMIUM is None:
        return
    # the browser draws them at that width (not squeezed into the text column)
    probe = page.replace("</body>", "<script>document.body.setAttribute('data-w', Array.from("
                         "document.images).map(i => i.width).join(','))"
                         "</script></body>")
    path = tmp_path / "probe.html"
    path.write_text(probe)
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,2400"]
    dom = subprocess.run([*base, "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120,
                         check=True).stdout
    shown = [int(w) for w in re.search(r'data-w="([\d,]+)"', dom).group(1).split(",")]
    assert all(1400 - FIGURE_MARGIN - 20 <= s <= w for s, w in zip(shown, widths, strict=True))  # the window's width, not the text's


def test_progress_lines_on_stderr(tmp_path, capsys):
    rc = main(["audit", str(EXAMPLE), *EXAMPLE_ARGS, "--bootstrap", "50", "--progress"])
    out, err = capsys.readouterr()
    assert rc == 0 and out.startswith("prspace audit of")
    lines = err.strip().splitlines()
    assert len(lines) >= 5 and all(re.match(r"prspace audit: +\d+\.\d s: \S", ln) for ln in lines)
    assert "bootstrap: 50 resamples" in err and lines[-1].endswith("done")
    assert main(["audit", str(EXAMPLE), *EXAMPLE_ARGS, "--bootstrap", "0"]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: quiet unless asked


def test_auroc_bounds_line_says_the_gap_that_would_fix_the_order():
    res = audit(pd.read_csv(EXAMPLE), label_col="diagnosis", pos_label="malignant", n_boot=0)
    from prspace.audit.report.lines import bound_lines

    b = res.auroc_bounds[res.auroc_bounds["metric"] == "aupr"]
    (line,) = [ln for ln in bound_lines(res.auroc_bounds, "all") if ln.startswith("AUPR:")]
    assert f"only beyond {b['max_flip_gap'].min():.3f}" in line
    assert f"the largest AUROC gap here is {b['auroc_gap'].max():.3f}" in line
    # a gap beyond it fixes the order: a near-perfect and a reversed model
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(30, int), np.zeros(270, int)]
    df = pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(300), "y_true": y, "score": s})
                    for m, s in (("good", y * 3 + rng.normal(size=300)), ("bad", -y * 3 + rng.normal(size=300)),
                                 ("middling", y + rng.normal(size=300)))], ignore_index=True)
    lines = bound_lines(audit(df, n_boot=0).auroc_bounds, "all")
    assert any("and fix" in ln and "good > bad" in ln for ln in lines)


def test_figures_keys_are_documented_and_one_class_folds_keep_integer_counts():
    df = pd.read_csv(EXAMPLE)
    docs = (REPO / "docs" / "audit.md").read_text()
    for key in ("curves", "intervals", "bands", "cd_diagram"):
        assert f'"{key}"' in docs.split(".figures()", 1)[1].split("\n\n", 1)[0]
    one_class = df.assign(fold=np.where(df["diagnosis"] == "malignant", 0, df["fold"]))
    res = audit(one_class, label_col="diagnosis", pos_label="malignant", n_boot=0)
    folds = res.folds.set_index(["model", "fold"])
    assert pd.api.types.is_integer_dtype(res.folds["n_pos"]) and pd.api.types.is_integer_dtype(res.folds["n_neg"])
    assert folds.loc[("knn_15", 1), "n_pos"] == 0 and folds.loc[("knn_15", 1), "one_class"]
    counts = df[(df["model"] == "knn_15") & (df["fold"] == 1)]
    assert folds.loc[("knn_15", 1), "n_neg"] == len(counts) - (counts["diagnosis"] == "malignant").sum()


def test_stratified_folds_are_not_flagged_for_rounding():
    """A stratified 10-fold CV of the 178 wine rows: the folds' skews differ by rounding alone (the
    0/1 class split 59/119: 5 or 6 positives per fold of 17 or 18 rows), which no split can avoid."""
    from sklearn.datasets import load_wine
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold, StratifiedKFold, cross_val_predict

    from prspace.audit.report.skew_findings import stratified_within_rounding

    X, y = load_wine(return_X_y=True)
    y = (y == 0).astype(int)
    for cv, flagged in ((StratifiedKFold(10, shuffle=True, random_state=0), False),
                        (KFold(10, shuffle=True, random_state=1), True)):
        fold = np.empty(len(y), int)
        for k, (_, test) in enumerate(cv.split(X, y)):
            fold[test] = k
        s = cross_val_predict(LogisticRegression(max_iter=5000), X, y, cv=cv, method="predict_proba")[:, 1]
        res = audit(pd.DataFrame({"model": "logreg", "fold": fold, "y_true": y, "score": s}), n_boot=0)
        spread = res.folds["aupr_min"].max() - res.folds["aupr_min"].min()
        assert spread > 0.02  # beyond the tolerance either way
        assert ("skew-varies-folds" in {f.code for f in res.findings}) is flagged
    # the rule against scikit-learn's splitter: every stratified split is within rounding
    rng = np.random.default_rng(0)
    for _ in range(200):
        n, k = int(rng.integers(20, 400)), int(rng.integers(2, 11))
        y = (rng.random(n) < rng.uniform(0.05, 0.5)).astype(int)
        y[:k], y[k:2 * k] = 1, 0
        fold = np.empty(n, int)
        for f, (_, test) in enumerate(StratifiedKFold(k, shuffle=True, random_state=int(rng.integers(1000))).split(
                np.zeros(n), y)):
            fold[test] = f
        g = pd.DataFrame({"model": "m", "fold": fold, "y": y}).groupby(["model", "fold"])["y"].agg(
            n_pos="sum", n_rows="size").reset_index()
        assert stratified_within_rounding(g.assign(n_neg=g["n_rows"] - g["n_pos"]))


def test_cd_diagram_bars_sit_on_the_axis_tied_to_learners_with_ranks_in_labels(tmp_path):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from prspace.experiments.ranking.cd_tables import study_tables
    from prspace.figures.cd_figure import BAR_X0, cd_figure, clique_levels

    rng = np.random.default_rng(3)
    skill = {f"m{i}": 0.15 * i for i in range(8)}
    table = pd.DataFrame([{"task": t, "model": m, "aupr": s + rng.normal(0, 0.4), "auroc": -s + rng.normal(0, 0.4)}
                          for t in range(12) for m, s in skill.items()])
    out = study_tables(table, ["aupr", "auroc"], task="task", learner="model", n_sim=0)
    fig = cd_figure(out["cd_ranks"], out["cd_cliques"], out["cd_tests"])
    FigureCanvasAgg(fig).print_png(str(tmp_path / "cd.png"))
    for ax, metric in zip(fig.axes, ["aupr", "auroc"], strict=True):
        ranks = out["cd_ranks"][out["cd_ranks"]["metric"] == metric].set_index("learner")["average_rank"]
        labels = [t.get_text() for t in ax.texts if t.get_text() in {f"{m} ({r:.2f})" for m, r in ranks.items()}]
        assert len(labels) == len(ranks)  # every learner labelled with its average rank
        label_x = min(t.get_position()[0] for t in ax.texts if t.get_text() in labels)
        red = [ln for ln in ax.lines if ln.get_color() == "tab:red"]
        bars = [ln for ln in red if ln.get_linestyle() == "-"]
        dots = [ln for ln in red if ln.get_marker() == "o"]
        cliques = out["cd_cliques"][out["cd_cliques"]["metric"] == metric]
        assert len(bars) == cliques["clique"].nunique() > 0
        for bar, dot, (_, g) in zip(bars, dots, cliques.groupby("clique", sort=True), strict=True):
            x, yb = bar.get_xdata(), bar.get_ydata()
            assert 0 < x[0] == x[1] < label_x and x[0] >= BAR_X0  # between the axis and the labels
            members = ranks[g["learner"]]
            assert (min(yb), max(yb)) == (members.min(), members.max())  # its ends are learners' ranks
            assert sorted(dot.get_ydata()) == sorted(members)  # a dot on each member's line
    assert clique_levels([(1, 3), (2, 4), (3.5, 5), (5.5, 6)]) == [0, 1, 0, 0]
