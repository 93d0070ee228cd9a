"""``prspace power`` on a 2,000-row file, before and after, side by side in one run (issue 59: "answers a 2,000-row
file in seconds").

The script writes one file (``--rows`` rows, default 2,000: 400 patients of 5 rows, pi about 0.25, three models
whose untied scores share a patient effect, a ``fold`` column) and times, each in a fresh child (wall seconds),
``prspace power FILE --score-cols m0,m1,m2`` without groups (``--ignore-col patient``: every metric) and with
``--group-col patient`` (``--metric`` ``--grouped-metric``, default aupr: one metric, the grouped path costs
minutes per metric), once per ``--src LABEL=DIR`` (a source tree put first on ``PYTHONPATH``: e.g. ``src``, or a
git commit, exported with ``git archive REV src`` into a temporary directory: ``before=c744a32``), alternately.
The answers (stdout) of the trees are compared: ``same_answer`` says whether they are byte-identical to the first
tree's.  Each run also writes its table with ``--out`` and its progress lines with ``--progress`` (stderr, one line
per power a search computes): the answers themselves (per command, tree, metric and planned size: the power at the
planned size and its MC se, the smallest difference detected, the positives or groups needed, and the powers each
search computed) go to ``--answers`` (default ``benchmarks/power_answers.csv``), of the same run as ``--csv``
(default ``benchmarks/power_time.csv``; its ``commit`` and ``started``).  With ``--docs``, the table and the
sentence of which answers moved between the trees and by how much go into ``docs/benchmarks.md`` between the
``power-time`` markers (``--docs-only``: from the committed CSVs).  Wall time on a shared machine: the load is
recorded before and after; the ratios side by side count.  No assertion on times.

    python benchmarks/bench_power_time.py --src before=c744a32 after=src [--rows 2000] [--docs]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _docs import write_block  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
#: The issue's "seconds", as a number: the wall time each command is held to (the block says met or not met).
TARGET_SECONDS = 10.0
#: The metrics' names in the docs.
NAMES = {"auroc": "AUROC", "average_precision": "AP", "aupr": "AUPR", "auprg": "AUPRG"}
#: The answer columns of ``--answers``, and how the block names and prints them (as ``prspace power`` prints them).
ANSWER_COLUMNS = ["command", "label", "src", "commit", "started", "task", "metric", "model_a", "model_b", "unit",
                  "size", "observed_diff", "power", "power_mc_se", "minimal_detectable", "needed", "cap",
                  "powers_needed_search", "powers_smallest_search"]
#: A search's progress line (``--progress``: one before each power it computes), in the code before and after issue
#: 59's searches: ``prspace power:   1.2 s: aupr: positives needed: power at 1,024 positives``, ``...: smallest
#: difference detected: step 2 of 8 (difference 0.061)`` or ``...: smallest difference detected: power at ...``.
SEARCH_LINE = re.compile(r"^prspace power: +[\d.]+ s: (\w+): (positives needed|groups needed|smallest difference "
                         r"detected): (power at|step )", flags=re.M)


def make_file(path: Path, rows: int, seed: int = 1) -> None:
    """``rows`` rows of ``rows // 5`` patients (5 rows each): a patient effect in the label and the scores."""
    rng = np.random.default_rng(seed)
    k = rows // 5
    g = np.repeat(np.arange(k), 5)
    u = rng.normal(size=k)[g]
    y = (rng.random(g.size) < 1 / (1 + np.exp(-(u - 1.2)))).astype(int)
    cols = {"patient": g, "y_true": y}
    for j in range(3):
        cols[f"m{j}"] = 1 / (1 + np.exp(-(y * (1 + 0.3 * j) + 0.7 * u + rng.normal(size=g.size) - 1)))
    cols["fold"] = g % 5
    pd.DataFrame(cols).to_csv(path, index=False)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def source_tree(src: str, tmp: Path) -> str:
    """The directory to put on ``PYTHONPATH`` for ``--src``'s ``DIR``: a directory as given, else a git revision of
    this repository exported (``git archive REV src``) under ``tmp``."""
    if Path(src).is_dir():
        return str(Path(src).resolve())
    rev = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{src}^{{commit}}"], capture_output=True,
                         text=True, cwd=ROOT)
    if rev.returncode != 0:
        raise SystemExit(f"--src {src}: neither a directory nor a git revision of {ROOT}")
    dest = tmp / f"tree-{rev.stdout.strip()[:12]}"
    dest.mkdir()
    archive = subprocess.run(["git", "archive", rev.stdout.strip(), "src"], capture_output=True, cwd=ROOT, check=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return str(dest / "src")


def run(src: str, args: list[str], out: Path) -> tuple[float, str, str]:
    """Wall seconds, stdout and stderr of ``prspace power ARGS --out OUT --progress`` with ``src`` first on the path."""
    env = {**os.environ, "PYTHONPATH": src}
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "prspace", "power", *args, "--out", str(out), "--progress"],
                         capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit(f"prspace power failed with {src}: {args}")
    return wall, res.stdout, res.stderr


def answers_of(table: pd.DataFrame, progress: str) -> list[dict]:
    """The answers of one run: one row per row of its ``--out`` table (a metric at a planned size), with the powers
    its searches computed (counted from its progress lines; the smallest difference's over every planned size)."""
    grouped = "groups_needed" in table.columns
    unit = "groups" if grouped else "positives"
    counts: dict[tuple[str, str], int] = {}
    for metric, search, _ in SEARCH_LINE.findall(progress):
        key = (metric, "smallest" if search.startswith("smallest") else "needed")
        counts[key] = counts.get(key, 0) + 1
    rows = []
    for r in table.to_dict("records"):
        size = f"{r['n_groups']} groups" if grouped else f"{r['n_pos']} positives / {r['n_neg']} negatives"
        rows.append({"task": r["task"], "metric": r["metric"], "model_a": r["model_a"], "model_b": r["model_b"],
                     "unit": unit, "size": size, "observed_diff": r["observed_diff"], "power": r["power_observed"],
                     "power_mc_se": r["power_mc_se"], "minimal_detectable": r["minimal_detectable"],
                     "needed": r[f"{unit}_needed"], "cap": r[f"{unit}_cap"],
                     "powers_needed_search": counts.get((r["metric"], "needed"), 0),
                     "powers_smallest_search": counts.get((r["metric"], "smallest"), 0)})
    return rows


def _needed(v: float, cap: float) -> str:
    return f"more than {cap:,.0f}" if v != v else f"{v:,.0f}"


#: The answers the block compares between the trees: column, its name in the sentence, how it is printed.
ANSWERS = [("needed", "{unit} needed", _needed),
           ("power", "power at the planned size", lambda v, cap: "not computed" if v != v else f"{v:.2f}"),
           ("minimal_detectable", "smallest difference detected", lambda v, cap: "none" if v != v else f"{v:.3f}")]


def answers_sentence(t: pd.DataFrame, answers: pd.DataFrame | None) -> str:
    """Which answers moved between the trees (first tree's -> each other's, as ``prspace power`` prints them) and
    which did not, per command, and the powers each search computed; from ``answers`` (rows of ``t``'s run only)."""
    first = t.iloc[0]
    if answers is not None:
        answers = answers[(answers["commit"] == first["commit"]) & (answers["started"] == first["started"])]
    if answers is None or answers.empty:
        return ("The answers themselves were not recorded in this run (`benchmarks/power_answers.csv` holds none of "
                "it): the command above records them.")
    labels = list(dict.fromkeys(t["label"]))
    arrow = " -> ".join(labels)
    parts = []
    for command in dict.fromkeys(t["command"]):
        a = answers[answers["command"] == command]
        per = {lab: a[a["label"] == lab].set_index(["task", "metric", "size"]) for lab in labels}
        keys = list(dict.fromkeys(zip(a["task"], a["metric"], a["size"], strict=True)))
        unit = a["unit"].iloc[0]
        moved, still = [], []
        for col, name, fmt in ANSWERS:
            cells = []
            for key in keys:
                shown = [fmt(per[lab].loc[key, col], per[lab].loc[key, "cap"]) for lab in labels]
                if len(set(shown)) > 1:  # moved as printed (the stdout's digits)
                    cells.append(" -> ".join(shown) + f" ({NAMES.get(key[1], key[1])})")
            name = name.format(unit=unit)
            (moved.append(f"the {name} " + ", ".join(cells)) if cells else still.append(f"the {name}"))
        searches = []
        for col, name in (("powers_needed_search", f"the {unit} needed"), ("powers_smallest_search",
                                                                          "the smallest difference")):
            counts = [per[lab].groupby(level="metric", sort=False)[col].first() for lab in labels]
            span = [f"{c.min()}" if c.min() == c.max() else f"{c.min()} to {c.max()}" for c in counts]
            searches.append(f"{name} {' -> '.join(span)}")
        text = f"`{command}` ({arrow}): " + ("; ".join(moved) if moved else "no answer moved")
        if moved and still:
            text += "; the same in every tree: " + " and ".join(still)
        parts.append(text + "; powers computed per search, fewest to most over the metrics (" + arrow + "): "
                     + ", ".join(searches) + ".")
    return ("Answers (each tree's `--out` table and `--progress` lines, `benchmarks/power_answers.csv`), the first "
            "tree's -> the others', as `prspace power` prints them:\n\n" + "\n".join(f"* {p}" for p in parts))


def docs_block(t: pd.DataFrame, answers: pd.DataFrame | None = None) -> str:
    """The ``power-time`` block: the run, its table of wall seconds, the target's verdict and the answers' sentence."""
    first = t.iloc[0]
    labels = " ".join(f"{r['label']}={r['src']}" for r in t.drop_duplicates("label").to_dict("records"))
    lines = [f"Generated by `python benchmarks/bench_power_time.py --src {labels} --docs` from "
             f"`benchmarks/power_time.csv`: commit {first['commit']}, {first['started']}; load average (1, 5, 15 min) "
             f"{first['load_before']} before and {t.iloc[-1]['load_after']} after, {first['cpus']} cpus.  A "
             f"{first['rows']:,}-row file (three untied models, {first['rows'] // 5:,} patients of 5 rows); wall seconds "
             "of `prspace power` in a fresh process; `same answer`: stdout byte-identical to the first tree's.", "",
             "| command | code | seconds | x first | same answer |", "| --- | --- | ---: | ---: | --- |"]
    for r in t.to_dict("records"):
        base = t[(t["command"] == r["command"])].iloc[0]["seconds"]
        lines.append(f"| {r['command']} | {r['label']} | {r['seconds']:.1f} | {r['seconds'] / base:.2f} | "
                     f"{'yes' if r['same_answer'] else '**no**'} |")
    last = t[t["label"] == t["label"].iloc[-1]]
    verdicts = [f"`{c}` {s:.1f} s: {'met' if s < TARGET_SECONDS else '**not met**'}"
                for c, s in zip(last["command"], last["seconds"], strict=True)]
    lines += ["", f"Under {TARGET_SECONDS:.0f} s (the issue's \"seconds\") with `{last['label'].iloc[0]}`, per command: "
              + "; ".join(verdicts) + ".",
              "", ("**The answers are not byte-identical** (`same answer`: no). " if not t["same_answer"].all() else
                   "The answers are byte-identical. ") + answers_sentence(t, answers)]
    return "\n".join(lines)


def read_answers(path: str | Path) -> pd.DataFrame | None:
    """``--answers`` as committed (None: no file)."""
    return pd.read_csv(path) if Path(path).exists() else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", nargs="+", default=["after=src"], metavar="LABEL=DIR",
                    help="a source tree (a directory, or a git revision exported with git archive) per label")
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--grouped-metric", default="aupr")
    ap.add_argument("--csv", default=str(Path(__file__).with_name("power_time.csv")))
    ap.add_argument("--answers", default=str(Path(__file__).with_name("power_answers.csv")))
    ap.add_argument("--docs", action="store_true")
    ap.add_argument("--docs-only", action="store_true")
    args = ap.parse_args()
    if args.docs_only:
        write_block(DOCS, "power-time", docs_block(pd.read_csv(args.csv), read_answers(args.answers)))
        return
    trees = [s.split("=", 1) for s in args.src]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip() or "unknown"
    run_info = {"commit": commit, "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "load_before": load(), "cpus": os.cpu_count(), "rows": args.rows}
    rows, answers = [], []
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "power.csv"
        make_file(f, args.rows)
        paths = {label: source_tree(src, Path(tmp)) for label, src in trees}
        commands = {"power (no groups, 4 metrics)": [str(f), "--score-cols", "m0,m1,m2", "--ignore-col", "patient"],
                    f"power --group-col ({args.grouped_metric})": [str(f), "--score-cols", "m0,m1,m2", "--group-col",
                                                                    "patient", "--metric", args.grouped_metric]}
        for name, cmd in commands.items():
            first = None
            for label, src in trees:
                out = Path(tmp) / "answer.csv"
                sec, stdout, stderr = run(paths[label], cmd, out)
                first = stdout if first is None else first
                rows.append({"command": name, "label": label, "src": src, "seconds": round(sec, 2),
                             "same_answer": stdout == first, **run_info, "load_after": load()})
                answers += [{"command": name, "label": label, "src": src, "commit": commit,
                             "started": run_info["started"], **a} for a in answers_of(pd.read_csv(out), stderr)]
                print(f"{name:36s} {label:8s} {sec:8.1f} s  same answer: {stdout == first}", flush=True)
                pd.DataFrame(rows).to_csv(args.csv, index=False)
                pd.DataFrame(answers, columns=ANSWER_COLUMNS).to_csv(args.answers, index=False)
    t = pd.DataFrame(rows)
    t.to_csv(args.csv, index=False)
    a = pd.DataFrame(answers, columns=ANSWER_COLUMNS)
    a.to_csv(args.answers, index=False)
    if args.docs:
        write_block(DOCS, "power-time", docs_block(t, a))
    print(f"wrote {args.csv} and {args.answers}")


if __name__ == "__main__":
    main()
