"""Dataset ARFF reading: prspace's reader vs liac-arff (the openml client's), side by side.

Generates a dataset ARFF file with ``--rows`` rows (default 200,000): five numeric
attributes (some ``?``), a nominal class and a string attribute with commas inside quotes,
written twice: quoted with ``'`` only (prspace's C-parser path) and with both ``'`` and ``"``
(its line-by-line Python path).  Parses each with ``arff.loads`` (liac-arff) and with
:func:`prspace.data.arff.read_arff`, checks that they agree, and prints the times and
the ratios.

    python benchmarks/bench_arff_dataset.py [--rows 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import arff as liac
import numpy as np

from prspace.data.arff import read_arff


def _write(path: Path, rows: int, *, mixed: bool, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 5)).round(6)
    cls = np.where(rng.random(rows) < 0.2, "pos", "neg")
    lines = ["@RELATION bench", *(f"@ATTRIBUTE x{j} NUMERIC" for j in range(5)),
             "@ATTRIBUTE class {neg,pos}", "@ATTRIBUTE note STRING", "@DATA"]
    for i in range(rows):
        nums = ",".join("?" if (i + j) % 97 == 0 else repr(float(x[i, j])) for j in range(5))
        q = '"' if mixed and i % 2 else "'"
        lines.append(f"{nums},{cls[i]},{q}row {i}, item {i % 13}{q}")
    path.write_text("\n".join(lines) + "\n")


def _best(f, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=200_000, help="rows of the generated file")
    ap.add_argument("--repeat", type=int, default=3, help="runs of prspace's reader (best is reported)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        for mixed in (False, True):
            path = Path(d) / f"bench-{'mixed' if mixed else 'single'}.arff"
            _write(path, args.rows, mixed=mixed)
            mb = path.stat().st_size / 1e6
            t_liac, ref = _best(lambda p=path: liac.loads(p.read_text()), 1)
            t_ours, df = _best(lambda p=path: read_arff(p), args.repeat)
            data = ref["data"]
            assert len(df) == len(data)
            col0 = np.array([np.nan if r[0] is None else r[0] for r in data], dtype=float)
            np.testing.assert_array_equal(col0, df["x0"].to_numpy())
            assert df["note"].tolist() == [r[6] for r in data]
            kind = "both quotes (Python path)" if mixed else "one quote (C-parser path)"
            print(f"{kind:28s} {mb:7.1f} MB  liac-arff {t_liac:6.2f} s ({mb / t_liac:5.1f} MB/s)  "
                  f"prspace {t_ours:6.2f} s ({mb / t_ours:5.1f} MB/s)  ratio {t_liac / t_ours:5.1f}x")


if __name__ == "__main__":
    main()
