"""The tables of a loopback OpenML run stopped before its end (``bench_openml_loopback.py --partial``).

A size that cannot finish on a loaded machine still measured something: each predict job done has its
status file (requests, seconds, runs), its Snakemake ``benchmark:`` file (wall seconds, ``max_rss``) and its
predictions files in the cache (the bytes the server sent); the run's ``progress.csv`` has the server's
counts a minute apart (requests, MB, the most requests in flight) and Snakemake's log the time each
predict job started and finished (how many ran at once).  From these: the same per-job rows as a
finished run and a summary row marked ``stopped``.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")


def predict_intervals(log: str) -> list[tuple[float, float]]:
    """(start, end) in seconds of every predict job finished in a Snakemake log."""
    start: dict[str, float] = {}
    out = []
    stamp = None
    lines = log.splitlines()
    for i, line in enumerate(lines):
        m = STAMP.match(line)
        if m:
            stamp = _dt.datetime.strptime(m[1], "%a %b %d %H:%M:%S %Y").timestamp()
            continue
        if line.strip() in ("rule predict:", "localrule predict:") and stamp is not None:
            jid = next((x.split(":")[1].strip() for x in lines[i + 1:i + 12] if x.strip().startswith("jobid:")), None)
            if jid is not None:
                start[jid] = stamp
        f = re.match(r"Finished jobid: (\d+) \(Rule: predict\)", line)
        if f and f[1] in start and stamp is not None:
            out.append((start.pop(f[1]), stamp))
    return out


def most_at_once(intervals: list[tuple[float, float]]) -> int:
    """The most intervals open at one moment (an end at t before a start at t)."""
    events = sorted([(a, 1) for a, _ in intervals] + [(b, -1) for _, b in intervals])
    now = most = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


def job_rows(wd: Path, study: str, n: int, world) -> pd.DataFrame:
    """One row per predict job finished (as ``run_size`` writes them), the bytes from the cache's files."""
    preds = {p.name: p.stat().st_size for p in (wd / "cache").rglob("run-*.arff")}
    rows = []
    for st in sorted((wd / "work" / study / "predictions").glob("openml-*.json")):
        s = json.loads(st.read_text())
        tid = int(st.stem.split("-")[1])
        bench = next((wd / "work" / study / "benchmarks").rglob(f"*{st.stem}.tsv"), None)
        if bench is None:  # the job was still scoring its task when the run stopped
            continue
        b = pd.read_csv(bench, sep="\t").iloc[0]
        runs = [d["run_id"] for d in s.get("runs") or []]
        rows.append({"size": n, "task": st.stem, "rows": world.rows_of_task(tid), "status": s["status"],
                     "job_s": float(b.get("s", np.nan)), "max_rss_mb": float(b.get("max_rss", np.nan)),
                     "fetch_s": s.get("seconds"), "requests": s.get("http_requests"),
                     "replaced": len(s.get("replaced_runs") or []),
                     "bytes": sum(preds.get(f"run-{r}.arff", 0) for r in runs) if s["status"] == "ok" else 0,
                     "n_runs_listed": len(world.runs_of_task[tid])})
    return pd.DataFrame(rows)


def summary_row(wd: Path, study: str, n: int, jobs: pd.DataFrame, du, stopped_at: str) -> dict:
    """The summary row of a stopped size: what was done by ``stopped_at``."""
    prog = pd.read_csv(wd / "progress.csv")
    last = prog.iloc[-1]
    sel = next((wd / "work" / study / "benchmarks").rglob("select_tasks*.tsv"), None)
    tl = wd / "work" / study / "tasks.csv"
    largest = jobs.loc[jobs["rows"].idxmax()]
    logs = sorted((wd / ".snakemake" / "log").glob("*.snakemake.log"))
    return {
        "tasks": n, "ok": int((jobs["status"] == "ok").sum()), "wall_s": float(last["seconds"]),
        "select_s": round(float(pd.read_csv(sel, sep="\t")["s"].iloc[0]), 1) if sel else float("nan"),
        "candidates_examined": int(len(pd.read_csv(tl))) if tl.is_file() else None,
        "requests": int(last["requests"]), "mb_sent": float(last["mb_sent"]),
        "cache_mb": round(du(wd / "cache") / 1e6, 1), "rows_total": int(jobs["rows"].sum()),
        "largest_rows": int(largest["rows"]), "largest_max_rss_mb": round(float(largest["max_rss_mb"]), 0),
        "max_rss_mb": round(float(jobs["max_rss_mb"].max()), 0),
        "median_job_s": round(float(jobs["job_s"].median()), 1), "job_s_sum": round(float(jobs["job_s"].sum()), 0),
        "cap": 4, "max_in_flight": int(prog["max_in_flight"].max()),
        "max_tasks_at_once": most_at_once([iv for f in logs for iv in predict_intervals(f.read_text())]),
        "load1": float(prog["load1"].median()), "stopped_at": stopped_at, "tasks_done": int(len(jobs)),
    }
