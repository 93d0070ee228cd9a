"""The everyday audit at scale (issue 41, point 1): ``prspace audit`` against pandas + scikit-learn, side by side.

For each ``--rows`` size (default 1e5, 1e6 and 6e6) the script writes a wide CSV into a temporary folder:
``y_true`` (pi ``--pi``, default 0.05), three model score columns ``m0 m1 m2`` rounded to 3 decimals (so there are
ties) and, unless ``--no-fold``, a ``fold`` column (10 folds).  Then it runs, each in its own subprocess so that the
peak memory (max RSS, ``resource.getrusage(RUSAGE_CHILDREN)`` of a fresh child) is that command's own:

* **baseline**: ``pandas.read_csv`` of the file, then scikit-learn's ``roc_auc_score`` and
  ``average_precision_score`` of every model (what a user would type);
* **hold**: ``pandas.read_csv`` of the file only (the memory of pandas holding the file: the memory target's base);
* **no intervals**: ``prspace audit FILE --score-cols m0,m1,m2 --bootstrap 0``;
* **default**: ``prspace audit FILE --score-cols m0,m1,m2`` (1000 resamples, intervals and paired tests);
* **--out**: the default audit with ``--out DIR`` (figures, report, tables).

Prints one table of wall seconds, the ratio to the baseline, peak RSS and its ratio to ``hold``, and the targets
of issue 41 (no intervals <= 3x, default <= 10x, ``--out`` <= 1.3 x default, memory <= 2 x hold), and writes it to
``--csv`` (default ``benchmarks/audit_scale.csv``).  Wall time: on a shared machine the ratios measured side by
side in one run are what count; ``uptime``'s load is printed before and after.

    python benchmarks/bench_audit_scale.py [--rows 100000 1000000 6000000] [--pi 0.05] [--no-fold] [--csv PATH]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

MODELS = ("m0", "m1", "m2")

BASELINE = """
import sys
import pandas as pd
from sklearn.metrics import average_precision_score, roc_auc_score
df = pd.read_csv(sys.argv[1])
for m in {models!r}:
    roc_auc_score(df["y_true"], df[m]), average_precision_score(df["y_true"], df[m])
"""

HOLD = """
import sys
import pandas as pd
df = pd.read_csv(sys.argv[1])
"""

#: runs a command in a child and prints its wall seconds and max RSS (kB) on the last line
RUNNER = """
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).returncode
wall = time.perf_counter() - t
if rc not in (0, 1):
    sys.stderr.write(f"command failed ({rc}): {sys.argv[1:]}\\n")
print(wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def make_file(path: Path, rows: int, pi: float, fold: bool, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < pi).astype(np.int8)
    cols: dict[str, np.ndarray] = {"y_true": y}
    for k, m in enumerate(MODELS):
        cols[m] = np.round(1 / (1 + np.exp(-(y * (1.0 + 0.3 * k) + rng.normal(size=rows) - 3))), 3)
    if fold:
        cols["fold"] = np.arange(rows) % 10
    pd.DataFrame(cols).to_csv(path, index=False)


def measure(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of ``cmd`` run alone in a fresh child."""
    out = subprocess.run([sys.executable, "-c", RUNNER, *cmd], capture_output=True, text=True, check=True)
    if out.stderr.strip():
        sys.stderr.write(out.stderr)
    wall, rss = out.stdout.split()[-2:]
    return float(wall), int(rss) / 1024


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, nargs="+", default=[1e5, 1e6, 6e6])
    ap.add_argument("--pi", type=float, default=0.05)
    ap.add_argument("--no-fold", action="store_true", help="no fold column")
    ap.add_argument("--csv", default=str(Path(__file__).with_name("audit_scale.csv")))
    args = ap.parse_args()

    py = sys.executable
    audit = [py, "-m", "prspace", "audit"]
    rows_out = []
    print(f"load average before: {load()}  (cpus: {os.cpu_count()})")
    head = (f"{'rows':>9s} {'command':14s} {'seconds':>8s} {'x base':>7s} {'target':>7s} "
            f"{'peak MB':>8s} {'x hold':>7s}")
    print(head)
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(r) for r in args.rows):
            f = Path(tmp) / f"pred_{n}.csv"
            make_file(f, n, args.pi, not args.no_fold)
            cmds = {
                "baseline": [py, "-c", BASELINE.format(models=MODELS), str(f)],
                "hold": [py, "-c", HOLD, str(f)],
                "no intervals": [*audit, str(f), "--score-cols", ",".join(MODELS), "--bootstrap", "0"],
                "default": [*audit, str(f), "--score-cols", ",".join(MODELS)],
                "--out": [*audit, str(f), "--score-cols", ",".join(MODELS), "--out", str(Path(tmp) / f"out_{n}")],
            }
            res = {name: measure(cmds[name]) for name in ("baseline", "hold")}
            base, hold = res["baseline"][0], res["hold"][1]
            targets = {"no intervals": "<=3x", "default": "<=10x", "--out": "<=1.3xd"}
            for name, cmd in cmds.items():  # in this order: each audit's line printed as soon as it is measured
                if name not in res:
                    res[name] = measure(cmd)
                sec, mb = res[name]
                ratio = sec / base
                shown = f"{ratio:.1f}x" if name != "--out" else f"{ratio:.1f}x ({sec / res['default'][0]:.2f}d)"
                print(f"{n:9d} {name:14s} {sec:8.2f} {shown:>7s} {targets.get(name, ''):>7s} "
                      f"{mb:8.0f} {mb / hold:6.2f}x", flush=True)
                rows_out.append({"rows": n, "command": name, "seconds": round(sec, 3),
                                 "ratio_to_baseline": round(ratio, 2),
                                 "ratio_to_default": round(sec / res["default"][0], 2) if "default" in res else None,
                                 "peak_mb": round(mb, 1), "memory_ratio_to_hold": round(mb / hold, 2),
                                 "file_mb": round(f.stat().st_size / 2**20, 1)})
            f.unlink()
            pd.DataFrame(rows_out).to_csv(args.csv, index=False)  # after each size: a long run cut short keeps it
    print(f"load average after: {load()}")
    pd.DataFrame(rows_out).to_csv(args.csv, index=False)
    print(f"wrote {args.csv}  ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")


if __name__ == "__main__":
    main()
