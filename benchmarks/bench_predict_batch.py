"""Benchmark: what one process for every task's predictions would save, counted (issue 60).

The workflow runs ``prspace predict-local`` once per task (rule ``predict``), so each task pays
Python's start, the imports of pandas, scikit-learn and scipy, and its first fits' lazy imports.
This script runs a finished study's predict commands, built by the workflow's own
:func:`prspace.study.workflow_commands.predict_command` from the study's recorded configuration
(``work/<study>/config.yaml``) and over its task list, two ways in one run, one process at a time:

* ``per_task``: a fresh ``python -m prspace`` process per task, as Snakemake runs them;
* ``one_process``: one Python process calling :func:`prspace.cli.main` with each task's command
  line in turn (what a batched predict job would do, its imports paid once);

and writes, for each study and way, the CPU seconds (user + system of the children, ``getrusage``),
the wall seconds and whether every task's results are the same as the per-task run's (metrics and
fold tables byte for byte, the predictions' scores bit for bit; the status file and the parquet's
metadata name the time of the run, so they are not compared).
Single-threaded BLAS and OpenMP in both, as Snakemake sets them for a one-thread job.

    python benchmarks/bench_predict_batch.py --root <a clone after make run> [--study paperlike default]
        [--out benchmarks/predict_batch.csv] [--note "machine, load"] [--after after --before before]

Then the summary rows: each way over both studies, and what one process saved (``way`` ``saved``),
set beside two rows of ``benchmarks/make_run.csv`` (``--after``: the code measured, ``--before``:
the main issue 60 compares with): their CPU ratio, the ratio had the ``after`` run not paid what one
process saves, and how many CPU seconds the ``after`` run is above half of ``before``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _docs import write_block  # noqa: E402

from prspace.study.workflow_commands import predict_command  # noqa: E402

_OUTPUTS = {"--out": "predictions.parquet", "--status": "status.json", "--metrics-out": "metrics.csv",
            "--folds-out": "folds.csv"}
_ONE_PROCESS = (
    "import json, sys\n"
    "from prspace.cli import main\n"
    "bad = [a for a in json.load(open(sys.argv[1])) if main(a) != 0]\n"
    "sys.exit(1 if bad else 0)\n"
)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")})
    return env


def _argv(command: str, out_dir: Path) -> list[str]:
    """The task's command line after ``prspace``, with its four outputs in ``out_dir``."""
    words = shlex.split(command)[1:]
    for flag, name in _OUTPUTS.items():
        words += [flag, str(out_dir / name)]
    return words


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(cmds: list[list[str]], cwd: Path) -> tuple[float, float]:
    """``(CPU seconds, wall seconds)`` of running ``cmds`` one after another in ``cwd``."""
    c0, w0 = _children_cpu(), time.perf_counter()
    for cmd in cmds:
        res = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit(f"{shlex.join(cmd[:6])} ... failed: {res.stderr[-2000:]}")
    return _children_cpu() - c0, time.perf_counter() - w0


def _same(a: Path, b: Path) -> bool:
    """Whether the two folders hold the same results: ``metrics.csv`` and ``folds.csv`` byte for byte,
    the predictions' columns equal value for value (the scores bit for bit).  The status file and
    the parquet's metadata name the run's time, paths and seconds, so they are not compared."""
    if any((a / n).read_bytes() != (b / n).read_bytes() for n in ("metrics.csv", "folds.csv")):
        return False
    x, y = (pd.read_parquet(d / "predictions.parquet") for d in (a, b))
    if list(x.columns) != list(y.columns) or not x.drop(columns="score").equals(y.drop(columns="score")):
        return False
    return np.array_equal(x["score"].to_numpy().view(np.int64), y["score"].to_numpy().view(np.int64))


def run_study(root: Path, study: str, tmp: Path, max_tasks: int | None = None) -> list[dict[str, object]]:
    """The study's two rows (``per_task``, ``one_process``); its first ``max_tasks`` tasks if given."""
    work = root / "work" / study
    config = yaml.safe_load((work / "config.yaml").read_text())
    tasks = list(pd.read_csv(work / "tasks.csv")["task_id"])[:max_tasks]
    python = str(root / ".venv" / "bin" / "python")
    commands = {t: predict_command(config, t, "prspace") for t in tasks}
    dirs = {way: {t: tmp / study / way / t for t in tasks} for way in ("per_task", "one_process")}
    for d in (p for way in dirs.values() for p in way.values()):
        d.mkdir(parents=True)
    per_task = [[python, "-m", "prspace", *_argv(commands[t], dirs["per_task"][t])] for t in tasks]
    argvs = tmp / study / "argvs.json"
    argvs.write_text(json.dumps([_argv(commands[t], dirs["one_process"][t]) for t in tasks]))
    rows = []
    for way, cmds in (("per_task", per_task), ("one_process", [[python, "-c", _ONE_PROCESS, str(argvs)]])):
        print(f"{study}: {len(tasks)} tasks, {way} ...", file=sys.stderr, flush=True)
        cpu, wall = _timed(cmds, root)
        same = all(_same(dirs["per_task"][t], dirs[way][t]) for t in tasks)
        rows.append({"study": study, "way": way, "tasks": len(tasks), "processes": len(cmds),
                     "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
                     "same_results_as_per_task": "yes" if same else "NO"})
        print(f"  {rows[-1]}", file=sys.stderr, flush=True)
    return rows


def summary(rows: list[dict[str, object]], make_run: Path, after: str, before: str) -> list[dict[str, object]]:
    """The studies' rows, then each way over both studies (``study`` ``both``) and what one process saved
    (``way`` ``saved``: CPU seconds, per task), set beside the ``make run`` rows ``after`` and ``before`` of
    ``make_run`` (user + system CPU seconds): the ratio of the two runs, and the ratio had the ``after`` run
    not paid what one process saves."""
    rows = [r for r in rows if r["study"] != "both"]
    note = rows[0].get("note", "")
    both = {}
    for way in ("per_task", "one_process"):
        mine = [r for r in rows if r["way"] == way]
        both[way] = {"study": "both", "way": way, "tasks": sum(int(r["tasks"]) for r in mine),
                     "processes": sum(int(r["processes"]) for r in mine),
                     "cpu_s": round(sum(float(r["cpu_s"]) for r in mine), 1),
                     "wall_s": round(sum(float(r["wall_s"]) for r in mine), 1),
                     "same_results_as_per_task": "yes" if all(r["same_results_as_per_task"] == "yes" for r in mine)
                     else "NO", "note": note}
    runs = pd.read_csv(make_run).set_index("label")
    cpu = {k: float(runs.loc[k, "user_s"] + runs.loc[k, "sys_s"]) for k in (after, before)}
    saved = round(both["per_task"]["cpu_s"] - both["one_process"]["cpu_s"], 1)
    tasks = both["per_task"]["tasks"]
    out = {"study": "both", "way": "saved", "tasks": tasks, "processes": both["per_task"]["processes"] - both["one_process"]["processes"],
           "cpu_s": saved, "wall_s": round(both["per_task"]["wall_s"] - both["one_process"]["wall_s"], 1),
           "same_results_as_per_task": both["one_process"]["same_results_as_per_task"], "note": note,
           "cpu_s_per_task": round(saved / tasks, 2), "make_run_after": after, "make_run_after_commit": runs.loc[after, "commit"],
           "make_run_after_cpu_s": round(cpu[after], 1), "make_run_before": before,
           "make_run_before_commit": runs.loc[before, "commit"], "make_run_before_cpu_s": round(cpu[before], 1),
           "ratio_after_to_before": round(cpu[after] / cpu[before], 3),
           "ratio_without_saved": round((cpu[after] - saved) / cpu[before], 3),
           "cpu_s_to_half": round(cpu[after] - cpu[before] / 2, 1)}
    return [*rows, both["per_task"], both["one_process"], out]


def _n(x: object, fmt: str = ",.0f") -> str:
    return format(float(x), fmt)


def docs_block(table: list[dict[str, object]]) -> str:
    """The block of docs/benchmarks.md (between ``<!-- predict-batch:start -->`` and ``end``), from the table."""
    lines = ["Generated by `python benchmarks/bench_predict_batch.py --docs` from `benchmarks/predict_batch.csv`.", "",
             "| study | way | tasks | processes | CPU s | wall s | same results as a process per task |",
             "|---|---|---:|---:|---:|---:|---|"]
    lines += [f"| {r['study']} | {r['way']} | {r['tasks']} | {r['processes']} | {_n(r['cpu_s'], ',.1f')} | "
              f"{_n(r['wall_s'], ',.1f')} | {r['same_results_as_per_task']} |" for r in table]
    saved = next(r for r in table if r["way"] == "saved")
    lines += ["", f"Run: {saved['note']}.", "",
              f"**One process for every task's predictions saves {_n(saved['cpu_s'])} CPU s** of "
              f"{_n(next(r for r in table if r['study'] == 'both' and r['way'] == 'per_task')['cpu_s'])} over "
              f"{saved['tasks']} tasks ({_n(saved['cpu_s_per_task'], '.2f')} CPU s a task), "
              + ("every task's results the same" if saved["same_results_as_per_task"] == "yes"
                 else "BUT SOME TASK'S RESULTS DIFFER") + ". `make run` of "
              f"{saved['make_run_after_commit']} (row {saved['make_run_after']} of the make-run table) used "
              f"{_n(saved['make_run_after_cpu_s'])} CPU s, {_n(saved['ratio_after_to_before'], '.2f')} of the "
              f"{_n(saved['make_run_before_cpu_s'])} of {saved['make_run_before_commit']} (row "
              f"{saved['make_run_before']}); without those seconds it would have used "
              f"{_n(saved['ratio_without_saved'], '.2f')}. That run is {_n(saved['cpu_s_to_half'])} CPU s above half "
              f"of {saved['make_run_before_commit']}'s: one process per study would remove "
              f"{_n(100 * float(saved['cpu_s']) / float(saved['cpu_s_to_half']))}% of that distance."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, help="a clone whose make run has finished (work/, .venv)")
    ap.add_argument("--study", nargs="+", default=["paperlike", "default"])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "predict_batch.csv")
    ap.add_argument("--max-tasks", type=int, default=None, help="the first tasks of each study only (a quick check)")
    ap.add_argument("--note", default="", help="where and how it ran (machine, load)")
    ap.add_argument("--make-run", type=Path, default=ROOT / "benchmarks" / "make_run.csv")
    ap.add_argument("--after", default="after", help="the make run row (label) of the code measured")
    ap.add_argument("--before", default="before", help="the make run row (label) it is compared with")
    ap.add_argument("--summary-only", action="store_true",
                    help="recompute the summary rows of --out from its study rows (no run)")
    ap.add_argument("--docs", action="store_true", help="only rewrite the block of docs/benchmarks.md from --out")
    args = ap.parse_args(argv)
    if args.docs:
        with args.out.open() as fh:
            write_block(ROOT / "docs" / "benchmarks.md", "predict-batch", docs_block(list(csv.DictReader(fh))))
        return 0
    if args.summary_only:
        with args.out.open() as fh:
            rows = list(csv.DictReader(fh))
    else:
        if args.root is None:
            ap.error("--root is required unless --summary-only")
        with tempfile.TemporaryDirectory() as tmp:
            rows = [r | {"note": args.note} for s in args.study
                    for r in run_study(args.root, s, Path(tmp), args.max_tasks)]
    rows = summary(rows, args.make_run, args.after, args.before)
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with args.out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
