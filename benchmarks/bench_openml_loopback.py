"""Benchmark: the faithful OpenML study (config/openml-paper.yaml) against a paper-scale loopback OpenML.

Starts :class:`tests/openml_loopback.LoopbackOpenML` (886 binary 10-fold tasks on 426 datasets,
content generated from a seed) in this process, points ``config/openml-paper.yaml`` at it (fresh
draw, discovery, 30 models from distinct flows, ``openml.workers`` 4: at most 4 requests in flight
over all fetch jobs together, :mod:`prspace.openml.connections`) and runs the study's OpenML steps
through Snakemake with ``profiles/local`` (select -> one predict job per task, several at once ->
manifest and self-check; ``--full`` runs the whole study with its analysis, verdicts and the HTML
report) with ``openml.max_tasks`` = each of ``--sizes``.  Per size it prints: wall time, HTTP requests
(and per kind), bytes sent by the server, the cache's size on disk, the peak resident memory of the
predict jobs (Snakemake's ``benchmark:`` files, ``max_rss``), the largest task's included, and what the
server saw of the cap: the most requests it answered at once and the most tasks fetching at once
(each task from its first to its last run-description request).  ``<work>/size-N/progress.csv`` gets
a line a minute (tasks done, requests, MB, disk), so a run stopped early still has its rate.

Then it extrapolates to the whole draw of the world (886 tasks): each predict job's seconds, bytes
and requests are fitted as ``a + b * rows`` (rows of the task's dataset, least squares over every
job of every size) and summed over the world's 886 tasks; selection's requests per candidate are
scaled to the world's candidates; the wall time divides the job-seconds by the jobs at once measured
at the largest size.

    python benchmarks/bench_openml_loopback.py --sizes 100 200 --work /tmp/bench_openml
    python benchmarks/bench_openml_loopback.py --sizes 886 --full --work /tmp/openml886   # the whole draw
    python benchmarks/bench_openml_loopback.py --combine /tmp/b100 /tmp/b200 --docs   # runs made apart
    python benchmarks/bench_openml_loopback.py --resume /tmp/openml886/size-886   # finish a stopped whole draw

``--latency`` / ``--bandwidth`` shape the server (seconds per answer, bytes/s per connection).
The per-job table goes to ``<work>/jobs.csv``, the summary to ``<work>/summary.csv`` (after each size),
the extrapolation to ``<work>/extrapolation.json``.  ``--docs`` then writes the table, the cost curve and
the extrapolation into docs/benchmarks.md (between the ``openml-loopback`` markers) and the forecast
for the live server into docs/openml.md (``openml-forecast``); ``--docs-only`` writes them from the
committed ``benchmarks/openml_loopback_summary.csv`` and ``openml_loopback_extrapolation.json`` without
running anything; ``--combine`` joins the tables of runs made apart into those committed files and
writes the docs.
"""

from __future__ import annotations

import argparse
import calendar
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from openml_loopback import LoopbackOpenML, make_world  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _openml_partial as partial  # noqa: E402
from _docs import write_block  # noqa: E402
from bench_make_run import gnu_time  # noqa: E402

SNAKEMAKE = Path(sys.executable).with_name("snakemake")


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.exists() else 0


def _kind(path: str) -> str:
    if path.startswith("/data/download/9000"):
        return "dataset files"
    if path.startswith("/data/download/"):
        return "predictions files"
    call = path.split("/api/v1/xml/", 1)[-1]
    if call.startswith("run/list"):
        return "run listings"
    if call.startswith("task/list"):
        return "task listings"
    if call.startswith("run/"):
        return "run descriptions"
    return "task/dataset metadata"


def tasks_at_once(srv: LoopbackOpenML, spans: list[tuple[float, float, str]]) -> int:
    """The most tasks fetching at the same moment: each task's window runs from its first to its last
    run-description request (the server's spans, so a measurement of what the server saw)."""
    window: dict[int, list[float]] = {}
    for t0, t1, path in spans:
        m = re.search(r"/run/(\d+)$", path)
        row = srv.world.run_row.get(int(m[1])) if m else None
        if row is not None:
            w = window.setdefault(int(srv.world.run_task[row]), [t0, t1])
            w[0], w[1] = min(w[0], t0), max(w[1], t1)
    events = sorted([(a, 1) for a, _ in window.values()] + [(b, -1) for _, b in window.values()])
    now = most = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


def _peak_rss_mb(bench_dir: Path) -> float:
    """The largest ``max_rss`` of any job's Snakemake benchmark file under ``bench_dir`` (MB)."""
    peaks = [float(pd.read_csv(f, sep="\t")["max_rss"].iloc[0]) for f in bench_dir.rglob("*.tsv")]
    return max([p for p in peaks if p == p] or [float("nan")])


class Progress(threading.Thread):
    """Every ``every`` seconds a line of ``<wd>/progress.csv``: seconds, predict jobs done, requests,
    MB sent, disk MB, the most requests in flight so far (so a run stopped early still has its rate)."""

    def __init__(self, srv: LoopbackOpenML, wd: Path, study: str, every: float = 60.0) -> None:
        super().__init__(daemon=True)
        self.srv, self.wd, self.study, self.every = srv, wd, study, every
        self.stop = threading.Event()
        self.t0, self.b0 = time.monotonic(), srv.bytes_sent
        (wd / "progress.csv").write_text("seconds,tasks_done,requests,mb_sent,disk_mb,max_in_flight,load1\n")

    def line(self) -> str:
        done = len(list((self.wd / "work" / self.study / "predictions").glob("openml-*.json")))
        return (f"{time.monotonic() - self.t0:.0f},{done},{len(self.srv.paths)},"
                f"{(self.srv.bytes_sent - self.b0) / 1e6:.1f},{_du(self.wd) / 1e6:.1f},{self.srv.max_in_flight},"
                f"{os.getloadavg()[0]:.1f}\n")

    def run(self) -> None:
        while not self.stop.wait(self.every):
            with open(self.wd / "progress.csv", "a") as fh:
                fh.write(self.line())


def _snakemake(wd: Path, cfg_path: Path, cores: int, targets: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SNAKEMAKE), *targets, "--snakefile", str(ROOT / "Snakefile"), "--directory", str(wd),
         "--configfile", str(cfg_path), "--profile", str(ROOT / "profiles" / "local"), "--cores", str(cores)],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )


def run_size(srv: LoopbackOpenML, n: int, work: Path, cores: int, full: bool, seed: int) -> tuple[dict, pd.DataFrame]:
    study = f"openml-bench-{n}"
    wd = work / f"size-{n}"
    shutil.rmtree(wd, ignore_errors=True)
    wd.mkdir(parents=True)
    cfg = yaml.safe_load((ROOT / "config" / "openml-paper.yaml").read_text())
    cfg["study"] = study
    cfg["seed"] = seed
    cfg["openml"].update(server=srv.url, cache_dir=str(wd / "cache"), max_tasks=n)
    cfg_path = wd / "config.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg))
    target = [f"results/{study}/openml-manifest.json", f"results/{study}/tables/openml_selfcheck.csv"]
    srv.reset_count()
    b0 = srv.bytes_sent
    t0 = time.monotonic()
    progress = Progress(srv, wd, study)
    progress.start()
    res = _snakemake(wd, cfg_path, cores, ["all"] if full else target)
    wall = time.monotonic() - t0
    (wd / "snakemake.log").write_text(res.stdout + res.stderr)
    if res.returncode != 0:
        raise SystemExit(f"size {n}: snakemake failed (exit {res.returncode}); see {wd / 'snakemake.log'}:\n"
                         + res.stderr[-3000:])
    report_s = float("nan")
    if full:  # the HTML report, as `make run` builds it
        t1 = time.monotonic()
        rep = _snakemake(wd, cfg_path, cores, ["--report", str(wd / "report.html")])
        report_s = time.monotonic() - t1
        if rep.returncode != 0:
            raise SystemExit(f"size {n}: the report failed: {rep.stderr[-3000:]}")
    progress.stop.set()
    with open(wd / "progress.csv", "a") as fh:
        fh.write(progress.line())
    spans = list(srv.spans)
    paths = srv.per_path()
    kinds: dict[str, int] = {}
    for p, k in paths.items():
        kinds[_kind(p)] = kinds.get(_kind(p), 0) + k
    # per predict job: seconds and max_rss from Snakemake's benchmark files, rows/requests from the status
    jobs = []
    for st in sorted((wd / "work" / study / "predictions").glob("openml-*.json")):
        s = json.loads(st.read_text())
        tid = int(st.stem.split("-")[1])
        bench = next((wd / "work" / study / "benchmarks").rglob(f"*{st.stem}.tsv"), None)
        b = pd.read_csv(bench, sep="\t").iloc[0] if bench else {}
        files = srv.world.run_ids[srv.world.runs_of_task[tid]]
        jobs.append({"size": n, "task": st.stem, "rows": srv.world.rows_of_task(tid), "status": s["status"],
                     "job_s": float(b.get("s", np.nan)), "max_rss_mb": float(b.get("max_rss", np.nan)),
                     "fetch_s": s.get("seconds"), "requests": s.get("http_requests"),
                     "replaced": len(s.get("replaced_runs") or []),
                     "bytes": sum(len(srv.content.predictions(int(r))) for r in
                                  [d["run_id"] for d in s.get("runs") or []]) if s["status"] == "ok" else 0,
                     "n_runs_listed": len(files)})
    jobs = pd.DataFrame(jobs)
    sel = next((wd / "work" / study / "benchmarks").rglob("select_tasks*.tsv"), None)
    sel_s = float(pd.read_csv(sel, sep="\t")["s"].iloc[0]) if sel else float("nan")
    tl = pd.read_csv(wd / "work" / study / "tasks.csv") if (wd / "work" / study / "tasks.csv").exists() else None
    largest = jobs.loc[jobs["rows"].idxmax()]
    row = {
        "tasks": n, "ok": int((jobs["status"] == "ok").sum()), "wall_s": round(wall, 1), "select_s": round(sel_s, 1),
        "candidates_examined": int(len(tl)) if tl is not None else None,
        "requests": int(sum(paths.values())), **{f"req_{k}": v for k, v in sorted(kinds.items())},
        "mb_sent": round((srv.bytes_sent - b0) / 1e6, 1), "cache_mb": round(_du(wd / "cache") / 1e6, 1),
        "rows_total": int(jobs["rows"].sum()), "largest_rows": int(largest["rows"]),
        "largest_max_rss_mb": round(float(largest["max_rss_mb"]), 0),
        "max_rss_mb": round(float(jobs["max_rss_mb"].max()), 0),
        "median_job_s": round(float(jobs["job_s"].median()), 1),
        "job_s_sum": round(float(jobs["job_s"].sum()), 0),
        "cap": int(cfg["openml"]["workers"]), "max_in_flight": int(srv.max_in_flight),
        "max_tasks_at_once": tasks_at_once(srv, spans),
        "load1": round(os.getloadavg()[0], 1),
    }
    if full:
        row.update(report_s=round(report_s, 1), disk_mb=round(_du(wd) / 1e6, 1),
                   peak_rss_mb_any_job=round(_peak_rss_mb(wd / "work" / study / "benchmarks"), 0),
                   wall_with_report_s=round(wall + report_s, 1))
    return row, jobs


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    A = np.column_stack([np.ones_like(x, dtype=float), x.astype(float)])
    coef, *_ = np.linalg.lstsq(A, y.astype(float), rcond=None)
    return float(coef[0]), float(coef[1])


def extrapolate(w, summary: pd.DataFrame, jobs: pd.DataFrame, cores: int) -> dict:
    """The whole draw of world ``w`` from the measured sizes (``summary``) and their predict jobs."""
    q = np.flatnonzero(w.task_qualifies)
    rows_all = w.ds_rows[w.task_ds[q] - 1].astype(float)
    ok = jobs[jobs["status"] == "ok"]
    out = {"tasks": len(q), "rows_total": int(rows_all.sum())}
    for col in ("job_s", "requests", "bytes", "max_rss_mb"):
        a, b = _fit(ok["rows"].to_numpy(), ok[col].to_numpy())
        out[f"{col}_a"], out[f"{col}_b_per_1000_rows"] = round(a, 3), round(b * 1000, 4)
        if col != "max_rss_mb":
            out[f"{col}_total"] = float(a * len(q) + b * rows_all.sum())
        else:
            out["max_rss_mb_largest"] = round(a + b * rows_all.max(), 0)
    cand = len(w.task_ids)
    per_cand = float((summary["req_run listings"] / summary["candidates_examined"]).median()) \
        if "req_run listings" in summary else 1.0
    out["select_requests"] = round(cand * per_cand + np.ceil(cand / 1000))
    # the predict jobs run side by side under the shared 4-connection cap: as many at once as the
    # largest size measured (its job-seconds over its wall time after selection)
    big = summary.loc[summary["tasks"].idxmax()]
    out["jobs_at_once"] = round(float(big["job_s_sum"] / (big["wall_s"] - big["select_s"])), 2)
    out["wall_s_predict"] = round(out["job_s_total"] / out["jobs_at_once"], 0)
    out["cores"] = cores
    out["gb_total"] = round(out["bytes_total"] / 1e9, 2)
    out["requests_total"] = round(out["requests_total"] + out["select_requests"])
    return out


DOCS = ROOT / "docs" / "benchmarks.md"
COMMITTED = ROOT / "benchmarks"


def _cell(fmt: str, v) -> str:
    """A table cell: ``v`` formatted, or a dash where it was not measured (a stopped run)."""
    if v is None or (isinstance(v, float) and v != v):
        return "-"
    return fmt.format(int(v) if "," in fmt else v)


def docs_block(summary: pd.DataFrame, ext: dict) -> str:
    """docs/benchmarks.md's generated part: one row per size, the fitted cost per job, the whole draw."""
    cols = [("tasks", "tasks", "{:,}"), ("state", "state", "{}"), ("wall_s", "wall s", "{:.1f}"),
            ("select_s", "select s", "{:.1f}"),
            ("requests", "requests", "{:,}"), ("req_run descriptions", "run descriptions", "{:,}"),
            ("req_predictions files", "predictions files", "{:,}"), ("mb_sent", "MB sent", "{:.1f}"),
            ("cache_mb", "cache MB", "{:.1f}"), ("rows_total", "rows (sum)", "{:,}"),
            ("largest_rows", "largest task rows", "{:,}"), ("largest_max_rss_mb", "its job's max RSS MB", "{:.0f}"),
            ("max_rss_mb", "max RSS of any job MB", "{:.0f}"), ("median_job_s", "median job s", "{:.1f}"),
            ("job_s_sum", "job s (sum)", "{:,}"), ("max_tasks_at_once", "tasks fetching at once (most)", "{:,}"),
            ("max_in_flight", "requests in flight (most)", "{:,}"), ("cap", "cap", "{:,}"),
            ("load1", "load", "{:.1f}")]
    lines = ["Generated by `python benchmarks/bench_openml_loopback.py ... --docs` from "
             "`benchmarks/openml_loopback_summary.csv` and `openml_loopback_extrapolation.json`.", "",
             "| " + " | ".join(h for _, h, _ in cols) + " |", "|" + "---|" * len(cols)]
    for r in summary.to_dict("records"):
        stopped = isinstance(r.get("stopped_at"), str) and r["stopped_at"]
        r["state"] = f"stopped at {r['stopped_at']}, {int(r['tasks_done'])} done" if stopped else "finished"
        lines.append("| " + " | ".join(_cell(f, r.get(c)) for c, _, f in cols) + " |")
    hours = ext["wall_s_predict"] / 3600
    lines += ["", f"**Cost curve** (least squares over every predict job of every size, `a + b x rows`): requests "
              f"{ext['requests_a']:.1f} {'-' if ext['requests_b_per_1000_rows'] < 0 else '+'} "
              f"{abs(ext['requests_b_per_1000_rows']):.1f} per 1,000 rows a task; bytes "
              f"{ext['bytes_a'] / 1e3:.0f} KB + {ext['bytes_b_per_1000_rows'] / 1e6:.2f} MB per 1,000 rows; a predict "
              f"job {ext['job_s_a']:.1f} s + {ext['job_s_b_per_1000_rows']:.2f} s per 1,000 rows; memory "
              f"{ext['max_rss_mb_a']:.0f} MB + {ext['max_rss_mb_b_per_1000_rows']:.1f} MB per 1,000 rows.", "",
              f"**Extrapolation to the whole draw** ({ext['tasks']:,} tasks, {ext['rows_total']:,} rows): "
              f"{ext['requests_total']:,} requests ({ext['select_requests']:,} of them listings for selection), "
              f"**{ext['gb_total']:.2f} GB** downloaded, {ext['job_s_total']:,.0f} s of predict jobs, **"
              f"{ext['wall_s_predict']:,.0f} s = {hours:.1f} h** at the {ext['jobs_at_once']:.2f} jobs at once measured "
              f"at the largest size ({ext['cores']} cores, this machine's speed and load)."]
    return "\n".join(lines)


#: the live server's latency (s a request) and bandwidth (bytes/s) the forecast is worked out for
FORECAST = ((0.25, "100 Mbit/s", 100e6 / 8), (0.5, "10 Mbit/s", 10e6 / 8), (1.0, "10 Mbit/s", 10e6 / 8))


def forecast_block(ext: dict, connections: int = 4) -> str:
    """docs/openml.md's forecast for the live server, from the loopback's extrapolation: the requests
    through ``connections`` kept busy by several fetch jobs at once (selection's listings one after the
    other), the bytes through the bandwidth, the predict jobs' own seconds at the measured jobs at once;
    the total between the largest of the three (they overlap) and their sum."""
    per_task = ext["requests_a"] + ext["requests_b_per_1000_rows"] * ext["rows_total"] / 1000 / ext["tasks"]
    fetch_requests = ext["requests_total"] - ext["select_requests"]
    cpu_h = ext["wall_s_predict"] / 3600
    lines = ["Generated by `python benchmarks/bench_openml_loopback.py ... --docs` from "
             "`benchmarks/openml_loopback_extrapolation.json`.", "",
             f"* per task about {per_task:.0f} requests (run listing, task and dataset metadata, 30 run descriptions, "
             f"30 predictions files, the replaced runs'), at most {connections} in flight over all the study's fetch "
             f"jobs together; plus about {ext['bytes_b_per_1000_rows'] / 1e3 / 30:.0f} bytes a row per run downloaded;"
             f" plus the job's own seconds ({ext['job_s_a']:.0f} s fixed + {ext['job_s_b_per_1000_rows']:.1f} s per "
             f"1,000 rows on the 2-core machine of the loopback run, docs/benchmarks.md; {ext['jobs_at_once']:.2f} jobs "
             "at once there);",
             f"* selection: one run listing per binary task the server lists (the loopback has "
             f"{ext['select_requests']:,.0f} listings; the live server more), one after the other: **(binary tasks) x L**;",
             f"* for the paper's {ext['tasks']:,} tasks ({ext['rows_total'] / 1e6:.2f} million rows on the loopback): "
             f"{ext['requests_total']:,} requests, {ext['gb_total']:.2f} GB.", "",
             f"| L (s) | B | waiting ({fetch_requests:,.0f} x L / {connections} + {ext['select_requests']:,.0f} x L) | "
             f"transfer ({ext['gb_total']:.2f} GB / B) | predict jobs (that run's 2 cores) | total |",
             "|---|---|---|---|---|---|"]
    for lat, label, bw in FORECAST:
        wait_h = (fetch_requests * lat / connections + ext["select_requests"] * lat) / 3600
        transfer_h = ext["bytes_total"] / bw / 3600
        lo, hi = max(wait_h, transfer_h, cpu_h), wait_h + transfer_h + cpu_h
        lines.append(f"| {lat:g} | {label} | {wait_h:.1f} h | {transfer_h:.1f} h | {cpu_h:.1f} h | "
                     f"{lo:.1f} to {hi:.1f} h |")
    return "\n".join(lines)


def write_docs(block: str, ext: dict | None = None) -> None:
    write_block(DOCS, "openml-loopback", block)
    if ext is not None:
        write_block(ROOT / "docs" / "openml.md", "openml-forecast", forecast_block(ext))


WHOLE = COMMITTED / "openml_loopback_whole.csv"


#: the analysis steps whose seconds the record of a resumed draw lists (Snakemake's benchmark files)
HEAVY_STEPS = ("noise_floor", "rank_sets", "boyd/fold_skew", "controlled_skew", "rank", "rank_set_summary", "verdicts")


def _utc() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _part_names(wd: Path) -> list[str]:
    """The analysis parts already started in ``wd`` (``resume``, ``resume2``, ...), in order."""
    names = [p.name.removesuffix(".started") for p in wd.glob("resume*.started")]
    return sorted(names, key=lambda n: int(n.removeprefix("resume") or 1))


def resume(wd: Path, cores: int) -> dict:
    """``--resume``: finish a stopped run of the whole draw (``<work>/size-N``) with the code of this checkout,
    without fetching again: ``snakemake all`` on its own config under ``/usr/bin/time -v`` with
    ``--rerun-triggers mtime`` (what is done stays done; its fetch needs no server) until the study has its
    verdicts, then the HTML report.  Each part's start, end, command and GNU time go to ``<wd>/<part>.{started,
    ended,cmd,log}``: ``resume``, then ``resume2`` ... when an earlier one stopped on a failure fixed since (or
    ran beside another with ``--nolock``), and ``report``; a part that ended is not run again, one that has not
    ended is waited for (an error).  Writes ``<wd>/resume.json`` (every part's wall, user and system seconds;
    the analysis from the first start to the last end, its CPU summed) for :func:`whole_record`."""
    cfg = wd / "config.yaml"
    study = yaml.safe_load(cfg.read_text())["study"]
    base = [str(SNAKEMAKE), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(wd), "--configfile", str(cfg),
            "--profile", str(ROOT / "profiles" / "local"), "--cores", str(cores)]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    parts = _part_names(wd)
    for name in parts:
        if not (wd / f"{name}.ended").exists():
            raise SystemExit(f"{name} of {wd} has not ended; wait for it (its log: {wd / f'{name}.log'})")
    verdicts = wd / "results" / study / "tables" / "verdicts.csv"
    todo = [] if verdicts.is_file() else [(f"resume{len(parts) + 1}" if parts else "resume",
                                             [*base, "all", "--rerun-triggers", "mtime"])]
    for name, cmd in [*todo, ("report", [*base, "--report", str(wd / "report.html"), "--rerun-triggers", "mtime"])]:
        if (wd / f"{name}.ended").exists():
            continue
        (wd / f"{name}.started").write_text(_utc() + "\n")
        (wd / f"{name}.cmd").write_text(" ".join(cmd[cmd.index(str(cores)) + 1:]) + "\n")
        with open(wd / f"{name}.log", "w") as log:
            rc = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=log, stderr=subprocess.STDOUT, env=env).returncode
        if rc != 0:
            raise SystemExit(f"{name} of {wd} failed (exit {rc}); see {wd / f'{name}.log'}")
        (wd / f"{name}.ended").write_text(_utc() + "\n")
    rec: dict = {"study": study, "parts": {}}
    for name in [*_part_names(wd), "report"]:
        t = gnu_time((wd / f"{name}.log").read_text())
        cmd = wd / f"{name}.cmd"
        rec["parts"][name] = {"started": (wd / f"{name}.started").read_text().strip(),
                              "ended": (wd / f"{name}.ended").read_text().strip(), **t,
                              "cmd": cmd.read_text().strip() if cmd.is_file() else "all --rerun-triggers mtime"}
    ana = [v for k, v in rec["parts"].items() if k != "report"]
    first, last = min(v["started"] for v in ana), max(v["ended"] for v in ana)
    stamp = "%Y-%m-%dT%H:%M:%SZ"
    rec["analysis"] = {"started": first, "ended": last, "parts": len(ana),
                       "wall_s": calendar.timegm(time.strptime(last, stamp)) - calendar.timegm(time.strptime(first, stamp)),
                       "cpu_s": round(sum(v["user_s"] + v["sys_s"] for v in ana), 1)}
    rec["report"] = rec["parts"]["report"]
    bench = wd / "work" / study / "benchmarks"
    rec["steps_s"] = {s: round(float(pd.read_csv(bench / f"{s}.tsv", sep="\t")["s"].iloc[0]), 1)
                      for s in HEAVY_STEPS if (bench / f"{s}.tsv").exists()}
    (wd / "resume.json").write_text(json.dumps(rec, indent=1) + "\n")
    return rec


def whole_record(wd: Path, stopped_at: str | None, note: str = "") -> pd.DataFrame:
    """One row for a run of the whole draw (``<work>/size-886``): from its ``summary.csv`` when it
    finished, else from its last ``progress.csv`` line and the benchmark files of the jobs done."""
    study = f"openml-bench-{wd.name.split('-')[-1]}"
    prog = pd.read_csv(wd / "progress.csv")
    last = prog.iloc[-1]
    summary = wd.parent / "summary.csv"
    row = {"tasks": int(wd.name.split("-")[-1]), "finished": summary.is_file() and stopped_at is None,
           "stopped_at": stopped_at or "", "wall_s": float(last["seconds"]),
           "tasks_done": max(int(last["tasks_done"]),
                             len(list((wd / "work" / study / "predictions").glob("openml-*.json")))),
           "requests": int(last["requests"]), "mb_sent": float(last["mb_sent"]), "disk_mb": float(last["disk_mb"]),
           "peak_rss_mb_any_job": round(_peak_rss_mb(wd / "work" / study / "benchmarks"), 0),
           "max_in_flight": int(prog["max_in_flight"].max()), "cap": 4,
           "load1_median": float(prog["load1"].median()), "note": note}
    # the predict jobs' lines: from the first task done to the first line with every task done (later lines are
    # the analysis)
    done = prog[prog["tasks_done"] > 0]
    done = done.iloc[:int(np.argmax(done["tasks_done"].to_numpy() >= done["tasks_done"].max())) + 1]
    if len(done) >= 2:  # the predict jobs' rate: tasks over the seconds since the first was done
        span = float(done["seconds"].iloc[-1] - done["seconds"].iloc[0])
        row["tasks_per_hour"] = round((done["tasks_done"].iloc[-1] - done["tasks_done"].iloc[0]) / span * 3600, 1) \
            if span > 0 else float("nan")
    rj = wd / "resume.json"
    if rj.is_file() and (wd / "report.html").is_file():  # the analysis finished later (--resume)
        rec = json.loads(rj.read_text())
        a, r = rec["analysis"], rec["report"]
        row.update(finished=True, resumed_at=a["started"], analysis_wall_s=round(a["wall_s"], 1),
                   analysis_cpu_s=a["cpu_s"], analysis_parts=int(a["parts"]), report_s=round(r["wall_s"], 1),
                   report_ended=r["ended"], steps_s=json.dumps(rec["steps_s"]),
                   peak_rss_mb_any_job=round(_peak_rss_mb(wd / "work" / study / "benchmarks"), 0))
    elif row["finished"]:
        s = pd.read_csv(summary).iloc[-1]
        row.update(wall_s=float(s["wall_with_report_s"]), requests=int(s["requests"]), disk_mb=float(s["disk_mb"]),
                   max_in_flight=int(s["max_in_flight"]), max_tasks_at_once=int(s["max_tasks_at_once"]))
    return pd.DataFrame([row])


def whole_block(t: pd.DataFrame) -> str:
    """docs/benchmarks.md's record of the whole draw on the loopback, from ``openml_loopback_whole.csv``."""
    r = t.iloc[-1]
    head = ("Generated by `python benchmarks/bench_openml_loopback.py --whole ...` from "
            "`benchmarks/openml_loopback_whole.csv` (outputs synthetic, in a scratch directory, not committed).")
    resumed = isinstance(r.get("resumed_at"), str) and bool(r.get("resumed_at"))
    state = (f"fetched, then stopped at {r['stopped_at']} in its analysis; the analysis resumed" if resumed else
             "finished, through the verdicts and the report" if r["finished"] else
             f"**stopped** at {r['stopped_at']}, {int(r['tasks_done'])} of {int(r['tasks'])} tasks fetched")
    rate = r.get("tasks_per_hour")
    lines = [head, "", "| tasks | state | wall s | tasks done | requests | MB sent | disk MB | peak RSS of any job MB | "
             "requests in flight (most) | cap | tasks per hour | load (median) |", "|" + "---|" * 12,
             f"| {int(r['tasks']):,} | {state} | {r['wall_s']:,.0f} | {int(r['tasks_done']):,} | {int(r['requests']):,} | "
             f"{r['mb_sent']:,.1f} | {r['disk_mb']:,.1f} | {r['peak_rss_mb_any_job']:,.0f} | {int(r['max_in_flight'])} | "
             f"{int(r['cap'])} | {_cell('{:.1f}', rate)} | {r['load1_median']:.1f} |"]
    if resumed:
        steps = json.loads(r["steps_s"])
        parts = int(r.get("analysis_parts", 1))
        lines += ["", f"The analysis, resumed at {r['resumed_at']} with `--resume` (nothing fetched again"
                      + (f"; {parts} invocations of Snakemake" if parts > 1 else "") + "): "
                      f"{r['analysis_wall_s']:,.0f} s wall from its first start to its last end, "
                      f"{r['analysis_cpu_s']:,.0f} CPU s (user + system, summed), then "
                      f"the HTML report in {r['report_s']:,.0f} s (done {r['report_ended']}): the draw went through "
                      "its verdicts and its report.", "",
                  "| analysis step | " + " | ".join(f"`{k}`" for k in steps) + " |", "|---|" + "---|" * len(steps),
                  "| wall seconds | " + " | ".join(f"{v:,.0f}" for v in steps.values()) + " |"]
    elif not r["finished"] and r["tasks_done"] >= r["tasks"]:
        lines += ["", "Every task was fetched; the run was stopped in its analysis, before the verdicts and the report."]
    elif not r["finished"] and rate is not None and rate == rate and rate > 0:
        left = (r["tasks"] - r["tasks_done"]) / rate
        lines += ["", f"At that rate the remaining {int(r['tasks'] - r['tasks_done']):,} tasks would take about "
                      f"{left:.1f} h more on this machine at this load, before the analysis."]
    if isinstance(r.get("note"), str) and r["note"]:
        lines += ["", str(r["note"])]
    return "\n".join(lines)


def combine(works: list[Path], seed: int, cores: int) -> int:
    """``--combine``: the runs' tables into ``benchmarks/`` and the docs."""
    summary = pd.concat([pd.read_csv(w / "summary.csv") for w in works], ignore_index=True).sort_values("tasks")
    jobs = pd.concat([pd.read_csv(w / "jobs.csv") for w in works], ignore_index=True).sort_values(["size", "task"])
    ext = extrapolate(make_world(seed=seed), summary, jobs, cores)
    summary.to_csv(COMMITTED / "openml_loopback_summary.csv", index=False)
    jobs.to_csv(COMMITTED / "openml_loopback_jobs.csv", index=False)
    (COMMITTED / "openml_loopback_extrapolation.json").write_text(json.dumps(ext, indent=1))
    write_docs(docs_block(summary, ext), ext)
    print(json.dumps(ext))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[10, 25, 50])
    p.add_argument("--work", type=Path, default=Path("/tmp/bench_openml"))
    p.add_argument("--cores", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--full", action="store_true", help="run the whole study (analysis too), not only the fetch")
    p.add_argument("--latency", type=float, default=0.0)
    p.add_argument("--bandwidth", type=float, default=0.0)
    p.add_argument("--docs", action="store_true", help="write this run's table into docs/benchmarks.md")
    p.add_argument("--docs-only", action="store_true",
                   help="write docs/benchmarks.md's table from the committed files; run nothing")
    p.add_argument("--combine", type=Path, nargs="+", default=None, metavar="WORK",
                   help="join the summary.csv and jobs.csv of runs made apart (e.g. one size each, side by side) "
                        "into the committed files, extrapolate and write the docs; run nothing")
    p.add_argument("--whole", type=Path, default=None, metavar="WORK/size-886",
                   help="record a run of the whole draw (finished or stopped) in benchmarks/openml_loopback_whole.csv "
                        "and docs/benchmarks.md; run nothing")
    p.add_argument("--resume", type=Path, default=None, metavar="WORK/size-886",
                   help="finish a stopped run of the whole draw with this checkout's code, nothing fetched again (its "
                        "analysis, then the report; resume.json), then record it as --whole does")
    p.add_argument("--stopped-at", default=None, help="with --whole or --partial: when the run was stopped (UTC)")
    p.add_argument("--note", default="", help="with --whole: what else happened to the run (kept in the table)")
    p.add_argument("--partial", type=Path, nargs="+", default=None, metavar="WORK/size-N",
                   help="the tables of sizes stopped before their end (with --stopped-at) into WORK/summary.csv and "
                        "WORK/jobs.csv, for --combine; run nothing")
    a = p.parse_args(argv)
    if a.partial:
        for wd in a.partial:
            n = int(wd.name.split("-")[-1])
            jobs = partial.job_rows(wd, f"openml-bench-{n}", n, make_world(seed=a.seed))
            row = partial.summary_row(wd, f"openml-bench-{n}", n, jobs, _du, a.stopped_at or "")
            pd.DataFrame([row]).to_csv(wd.parent / "summary.csv", index=False)
            jobs.to_csv(wd.parent / "jobs.csv", index=False)
            print(json.dumps(row))
        return 0
    if a.resume:
        print(json.dumps(resume(a.resume, a.cores)))
        a.whole = a.resume
        if a.stopped_at is None:  # the stop being resumed, as the committed record has it
            a.stopped_at = str(pd.read_csv(WHOLE)["stopped_at"].iloc[-1])
            a.note = a.note or str(pd.read_csv(WHOLE)["note"].iloc[-1])
    if a.whole:
        t = whole_record(a.whole, a.stopped_at, a.note)
        t.to_csv(WHOLE, index=False)
        write_block(DOCS, "openml-loopback-whole", whole_block(t))
        print(t.to_string(index=False))
        return 0
    if a.combine:
        return combine(a.combine, a.seed, a.cores)
    if a.docs_only:
        ext = json.loads((COMMITTED / "openml_loopback_extrapolation.json").read_text())
        write_docs(docs_block(pd.read_csv(COMMITTED / "openml_loopback_summary.csv"), ext), ext)
        return 0
    a.work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    world = make_world(seed=a.seed)
    print(f"world: {world.n_tasks} qualifying tasks + {len(world.task_ids) - world.n_tasks} decoys on "
          f"{len(world.ds_rows)} datasets, {len(world.run_ids)} runs ({time.monotonic() - t0:.1f}s)", flush=True)
    rows, alljobs = [], []
    with LoopbackOpenML(world, latency=a.latency, bandwidth=a.bandwidth) as srv:
        for n in a.sizes:
            row, jobs = run_size(srv, n, a.work, a.cores, a.full, a.seed)
            rows.append(row)
            alljobs.append(jobs)
            print(json.dumps(row), flush=True)
            summary = pd.DataFrame(rows)  # written after each size: a run stopped later keeps these
            jobs = pd.concat(alljobs, ignore_index=True)
            summary.to_csv(a.work / "summary.csv", index=False)
            jobs.to_csv(a.work / "jobs.csv", index=False)
        pd.set_option("display.width", 250)
        print(summary.to_string(index=False))
        ext = extrapolate(srv.world, summary, jobs, a.cores)
    print("extrapolation to the whole draw:", json.dumps(ext))
    (a.work / "extrapolation.json").write_text(json.dumps(ext, indent=1))
    if a.docs:
        write_docs(docs_block(summary, ext), ext)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
