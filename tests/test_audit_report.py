"""The audit's reports and its command line: the HTML report in headless Chromium, the Python API,
and each audit item of issue 15 reproduced (outputs checked before computing, models on different
rows, duplicate rows, hard scores, wrong separators, numpy reprs, awkward model names, 200 models).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from prspace.audit import audit
from prspace.cli import main
from prspace.errors import InputError

REPO = Path(__file__).resolve().parents[1]
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
    res = audit(df, label="diagnosis", pos_label="malignant", n_boot=100)
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
    # with a row id, the same (model, row id) twice is an input error (issue 24, case 7: tests/test_audit_inputs.py)
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
    from prspace.audit import plot

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
    table = md.split("Paired comparisons", 1)[1].split("\n\n", 2)[1].splitlines()
    assert len(table) == 2 + 10 * 9 // 2 * 5  # the reports show the best 10 models' pairs
    assert "among the best 10 of 30 models by AUPR" in md


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
    with every line of prspace.audit.cd.cd_lines in all three formats (the terminal summary too);
    an audit of one task has the section in none."""
    import html
    import re

    from prspace.audit.cd import cd_lines

    rng = np.random.default_rng(1)
    parts = []
    for t in range(3):
        f = frame({"sharp": 0.4, "mid": 0.8, "blunt": 1.2}, seed=int(rng.integers(1000)))
        parts.append(f.assign(task=f"task{t}"))
    res = audit(pd.concat(parts, ignore_index=True), task="task", model="model", label="y_true", score="score",
                n_boot=0)
    want = cd_lines(res.cd)
    assert len(want) == 4 + 6  # 4 metrics, 6 pairs of metrics

    def flat(s: str) -> str:
        return re.sub(r"\s+", " ", s)

    text, md = res.to_text(), res.to_markdown()
    page = html.unescape(res.to_html())
    for name, out in (("text", text), ("markdown", md), ("html", page)):
        assert "Across tasks: critical-difference analysis" in out, name
        for line in want:
            assert flat(line) in flat(out), (name, line)
    # in the terminal summary the section comes after the tasks and before the findings
    assert text.index("Across tasks") > text.rindex("AUPR estimators") and text.index("Across tasks") < text.index("Findings:")
    single = audit(frame(), model="model", label="y_true", score="score", n_boot=0)
    assert single.cd is None
    for out in (single.to_text(), single.to_markdown(), single.to_html()):
        assert "critical-difference analysis" not in out
