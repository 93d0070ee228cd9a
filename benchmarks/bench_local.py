"""Benchmark: the local source on a whole suite, the way the workflow runs it.

Runs ``prspace predict-local`` once per dataset of the suite, ``--jobs`` processes at a
time (each process single-threaded), each under ``/usr/bin/time -v`` for its peak
memory, then prints: total wall time, the load average, the slowest datasets, the
time share of every learner (summed over datasets, side by side in one run) and the
peak resident memory of one process.

    python benchmarks/bench_local.py --suite default --learners default --folds 10 \
        --jobs 2 --work /tmp/bench_local

Outputs (predictions, status JSON, time logs) go under ``--work``; ``summary.csv``
and ``learners.csv`` there hold the tables.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

from prspace.data.datasets import suite_names


def _read_timelog(timelog: Path) -> dict:
    """Peak RSS and CPU seconds from a ``/usr/bin/time -v`` log."""
    row: dict = {}
    if not timelog.exists():
        return row
    text = timelog.read_text()
    for key, pattern, scale in (
        ("peak_rss_mb", r"Maximum resident set size \(kbytes\): (\d+)", 1 / 1024),
        ("user_s", r"User time \(seconds\): ([\d.]+)", 1.0),
        ("sys_s", r"System time \(seconds\): ([\d.]+)", 1.0),
    ):
        m = re.search(pattern, text)
        if m:
            row[key] = float(m.group(1)) * scale
    return row


def _collect(task_id: str, work: Path) -> dict:
    """The row of one finished dataset, re-read from its files (``--summarize-only``)."""
    row: dict = {"task_id": task_id, "exit": 0, "wall_s": float("nan")}
    status = work / f"{task_id}.json"
    if not status.exists():
        return {"task_id": task_id, "exit": -1, "status": "missing"}
    st = json.loads(status.read_text())
    row.update(
        status=st["status"], reason=st["reason"], n=st.get("n"), n_pos=st.get("n_pos"),
        n_models=st["n_models"], failed=",".join(f["learner"] for f in st["failed_learners"]),
        cv_s=st["seconds"], learner_seconds=st.get("learner_seconds", {}),
        learner_cpu_seconds=st.get("learner_cpu_seconds", {}),
    )
    text = (work / f"{task_id}.time").read_text() if (work / f"{task_id}.time").exists() else ""
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text)
    if m:
        parts = [float(x) for x in m.group(1).split(":")]
        row["wall_s"] = sum(v * 60**i for i, v in enumerate(reversed(parts)))
    row.update(_read_timelog(work / f"{task_id}.time"))
    return row


def _run_one(task_id: str, args: argparse.Namespace, work: Path) -> dict:
    out = work / f"{task_id}.parquet"
    status = work / f"{task_id}.json"
    timelog = work / f"{task_id}.time"
    cmd = [
        sys.executable, "-m", "prspace", "predict-local", "--dataset", task_id,
        "--suite", args.suite, "--learners", args.learners, "--folds", str(args.folds),
        "--seed", str(args.seed), "--out", str(out), "--status", str(status),
    ]
    gnu_time = shutil.which("time") or "/usr/bin/time"
    if os.path.exists(gnu_time):
        cmd = [gnu_time, "-v", "-o", str(timelog)] + cmd
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    row = {"task_id": task_id, "exit": proc.returncode, "wall_s": wall}
    if proc.returncode != 0:
        row["error"] = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "?"
    if status.exists():
        st = json.loads(status.read_text())
        row.update(
            status=st["status"], reason=st["reason"], n=st.get("n"), n_pos=st.get("n_pos"),
            n_models=st["n_models"], failed=",".join(f["learner"] for f in st["failed_learners"]),
            cv_s=st["seconds"], learner_seconds=st.get("learner_seconds", {}),
            learner_cpu_seconds=st.get("learner_cpu_seconds", {}),
        )
    row.update(_read_timelog(timelog))
    print(f"{task_id:40s} {row.get('status', 'ERROR'):8s} {wall:7.1f} s", flush=True)
    return row


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--suite", default="default")
    p.add_argument("--learners", default="default")
    p.add_argument("--folds", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--limit", type=int, default=0, help="only the first N datasets (0 = all)")
    p.add_argument("--work", default="/tmp/bench_local")
    p.add_argument("--summarize-only", action="store_true",
                   help="do not run; summarise the files already in --work")
    args = p.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    tasks = suite_names(args.suite)
    if args.limit:
        tasks = tasks[: args.limit]
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    # largest first, so the last stragglers are small
    from prspace.data.datasets import describe_suite

    sizes = describe_suite(args.suite).set_index("task_id")["n"].to_dict()
    tasks = sorted(tasks, key=lambda t: -sizes.get(t, 0))
    if args.summarize_only:
        rows = [_collect(t, work) for t in tasks]
    else:
        with ThreadPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(lambda t: _run_one(t, args, work), tasks))
    total = time.perf_counter() - t0
    load_after = os.getloadavg()

    df = pd.DataFrame(rows)
    learner_rows = [
        {"task_id": r["task_id"], "learner": k, "seconds": v}
        for r in rows for k, v in (r.get("learner_seconds") or {}).items()
    ]
    lt = pd.DataFrame(learner_rows)
    cpu_rows = [
        {"task_id": r["task_id"], "learner": k, "cpu_seconds": v}
        for r in rows for k, v in (r.get("learner_cpu_seconds") or {}).items()
    ]
    if cpu_rows:
        lt = lt.merge(pd.DataFrame(cpu_rows), on=["task_id", "learner"], how="left")
    df.drop(columns=["learner_seconds", "learner_cpu_seconds"], errors="ignore").to_csv(
        work / "summary.csv", index=False
    )
    lt.to_csv(work / "learners.csv", index=False)

    print()
    print(f"suite {args.suite}: {len(tasks)} datasets x learners {args.learners} x {args.folds} folds, "
          f"{args.jobs} parallel processes")
    if not args.summarize_only:
        print(f"total wall time: {total:.1f} s ({total / 60:.1f} min)")
    if "user_s" in df:
        cpu = (df["user_s"] + df["sys_s"]).sum()
        print(f"CPU time of all processes: {cpu:.0f} s = {cpu / args.jobs / 60:.1f} min of wall time "
              f"on {args.jobs} idle cores (the goal: under 20 min)")
    print(f"load average (1, 5, 15 min) before: {load_before}, after: {load_after}")
    counts = df["status"].value_counts(dropna=False).to_dict() if "status" in df else {}
    print(f"status: {counts}; non-zero exits: {int((df['exit'] != 0).sum())}")
    if "failed" in df:
        fails = df.loc[df["failed"].fillna("") != "", ["task_id", "failed"]]
        print(f"datasets with failed learners: {len(fails)}")
        if len(fails):
            print(fails.to_string(index=False))
    if "peak_rss_mb" in df:
        i = df["peak_rss_mb"].idxmax()
        print(f"peak memory of one process: {df['peak_rss_mb'].max():.0f} MB ({df.loc[i, 'task_id']}); "
              f"median {df['peak_rss_mb'].median():.0f} MB")
    print("\nslowest datasets (wall s of the whole process, cv s inside):")
    cols = [c for c in ("task_id", "n", "n_pos", "wall_s", "cv_s", "user_s", "peak_rss_mb") if c in df]
    key = "user_s" if "user_s" in df else "wall_s"
    print(df.sort_values(key, ascending=False)[cols].head(10).to_string(index=False, float_format="%.1f"))
    print(f"sum of process wall times: {df['wall_s'].sum():.0f} s; of CV time: {df.get('cv_s', pd.Series()).sum():.0f} s "
          f"(the rest is process start-up and I/O)")
    if len(lt):
        col = "cpu_seconds" if "cpu_seconds" in lt and lt["cpu_seconds"].notna().any() else "seconds"
        sub = lt.dropna(subset=[col])
        per = sub.groupby("learner")[col].agg(["sum", "max"]).sort_values("sum", ascending=False)
        per["share"] = per["sum"] / per["sum"].sum()
        print(f"\nlearners by total {col} over the {sub['task_id'].nunique()} datasets that "
              f"recorded them (share of CV time):")
        print(per.to_string(float_format="%.3f"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
