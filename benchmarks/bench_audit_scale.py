"""The everyday audit at scale (issues 41 and 59): ``prspace audit`` against pandas + scikit-learn, side by side.

For each ``--rows`` size (default 1e5, 1e6 and 6e6) the script writes four CSV files into a temporary folder, each
holding three models' scores on ``rows`` test rows (pi ``--pi``, default 0.05) and, unless ``--no-fold``, a ``fold``
column (10 folds): **untied** full-precision scores (as ``predict_proba`` gives them) and **tied** ones (rounded to 3
decimals), each **wide** (``y_true, m0, m1, m2``) and **long** (``model, y_true, score``: three times the lines).
Then it runs, each in its own subprocess so that the peak memory (max RSS, ``resource.getrusage(RUSAGE_CHILDREN)`` of
a fresh child) is that command's own:

* **baseline**: ``pandas.read_csv`` of the file, then scikit-learn's ``roc_auc_score`` and
  ``average_precision_score`` of every model (what a user would type; a long file grouped by model);
* **hold**: ``pandas.read_csv`` of the file only (the memory of pandas holding the file: the memory target's base);
* **metrics only**: ``prspace audit FILE --metrics-only`` (point estimates, ranks, findings);
* **no bootstrap**: ``prspace audit FILE --bootstrap 0`` (DeLong, the jackknife-t and the paired tests);
* **default**: ``prspace audit FILE`` (1000 resamples, every interval and paired test);
* **--out**: the default audit with ``--out DIR`` (figures, report, tables).

Prints one table of wall seconds, the ratio to the baseline, peak RSS and its ratio to ``hold``, and the targets of
issue 59, judged on the untied files (metrics only <= 2x, no bootstrap <= 3x, default <= 10x, ``--out`` <= 1.3 x
default, memory <= 2 x hold), and writes it to ``--csv`` (default ``benchmarks/audit_real.csv``; the tied-only runs of
issue 41 are ``benchmarks/audit_scale.csv``).  Wall time: on a
shared machine the ratios measured side by side in one run are what count; ``uptime``'s load is printed before and
after (run sizes above 10^6 only when the 1-minute load is below 1).

    python benchmarks/bench_audit_scale.py [--rows 100000 1000000 6000000] [--pi 0.05] [--no-fold] [--csv PATH] [--docs]
        [--files wide-untied wide-tied long-untied long-tied]

``--docs`` writes the table, with the commit, the time and the load (columns of the CSV), into
docs/benchmarks.md between the ``audit-real`` markers (the numbers there come from this script only);
``--docs-only`` writes it from the committed CSV without running anything.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _docs import write_block  # noqa: E402

MODELS = ("m0", "m1", "m2")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
TARGETS = {"metrics only": ("<= 2", "ratio_to_baseline", 2.0), "no bootstrap": ("<= 3", "ratio_to_baseline", 3.0),
           "default": ("<= 10", "ratio_to_baseline", 10.0), "--out": ("<= 1.3 x default", "ratio_to_default", 1.3)}
#: The sizes issue 59's acceptance judges every target at, in one idle run.
ACCEPTANCE_ROWS = (1_000_000, 6_000_000)
FILES = ("wide-untied", "wide-tied", "long-untied", "long-tied")
#: ``--commands``' names (no spaces, no leading dashes) of the commands
COMMANDS = {"baseline": "baseline", "hold": "hold", "metrics-only": "metrics only", "no-bootstrap": "no bootstrap",
            "default": "default", "out": "--out"}

BASELINE = """
import sys
import pandas as pd
from sklearn.metrics import average_precision_score, roc_auc_score
df = pd.read_csv(sys.argv[1])
if "model" in df.columns:  # long: one block of rows per model
    for m, g in df.groupby("model"):
        roc_auc_score(g["y_true"], g["score"]), average_precision_score(g["y_true"], g["score"])
else:
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


def make_file(path: Path, rows: int, pi: float, fold: bool, seed: int = 0, *, tied: bool = True,
              long: bool = False) -> None:
    """Three models' scores on ``rows`` rows: untied (full precision, as predict_proba) or tied (3 decimals); wide
    (one column per model) or long (one row per model and test row)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < pi).astype(np.int8)
    cols: dict[str, np.ndarray] = {"y_true": y}
    for k, m in enumerate(MODELS):
        s = 1 / (1 + np.exp(-(y * (1.0 + 0.3 * k) + rng.normal(size=rows) - 3)))
        cols[m] = np.round(s, 3) if tied else s
    if fold:
        cols["fold"] = np.arange(rows) % 10
    wide = pd.DataFrame(cols)
    if not long:
        wide.to_csv(path, index=False)
        return
    keep = ["y_true", "fold"] if fold else ["y_true"]
    parts = [wide[keep].assign(model=m, score=wide[m]) for m in MODELS]
    pd.concat(parts, ignore_index=True)[["model", *keep, "score"]].to_csv(path, index=False)
    del parts


def measure(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of ``cmd`` run alone in a fresh child."""
    out = subprocess.run([sys.executable, "-c", RUNNER, *cmd], capture_output=True, text=True, check=True)
    if out.stderr.strip():
        sys.stderr.write(out.stderr)
    wall, rss = out.stdout.split()[-2:]
    return float(wall), int(rss) / 1024


def cpu_model() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (the ratios move with it: pandas' reader and ours differ by CPU)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "CPU model unknown"


def docs_block(t: pd.DataFrame) -> str:
    """The Markdown table of a run (``--docs``): per size and file, every command's seconds as a multiple of the
    baseline's (``--out``: of the default's) and the largest peak memory as a multiple of ``hold``'s, each target
    judged on the untied files (the tied ones beside them, not judged); the CSV has every command's seconds and MB."""
    first = t.iloc[0]
    sizes = " ".join(str(r) for r in t["rows"].unique())
    shown = ("metrics only", "no bootstrap", "default", "--out")
    lines = [f"Generated by `python benchmarks/bench_audit_scale.py --rows {sizes} --docs` from "
             f"`benchmarks/audit_real.csv`: commit {first['commit']}, {first['started']}; load average (1, 5, "
             f"15 min) {first['load_before']} before and {t.iloc[-1]['load_after']} after, {first['cpus']} cpus "
             f"({first.get('cpu_model', 'CPU model not recorded')}).  Each command's seconds as a multiple of the "
             "baseline's (`--out`: of the default's), the largest peak memory as a multiple of `hold`'s; **no**: a "
             "target missed, judged on the untied files only.", "",
             "| rows | file | baseline s | " + " | ".join(f"{c} {'x default' if c == '--out' else 'x'} (target <= "
                                                       f"{TARGETS[c][2]:g})" for c in shown)
             + " | peak x hold (target <= 2) |",
             "| ---: | --- | ---: |" + " ---: |" * (len(shown) + 1)]
    for (n, f), at in t.groupby(["rows", "file"], sort=False):
        same = at.set_index("command")
        judged = f.endswith("untied")
        cells = []
        for c in shown:
            # judged on the seconds, not on the CSV's rounded ratios
            exact = same.loc[c, "seconds"] / same.loc["default" if c == "--out" else "baseline", "seconds"]
            miss = judged and exact > TARGETS[c][2]
            cells.append(f"{exact:.2f}" + (" **no**" if miss else ""))
        mem = same.drop(index=["baseline", "hold"])["memory_ratio_to_hold"].max()
        lines.append(f"| {n:,} | {f} | {same.loc['baseline', 'seconds']:.2f} | " + " | ".join(cells)
                     + f" | {mem:.2f}" + (" **no**" if mem > 2 else "") + " |")
    return "\n".join(lines + ["", verdict_sentence(t)])


def verdict_sentence(t: pd.DataFrame) -> str:
    """What the run says of issue 59's acceptance, in words generated from the table: per size, every target met on
    the untied files or the ones missed (with the measured ratio), and the acceptance sizes the run did not have."""
    parts = []
    for n, at in t.groupby("rows", sort=True):
        missed = []
        for r in at[at["file"].str.endswith("untied")].to_dict("records"):
            same = at[at["file"] == r["file"]].set_index("command")["seconds"]
            if r["command"] in TARGETS:
                exact = r["seconds"] / (same["default"] if r["command"] == "--out" else same["baseline"])
                if exact > TARGETS[r["command"]][2]:
                    missed.append(f"{r['command']} on {r['file']} ({exact:.2f}, target {TARGETS[r['command']][0]})")
            if r["command"] not in ("baseline", "hold") and r["memory_ratio_to_hold"] > 2:
                missed.append(f"{r['command']}'s memory on {r['file']} ({r['memory_ratio_to_hold']:.2f} x hold)")
        parts.append(f"at {n:,} rows " + ("every target met" if not missed else "not met: " + "; ".join(missed)))
    absent = [f"{n:,}" for n in ACCEPTANCE_ROWS if n not in set(t["rows"])]
    tail = (f" Not in this run: {' and '.join(absent)} rows, a size the acceptance judges at; the acceptance is not shown."
            if absent else "")
    # an acceptance size the run reached but did not finish (stopped): its files not measured, each command's
    cut = [f"{name} at {n:,} rows" for n in ACCEPTANCE_ROWS if n in set(t["rows"]) for name in FILES
           if set(TARGETS) - set(t.loc[(t["rows"] == n) & (t["file"] == name), "command"])]
    if cut:
        tail += f" Not measured (the run stopped before them): {', '.join(cut)}."
    return "**On the untied files**: " + "; ".join(parts) + "." + tail


def write_docs(block: str) -> None:
    write_block(DOCS, "audit-real", block)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, nargs="+", default=[1e5, 1e6, 6e6])
    ap.add_argument("--pi", type=float, default=0.05)
    ap.add_argument("--no-fold", action="store_true", help="no fold column")
    ap.add_argument("--files", nargs="+", default=list(FILES), choices=FILES)
    ap.add_argument("--commands", nargs="+", default=list(COMMANDS), choices=COMMANDS,
                    help="run only these commands (e.g. hold default out: the cost of --out and its memory)")
    ap.add_argument("--csv", default=str(Path(__file__).with_name("audit_real.csv")))
    ap.add_argument("--docs", action="store_true", help="write the table into docs/benchmarks.md")
    ap.add_argument("--docs-only", action="store_true", help="write docs/benchmarks.md's table from --csv; run nothing")
    args = ap.parse_args()
    if args.docs_only:
        write_docs(docs_block(pd.read_csv(args.csv)))
        return
    started, before = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=DOCS.parent).stdout.strip() or "unknown"
    run = {"commit": commit, "started": started, "load_before": before, "cpus": os.cpu_count(), "cpu_model": cpu_model()}

    py = sys.executable
    audit = [py, "-m", "prspace", "audit"]
    rows_out = []
    print(f"load average before: {before}  (cpus: {os.cpu_count()})")
    print(f"{'rows':>9s} {'file':12s} {'command':13s} {'seconds':>8s} {'x base':>13s} {'peak MB':>8s} {'x hold':>7s}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(r) for r in args.rows):
            for name in args.files:
                layout, ties = name.split("-")
                f = Path(tmp) / f"pred_{n}_{name}.csv"
                make_file(f, n, args.pi, not args.no_fold, tied=ties == "tied", long=layout == "long")
                wide = ["--score-cols", ",".join(MODELS)] if layout == "wide" else []
                cmds = {
                    "baseline": [py, "-c", BASELINE.format(models=MODELS), str(f)],
                    "hold": [py, "-c", HOLD, str(f)],
                    "metrics only": [*audit, str(f), *wide, "--metrics-only"],
                    "no bootstrap": [*audit, str(f), *wide, "--bootstrap", "0"],
                    "default": [*audit, str(f), *wide],
                    "--out": [*audit, str(f), *wide, "--out", str(Path(tmp) / f"out_{n}_{name}")],
                }
                res: dict[str, tuple[float, float]] = {}
                for cmd_name, cmd in cmds.items():  # in this order: each line printed as soon as it is measured
                    if cmd_name not in {COMMANDS[c] for c in args.commands}:
                        continue
                    res[cmd_name] = measure(cmd)
                    sec, mb = res[cmd_name]
                    base = res.get("baseline", (float("nan"), float("nan")))[0]
                    hold = res.get("hold", res.get("baseline", (float("nan"), float("nan"))))[1]
                    ratio = sec / base
                    shown = f"{ratio:.1f}x" if cmd_name != "--out" else f"{ratio:.1f}x ({sec / res['default'][0]:.2f}d)"
                    print(f"{n:9d} {name:12s} {cmd_name:13s} {sec:8.2f} {shown:>13s} {mb:8.0f} {mb / hold:6.2f}x",
                          flush=True)
                    rows_out.append({"rows": n, "file": name, "command": cmd_name, "seconds": round(sec, 3),
                                     "ratio_to_baseline": round(ratio, 2),
                                     "ratio_to_default": round(sec / res["default"][0], 2) if "default" in res else None,
                                     "peak_mb": round(mb, 1), "memory_ratio_to_hold": round(mb / hold, 2),
                                     "file_mb": round(f.stat().st_size / 2**20, 1), **run, "load_after": load()})
                f.unlink()
                pd.DataFrame(rows_out).to_csv(args.csv, index=False)  # after each file: a long run cut short keeps it
    print(f"load average after: {load()}")
    pd.DataFrame(rows_out).to_csv(args.csv, index=False)
    if args.docs:
        write_docs(docs_block(pd.DataFrame(rows_out)))
    print(f"wrote {args.csv}  ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")


if __name__ == "__main__":
    main()
