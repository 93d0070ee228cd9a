"""Benchmark: the CPU seconds of a whole ``make run``, by the command that spent them (issue 60).

Snakemake's ``benchmark:`` files sample a job's processes and read long and multi-process jobs low
(docs/benchmarks.md, "The fixed cost of a job"). This script counts instead: a ``sitecustomize``
module on ``PYTHONPATH`` makes every Python process of the run append, at its exit, its command
line and its own CPU seconds and those of the children it waited for (``getrusage``) to one JSON
line. A process whose parent is also in the log is counted in its parent's line, so nothing is
counted twice; Snakemake's processes count their own CPU only, and their children (the jobs) each
their own line.
What is not Python (make, bash, uv) is the gap to GNU time's total, given as its own row.

    python benchmarks/bench_cpu_by_command.py setup /tmp/acct            # writes /tmp/acct/sitecustomize.py
    git clone . /tmp/run/main && cd /tmp/run/main
    PYTHONPATH=/tmp/acct ACCT_FILE=/tmp/acct/log.jsonl /usr/bin/time -v make run 2> ../make_run.time
    python benchmarks/bench_cpu_by_command.py record --log /tmp/acct/log.jsonl --time ../make_run.time \\
        --label L --commit C --note "machine, load"                      # rows into benchmarks/cpu_by_command.csv
    python benchmarks/bench_cpu_by_command.py docs                       # the block of docs/benchmarks.md

The block sets the run beside the ``before`` row of ``benchmarks/make_run.csv`` (the main issue 60
compares with): the CPU seconds of everything but the predictions against half of that run's.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _docs import write_block  # noqa: E402
from bench_make_run import gnu_time  # noqa: E402

TABLE = ROOT / "benchmarks" / "cpu_by_command.csv"
DOCS = ROOT / "docs" / "benchmarks.md"
#: commands under this share of the run's CPU are one row of the docs block (the CSV keeps each)
SHOWN_SHARE = 0.01
PREDICT = "prspace predict-local"
OTHER_PROCESSES = "not Python (make, bash, uv, ...)"

SITECUSTOMIZE = '''\
import atexit, json, os, resource, sys, time
_t0, _pid = time.time(), os.getpid()


def _account():
    if os.getpid() != _pid:  # a forked child running its parent's exit handlers
        return
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    rec = {"argv": sys.argv[:4], "wall": round(time.time() - _t0, 2), "self": round(s.ru_utime + s.ru_stime, 2),
           "children": round(c.ru_utime + c.ru_stime, 2), "ppid": os.getppid(), "pid": _pid}
    with open(os.environ["ACCT_FILE"], "a") as fh:
        fh.write(json.dumps(rec) + "\\n")


if os.environ.get("ACCT_FILE"):
    atexit.register(_account)
'''


def command_of(argv: list[str]) -> str:
    """The command a process ran, by its command line: ``prspace step NAME``, ``prspace boyd fold-skew``,
    ``prspace predict-local``, ``snakemake``, else the program's name."""
    prog = argv[0] if argv else ""
    if prog.endswith("__main__.py") and "prspace" in prog or prog.endswith("/prspace"):
        words = [a for a in argv[1:3] if not a.startswith("-")]
        if words[:1] in (["step"], ["boyd"], ["figure"]):
            return "prspace " + " ".join(words[:2])
        return "prspace " + (words[0] if words else "")
    if "snakemake" in prog:
        return "snakemake (its own)"
    parts = prog.rsplit("/", 2)
    name = parts[-2] if parts[-1] == "__main__.py" and len(parts) > 1 else parts[-1]  # python -m NAME
    return "python: " + (name or "-c")


def by_command(records: list[dict]) -> pd.DataFrame:
    """``command, processes, cpu_s`` from the log's records: a process whose parent is in the log (and not
    Snakemake) is counted in its parent's line; Snakemake's own line is its own CPU only."""
    # the processes whose children's CPU is in their own line: all but Snakemake's (whose children are the jobs)
    counting = {r["pid"] for r in records if not command_of(r["argv"]).startswith("snakemake")}
    cpu: collections.Counter[str] = collections.Counter()
    n: collections.Counter[str] = collections.Counter()
    for r in records:
        if r["ppid"] in counting:
            continue
        cmd = command_of(r["argv"])
        cpu[cmd] += r["self"] if cmd.startswith("snakemake") else r["self"] + r["children"]
        n[cmd] += 1
    rows = [{"command": c, "processes": n[c], "cpu_s": round(v, 1)} for c, v in cpu.most_common()]
    return pd.DataFrame(rows)


def record(args: argparse.Namespace) -> None:
    records = [json.loads(line) for line in Path(args.log).read_text().splitlines() if line.strip()]
    t = by_command(records)
    g = gnu_time(Path(args.time).read_text())
    total = g["user_s"] + g["sys_s"]
    t = pd.concat([t, pd.DataFrame([{"command": OTHER_PROCESSES, "processes": pd.NA,
                                     "cpu_s": round(total - t["cpu_s"].sum(), 1)}])], ignore_index=True)
    t.insert(0, "label", args.label)
    t.insert(1, "commit", args.commit)
    t["run_cpu_s"] = round(total, 1)
    t["run_wall_s"] = g["wall_s"]
    t["note"] = args.note
    old = pd.read_csv(TABLE) if TABLE.exists() else pd.DataFrame()
    if len(old):
        old = old[old["label"] != args.label]
    pd.concat([old, t], ignore_index=True).to_csv(TABLE, index=False)
    print(TABLE)


def docs_block(table: pd.DataFrame, runs: pd.DataFrame, label: str, before: str = "before",
               batch: pd.DataFrame | None = None) -> str:
    """The block of docs/benchmarks.md for run ``label`` of ``table``, beside row ``before`` of ``runs`` and,
    if given, the predictions in one process per study (``batch``: ``benchmarks/predict_batch.csv``)."""
    t = table[table["label"] == label]
    total, wall = float(t["run_cpu_s"].iloc[0]), float(t["run_wall_s"].iloc[0])
    ref = runs.set_index("label").loc[before]
    half = (float(ref["user_s"]) + float(ref["sys_s"])) / 2
    predict = float(t.loc[t["command"] == PREDICT, "cpu_s"].sum())
    lines = ["Generated by `python benchmarks/bench_cpu_by_command.py docs` from `benchmarks/cpu_by_command.csv`.", "",
             f"Run {label} ({t['commit'].iloc[0]}): {t['note'].iloc[0]}; {int(wall // 60)} min {wall % 60:.0f} s, "
             f"{total:,.0f} CPU s (GNU time).", "",
             "| command | processes | CPU s | share |", "|---|---:|---:|---:|"]
    small = (t["cpu_s"] < SHOWN_SHARE * total) & (t["command"] != OTHER_PROCESSES)
    for _, r in t[~small].iterrows():
        if r["command"] == OTHER_PROCESSES and small.any():
            lines.append(f"| {int(small.sum())} other Python commands, each under {SHOWN_SHARE:.0%} | "
                         f"{int(t.loc[small, 'processes'].sum())} | {t.loc[small, 'cpu_s'].sum():,.1f} | "
                         f"{100 * t.loc[small, 'cpu_s'].sum() / total:.1f}% |")
        procs = "" if pd.isna(r["processes"]) else f"{int(r['processes'])}"
        lines.append(f"| {r['command']} | {procs} | {r['cpu_s']:,.1f} | {100 * r['cpu_s'] / total:.1f}% |")
    rest = total - predict
    sentence = (f"**Everything but the predictions took {rest:,.0f} CPU s** of the run's {total:,.0f}; half of "
                f"{ref['commit']}'s run (row {before} of the make-run table) is {half:,.0f}.")
    if batch is not None:
        one = float(batch.loc[(batch["study"] == "both") & (batch["way"] == "one_process"), "cpu_s"].iloc[0])
        sentence += (f" With every study's predictions in one process ({one:,.0f} CPU s instead of the "
                     f"{predict:,.0f} here, `benchmarks/predict_batch.csv`), the run would take about "
                     f"{rest + one:,.0f}: {rest + one - half:,.0f} CPU s above that half.")
    sentence += (f" With no prediction at all it would take {rest:,.0f}, "
                 + (f"{rest - half:,.0f} above the half: the half cannot be reached through the predictions "
                    "alone." if rest > half else f"{half - rest:,.0f} below the half."))
    lines += ["", sentence]
    return "\n".join(lines)


def write_docs(label: str) -> None:
    block = docs_block(pd.read_csv(TABLE), pd.read_csv(ROOT / "benchmarks" / "make_run.csv"), label,
                       batch=pd.read_csv(ROOT / "benchmarks" / "predict_batch.csv"))
    write_block(DOCS, "cpu-by-command", block)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("setup", help="write the accounting sitecustomize.py into a folder for PYTHONPATH")
    s.add_argument("folder", type=Path)
    r = sub.add_parser("record", help="one run's rows into benchmarks/cpu_by_command.csv")
    r.add_argument("--log", required=True, help="the ACCT_FILE the run's processes appended to")
    r.add_argument("--time", required=True, help="GNU time -v's output of the run")
    r.add_argument("--label", required=True)
    r.add_argument("--commit", required=True)
    r.add_argument("--note", default="")
    d = sub.add_parser("docs", help="the block of docs/benchmarks.md from the table")
    d.add_argument("--label", default=None, help="the run (default: the table's last)")
    args = p.parse_args(argv)
    if args.cmd == "setup":
        args.folder.mkdir(parents=True, exist_ok=True)
        (args.folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
    elif args.cmd == "record":
        record(args)
    else:
        write_docs(args.label or str(pd.read_csv(TABLE)["label"].iloc[-1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
