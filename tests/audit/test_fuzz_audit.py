"""Fuzz test of ``prspace audit`` on generated bad prediction files (issue 24).

A seeded generator makes 120 bad files from 24 kinds of damage (duplicate columns, duplicate rows,
NaN or infinite or text scores, one class, yes/no and True/False labels, an empty file, binary junk,
wrong separators, huge paths, missing columns, model-like columns, ...), each applied to a fresh
random table.  For every file: no traceback reaches the user; the audit either exits 2 with one
line that names a fix, or runs (exit 0 or 1) and says the ambiguity in its output; with ``--out``
the outputs are all there or none is (never half).  Most runs are in-process; a few go through
the installed entry point as subprocesses.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace.cli import main

SEED = 20240524
N_FILES = 120
OUTPUTS = {"report.md", "report.html", "curves.png", "intervals.png", "bands.png", "bands.csv", "metrics.csv", "ranks.csv",
           "intervals.csv", "comparisons.csv", "rank_sets.csv", "pairwise.csv", "auroc_bounds.csv", "estimators.csv", "findings.csv"}
#: Words with which a one-line error tells the user what to do.
FIX_WORDS = ("pass ", "give ", "drop ", "name ", "rename ", "fill ", "clip ", "check ", "recode ", "audit ",
             "choose ", "save ", "say ", "--")


def _table(rng: np.random.Generator) -> pd.DataFrame:
    n = int(rng.integers(30, 120))
    y = (rng.random(n) < rng.uniform(0.15, 0.45)).astype(int)
    y[:2] = [1, 0]
    models = [f"m{k}" for k in range(int(rng.integers(1, 4)))]
    return pd.concat([pd.DataFrame({"model": m, "row_id": np.arange(n), "fold": np.arange(n) % 3, "y_true": y,
                                    "score": y * rng.uniform(0.3, 2) + rng.normal(size=n)}) for m in models],
                     ignore_index=True)


def _bad(kind: str, rng: np.random.Generator, tmp: Path) -> tuple[Path, list[str], str | None]:
    """Write one bad file; return its path, extra arguments and the ambiguity the output must name
    if the audit runs (None: it must fail with exit 2)."""
    df = _table(rng)
    path = tmp / f"{kind}.csv"
    args: list[str] = []
    said: str | None = None
    i = int(rng.integers(0, len(df)))
    if kind == "duplicate-column":
        text = df.to_csv(index=False).splitlines()
        text = [line + "," + line.split(",")[4] for line in text]  # 'score' twice
        path.write_text("\n".join(text) + "\n")
        return path, args, None
    if kind == "duplicate-rows":
        df = pd.concat([df, df.sample(frac=rng.uniform(0.1, 1.0), random_state=int(rng.integers(1e6)))])
    elif kind == "duplicate-rows-no-id":
        df = pd.concat([df, df]).drop(columns="row_id")
        said = "duplicate-rows"
    elif kind == "nan-score":
        df.loc[i, "score"] = np.nan
    elif kind == "inf-score":
        df.loc[i, "score"] = rng.choice([np.inf, -np.inf])
    elif kind == "text-score":
        df["score"] = df["score"].astype(object)
        df.loc[i, "score"] = rng.choice(["high", "n/a", "0,5"])
    elif kind == "one-class":
        df["y_true"] = int(rng.integers(0, 2))
    elif kind == "yes-no-labels":
        df["y_true"] = np.where(df["y_true"] == 1, "yes", "no")
    elif kind == "true-false-labels":
        df["y_true"] = df["y_true"] == 1
        said = "y_true == True"
    elif kind == "three-labels":
        df["y_true"] = rng.integers(0, 3, len(df))
    elif kind == "missing-label":
        df["y_true"] = df["y_true"].astype(float)
        df.loc[i, "y_true"] = np.nan
    elif kind == "majority-positive":
        df["y_true"] = 1 - df["y_true"]
        df.loc[df.groupby("model").head(2).index, "y_true"] = [1, 0] * (len(df["model"].unique()))
        said = "majority-positive"
    elif kind == "empty-file":
        path.write_bytes(b"")
        return path, args, None
    elif kind == "header-only":
        path.write_text("model,row_id,fold,y_true,score\n")
        return path, args, None
    elif kind == "binary-junk":
        path = tmp / f"{kind}.{rng.choice(['csv', 'parquet'])}"
        path.write_bytes(rng.integers(0, 256, int(rng.integers(10, 3000))).astype(np.uint8).tobytes())
        return path, args, None
    elif kind == "wrong-separator":
        sep = str(rng.choice([";", "\t", "|"]))
        df.to_csv(path, index=False, sep=sep)
        return path, args, None
    elif kind == "huge-path":
        return tmp / ("p" * int(rng.integers(300, 5000)) + ".csv"), args, None
    elif kind == "huge-out":
        df.to_csv(path, index=False)
        return path, ["--out", str(tmp / ("o" * int(rng.integers(300, 5000))))], None
    elif kind == "missing-score":
        df = df.drop(columns="score")
    elif kind == "missing-label-column":
        df = df.drop(columns="y_true")
    elif kind == "wrong-col-flag":
        args = [str(rng.choice(["--label-col", "--score-col", "--model-col", "--fold-col"])), "nope"]
    elif kind == "model-like-column":
        df = df.rename(columns={"model": str(rng.choice(["classifier", "learner", "algo"]))})
        if df.iloc[:, 0].nunique() == 1:
            said = "1 model"  # one value: not a candidate, one model as before
    elif kind == "several-model-columns":
        df = df.rename(columns={"model": "classifier"})
        df["learner"] = df["classifier"].str.upper()
        if df["classifier"].nunique() == 1:
            said = "1 model"
    elif kind == "negative-weight":
        df["w"] = rng.uniform(-1, 1, len(df))
        df.loc[i, "w"] = -0.5
        args = ["--weight-col", "w"]
    elif kind == "conflicting-row-ids":
        df.loc[df.index[-1], "row_id"] = df.loc[df.index[0], "row_id"]
        df.loc[df.index[-1], "model"] = df.loc[df.index[0], "model"]
        df.loc[df.index[-1], "fold"] = df.loc[df.index[0], "fold"]
    else:
        raise AssertionError(kind)
    df.to_csv(path, index=False)
    return path, args, said


KINDS = ["duplicate-column", "duplicate-rows", "duplicate-rows-no-id", "nan-score", "inf-score", "text-score",
         "one-class", "yes-no-labels", "true-false-labels", "three-labels", "missing-label", "majority-positive",
         "empty-file", "header-only", "binary-junk", "wrong-separator", "huge-path", "huge-out", "missing-score",
         "missing-label-column", "wrong-col-flag", "model-like-column", "several-model-columns",
         "negative-weight", "conflicting-row-ids"]


def _cases() -> list[tuple[int, str]]:
    rng = np.random.default_rng(SEED)
    return [(k, KINDS[k % len(KINDS)] if k < len(KINDS) else str(rng.choice(KINDS))) for k in range(N_FILES)]


def _check(rc: int, out: str, err: str, out_dir: Path, said: str | None, kind: str) -> None:
    assert "Traceback" not in out + err, (kind, err[-500:])
    written = {p.name for p in out_dir.iterdir()} if out_dir.exists() else set()
    assert not any(n.endswith(".part") for n in written), (kind, written)  # no half-written file
    if rc == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("prspace audit: error: "), (kind, err)
        assert len(lines[0]) < 700, (kind, len(lines[0]))
        assert any(w in lines[0] for w in FIX_WORDS), (kind, lines[0])  # names the fix
        assert not (written & OUTPUTS), (kind, written)  # nothing written
        assert said is None or said == "1 model", (kind, "should have run and said", said, lines[0])
        return
    assert rc in (0, 1), (kind, rc, err)
    assert said is not None, (kind, "ran although the input is bad", out[:400])
    assert said in out, (kind, said)
    assert OUTPUTS <= written, (kind, written)  # complete


@pytest.mark.parametrize("chunk", range(4))
def test_fuzz_bad_prediction_files_in_process(tmp_path, capsys, chunk):
    rng = np.random.default_rng([SEED, chunk])
    cases = _cases()[chunk::4]
    for k, kind in cases:
        case_dir = tmp_path / f"c{k}"
        case_dir.mkdir()
        path, args, said = _bad(kind, rng, case_dir)
        out_dir = case_dir / "report"
        if "--out" not in args:
            args = [*args, "--out", str(out_dir)]
        rc = main(["audit", str(path), "--bootstrap", "20", *args])
        out, err = capsys.readouterr()
        _check(rc, out, err, out_dir, said, kind)


def test_fuzz_count():
    assert len(_cases()) >= 100 and {kind for _, kind in _cases()} == set(KINDS)


@pytest.mark.parametrize("kind", ["binary-junk", "huge-path", "model-like-column", "duplicate-rows"])
def test_fuzz_through_the_entry_point(tmp_path, kind):
    rng = np.random.default_rng([SEED, len(kind)])
    path, args, said = _bad(kind, rng, tmp_path)
    out_dir = tmp_path / "report"
    proc = subprocess.run([sys.executable, "-m", "prspace", "audit", str(path), "--bootstrap", "20",
                           "--out", str(out_dir), *args], capture_output=True, text=True, timeout=120)
    _check(proc.returncode, proc.stdout, proc.stderr, out_dir, said, kind)
