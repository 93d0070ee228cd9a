"""Where a finished study's time went: per stage, along the critical path, and per learner.

Reads what the workflow already records, runs nothing:

* ``work/<study>/benchmarks/**.tsv`` (Snakemake's ``benchmark:`` files; wall ``s`` and
  ``cpu_time``): job-seconds and CPU seconds per stage (the rule: the file's path, or its folder
  for per-task rules, whose files are named by the tasks of ``work/<study>/tasks.csv``), each stage's share of the study's job-seconds and its CPU/wall ratio
  (below 1 on a machine shared with other work, or while a job waits on I/O);
* Snakemake's own logs (``.snakemake/log/*.snakemake.log``; each job block names its rule,
  inputs, outputs and benchmark file): the job DAG, job B after job A when an input of B is an
  output of A, and on it the critical path, the chain of dependent jobs with the largest sum of
  wall seconds.  No schedule on ``c`` cores finishes in less than
  ``max(critical path, job-seconds / c)``; the time the runs' logs span (first to last
  timestamp) is set against that bound (``work/<study>/run_times.jsonl`` is printed too);
* the predict jobs' status files (``work/<study>/predictions/<task>.json``: each learner's wall
  and CPU seconds, and since ``learner_phase_seconds`` its fit and score seconds apart): the ten
  learners with the most CPU seconds, with their median fit and score CPU seconds per task in
  bins of task size ``n``.

    python benchmarks/bench_stages.py default paperlike [--root .] [--log FILE ...] [--top 10]
"""

from __future__ import annotations

import argparse
import datetime as _dt
import heapq
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

#: task-size bins (rows n) of the learner table
SIZE_EDGES = (0, 300, 1000, 3000, 10000, np.inf)
JOB = re.compile(r"^(?:local)?(?:rule|checkpoint) (\w+):\n((?:[ \t]+\w+: .*\n?)+)", re.MULTILINE)


def _stage(rel: Path, tasks: set[str]) -> str:
    """``predict/<task>.tsv`` -> ``predict``; ``figures/cd_diagram.tsv`` -> ``figures/cd_diagram``."""
    return rel.parent.as_posix() if rel.stem in tasks else rel.with_suffix("").as_posix()


def _tasks(study: str, root: Path) -> set[str]:
    f = root / "work" / study / "tasks.csv"
    return set(pd.read_csv(f, usecols=["task_id"], dtype=str)["task_id"]) if f.is_file() else set()


def benchmarks(study: str, root: Path) -> pd.DataFrame:
    """One row per benchmark file: ``bench`` (its path relative to ``root``), ``stage``, ``s``, ``cpu_s``."""
    base = root / "work" / study / "benchmarks"
    tasks = _tasks(study, root)
    rows = []
    for f in sorted(base.rglob("*.tsv")):
        t = pd.read_csv(f, sep="\t")
        rows.append({"bench": f.relative_to(root).as_posix(), "stage": _stage(f.relative_to(base), tasks),
                     "s": float(t["s"].iloc[-1]),
                     "cpu_s": float(t["cpu_time"].iloc[-1]) if "cpu_time" in t else float("nan")})
    if not rows:
        raise SystemExit(f"no benchmark files under {base}: run the study first (make run)")
    return pd.DataFrame(rows)


def stages(bench: pd.DataFrame) -> pd.DataFrame:
    """Per stage: jobs, job-seconds (wall), CPU seconds, share of the job-seconds, CPU/wall."""
    df = bench.assign(jobs=1).groupby("stage", as_index=False)[["jobs", "s", "cpu_s"]].sum()
    df = df.rename(columns={"s": "job_s"})
    df["share"] = df["job_s"] / df["job_s"].sum()
    df["cpu_per_wall"] = df["cpu_s"] / df["job_s"]
    return df.sort_values("job_s", ascending=False, ignore_index=True)


def parse_log(text: str) -> tuple[list[dict], int | None]:
    """The job blocks of one Snakemake log (``rule``, ``input``, ``output``, ``benchmark``,
    ``wildcards``) and its ``Provided cores``."""
    jobs = []
    for m in JOB.finditer(text):
        fields = dict(re.findall(r"^[ \t]+(\w+): (.*)$", m.group(2), re.MULTILINE))
        jobs.append({"rule": m.group(1), "wildcards": fields.get("wildcards", ""),
                     "input": [p for p in fields.get("input", "").split(", ") if p],
                     "output": [p for p in fields.get("output", "").split(", ") if p],
                     "benchmark": fields.get("benchmark", ""),
                     "threads": int(fields.get("threads", 1)),
                     "resources": {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)(?:,|$)", fields.get("resources", ""))}})
    cores = re.search(r"^Provided cores: (\d+)", text, re.MULTILINE)
    return jobs, int(cores.group(1)) if cores else None


def _parents(jobs: list[dict]) -> list[list[int]]:
    """Each job's parents (indices): the jobs that make one of its inputs."""
    producer = {out: i for i, j in enumerate(jobs) for out in j["output"]}
    return [sorted({producer[p] for p in j["input"] if p in producer} - {i}) for i, j in enumerate(jobs)]


def critical_path(jobs: list[dict], seconds: dict[str, float]) -> tuple[float, list[tuple[str, float]]]:
    """The longest chain of dependent jobs, weighted by their benchmark wall seconds
    (``seconds[benchmark path]``; 0 for a job without one), as (its seconds, [(job, s), ...])."""
    parents = _parents(jobs)
    weight = [seconds.get(j["benchmark"], 0.0) for j in jobs]
    best: dict[int, float] = {}
    via: dict[int, int | None] = {}

    def finish(i: int) -> float:  # iterative DFS (a study has thousands of jobs)
        stack = [i]
        while stack:
            k = stack[-1]
            todo = [p for p in parents[k] if p not in best]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            if k in best:
                continue
            prev = max(parents[k], key=lambda p: best[p], default=None)
            best[k] = weight[k] + (best[prev] if prev is not None else 0.0)
            via[k] = prev
        return best[i]

    if not jobs:
        return 0.0, []
    end = max(range(len(jobs)), key=finish)
    chain, k = [], end
    while k is not None:
        j = jobs[k]
        chain.append((f"{j['rule']}" + (f"[{j['wildcards']}]" if j["wildcards"] else ""), weight[k]))
        k = via[k]
    return best[end], chain[::-1]


def schedule(jobs: list[dict], seconds: dict[str, float], cores: int, *,
             limits: dict[str, int] | None = None) -> float:
    """The finish time of a greedy list schedule of ``jobs`` on ``cores``: a model, not a run.

    Each job takes its benchmark wall seconds (0 without one) and ``threads`` cores (its log block's
    ``threads``, 1 when absent; capped at ``cores``) and starts as soon as its parents (as in
    :func:`critical_path`) are done and enough cores are free; ready jobs start in the order the
    log names them, as Snakemake's greedy scheduler roughly does with equal priorities.  ``limits``
    caps a resource the jobs declare (``openml_connections``: ``profiles/local`` allows 4 at once,
    and each OpenML fetch job takes ``openml.workers``), as Snakemake's ``--resources`` does.  The jobs'
    seconds are those measured on the run's machine and load, so the model says how the job graph
    parallelises, not how fast another machine is (``tests/workflow/test_bench_stages.py``)."""
    parents = _parents(jobs)
    children: list[list[int]] = [[] for _ in jobs]
    for i, ps in enumerate(parents):
        for q in ps:
            children[q].append(i)
    waiting = [len(ps) for ps in parents]
    need = [min(cores, max(1, j.get("threads", 1))) for j in jobs]
    limits = dict(limits or {})
    use = [{k: v for k, v in j.get("resources", {}).items() if k in limits} for j in jobs]
    for j, u in zip(jobs, use, strict=True):
        over = {k: v for k, v in u.items() if v > limits[k]}
        if over:
            name = j["rule"] + (f"[{j['wildcards']}]" if j["wildcards"] else "")
            raise ValueError(f"{name} needs more cores or resources than exist: {over} against the limits {limits}")
    ready = [i for i in range(len(jobs)) if waiting[i] == 0]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []
    free, now, done = cores, 0.0, 0

    def fits(i: int) -> bool:
        return need[i] <= free and all(v <= limits[k] for k, v in use[i].items())

    while done < len(jobs):
        while ready and fits(ready[0]):
            i = heapq.heappop(ready)
            free -= need[i]
            for k, v in use[i].items():
                limits[k] -= v
            heapq.heappush(running, (now + seconds.get(jobs[i]["benchmark"], 0.0), i))
        if not running:
            raise ValueError("the job graph has a cycle, or a job needs more cores or resources than exist")
        now, i = heapq.heappop(running)
        free += need[i]
        for k, v in use[i].items():
            limits[k] += v
        done += 1
        for k in children[i]:
            waiting[k] -= 1
            if waiting[k] == 0:
                heapq.heappush(ready, k)
    return now


def log_span(text: str) -> float:
    """Seconds from the first to the last timestamp (``[Tue Nov 24 01:01:15 2026]``) of a log."""
    stamps = [_dt.datetime.strptime(" ".join(t.split()), "%a %b %d %H:%M:%S %Y")
              for t in re.findall(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]", text, re.MULTILINE)]
    return (max(stamps) - min(stamps)).total_seconds() if stamps else 0.0


def study_jobs(study: str, logs: list[Path]) -> tuple[list[dict], int | None, float]:
    """The study's jobs over ``logs`` (oldest first; a job run again replaces its earlier block),
    the cores of the runs and the sum of the runs' spans (:func:`log_span`)."""
    prefix = f"work/{study}/benchmarks/"
    by_bench: dict[str, dict] = {}
    unbenched: list[dict] = []
    cores = None
    span = 0.0
    for log in logs:
        text = log.read_text(errors="replace")
        jobs, c = parse_log(text)
        mine = [j for j in jobs if j["benchmark"].startswith(prefix)
                or (not j["benchmark"] and any(p.startswith((f"work/{study}/", f"results/{study}/"))
                                                for p in j["output"] + j["input"]))]
        if mine:
            cores = c or cores
            span += log_span(text)
        for j in mine:
            if j["benchmark"]:
                by_bench[j["benchmark"]] = j
            else:
                unbenched.append(j)
    return list(by_bench.values()) + unbenched, cores, span


def learners(study: str, root: Path) -> pd.DataFrame:
    """One row per (task, learner) of the study's local predict jobs: ``n``, wall/CPU seconds and,
    where recorded, fit and score seconds (wall and CPU)."""
    rows = []
    for f in sorted((root / "work" / study / "predictions").glob("*.json")):
        st = json.loads(f.read_text())
        if st.get("status") != "ok" or "learner_seconds" not in st:
            continue
        phases = st.get("learner_phase_seconds", {})
        for name, wall in st["learner_seconds"].items():
            p = phases.get(name, {})
            rows.append({"task": st["task_id"], "n": st.get("n", np.nan), "learner": name, "wall_s": wall,
                         "cpu_s": st.get("learner_cpu_seconds", {}).get(name, np.nan),
                         "fit_s": p.get("fit_s", np.nan), "score_s": p.get("score_s", np.nan),
                         "fit_cpu_s": p.get("fit_cpu_s", np.nan), "score_cpu_s": p.get("score_cpu_s", np.nan)})
    return pd.DataFrame(rows)


def top_learners(per: pd.DataFrame, top: int) -> pd.DataFrame:
    """The ``top`` learners by CPU seconds summed over tasks, with their share of every learner's
    CPU seconds, and per task-size bin the median CPU seconds per task: ``fit/score`` when the
    phases were recorded, else ``fit+score`` (the learner's total)."""
    per = per.assign(size=pd.cut(per["n"], SIZE_EDGES, right=False,
                                 labels=[_size_label(a, b) for a, b in itertools.pairwise(SIZE_EDGES)]))
    tot = per.groupby("learner").agg(tasks=("task", "nunique"), wall_s=("wall_s", "sum"), cpu_s=("cpu_s", "sum"),
                                     fit_cpu_s=("fit_cpu_s", "sum"), score_cpu_s=("score_cpu_s", "sum"))
    tot["share"] = tot["cpu_s"] / tot["cpu_s"].sum()
    tot = tot.sort_values("cpu_s", ascending=False).head(top)
    phased = per["fit_cpu_s"].notna().any()
    out = tot[["tasks", "wall_s", "cpu_s", "share"]].copy()
    if phased:
        out["fit_share"] = tot["fit_cpu_s"] / (tot["fit_cpu_s"] + tot["score_cpu_s"])
    for size, g in per[per["learner"].isin(tot.index)].groupby("size", observed=True):
        med = g.groupby("learner")[["cpu_s", "fit_cpu_s", "score_cpu_s"]].median()
        k = g.groupby("learner")["task"].nunique()
        col = f"n {size} ({g['task'].nunique()} tasks)"
        out[col] = [
            "-" if name not in med.index else
            (f"{med.loc[name, 'fit_cpu_s']:.3g}/{med.loc[name, 'score_cpu_s']:.3g}" if phased
             else f"{med.loc[name, 'cpu_s']:.3g}") + ("" if k.get(name, 0) == g["task"].nunique() else f" ({k[name]})")
            for name in out.index]
    return out.reset_index()


def _size_label(a: float, b: float) -> str:
    return f">= {a:,.0f}" if np.isinf(b) else f"{a:,.0f}-{b - 1:,.0f}"


def _fmt(v: float) -> str:
    return f"{v:.2f}" if abs(v) < 1 else f"{v:.0f}"


def report(study: str, root: Path, logs: list[Path], top: int, *,
           model_cores: tuple[int, ...] = (1, 2, 4, 8, 16), limits: dict[str, int] | None = None) -> str:
    bench = benchmarks(study, root)
    df = stages(bench)
    lines = []
    runs = root / "work" / study / "run_times.jsonl"
    walls = [json.loads(ln)["wall_s"] for ln in runs.read_text().splitlines() if ln.strip()] if runs.is_file() else []
    lines.append(f"\n## {study}: {df['jobs'].sum()} jobs, {df['job_s'].sum():.0f} job-seconds, "
                 f"{df['cpu_s'].sum():.0f} CPU seconds"
                 + (f"; recorded runs {', '.join(f'{w:.0f}' for w in walls)} s wall" if walls else ""))
    lines.append("\n### Stages\n")
    lines.append(df.to_string(index=False, float_format=_fmt))

    jobs, cores, span = study_jobs(study, logs)
    lines.append("\n### Critical path\n")
    if not jobs:
        lines.append("no Snakemake log names this study's jobs (pass --log .snakemake/log/<run>.snakemake.log)")
    else:
        seconds = dict(zip(bench["bench"], bench["s"], strict=True))
        length, chain = critical_path(jobs, seconds)
        found = sum(j["benchmark"] in seconds for j in jobs)
        total = float(bench["s"].sum())
        lines.append(f"{found} of {len(bench)} benchmarked jobs are in the logs; the critical path is "
                     f"{length:.0f} s ({length / total:.1%} of the job-seconds) over {len(chain)} jobs:")
        lines.extend(f"  {s:8.1f} s  {name}" for name, s in chain)
        if cores:
            bound = max(length, total / cores)
            lines.append(f"lower bound on {cores} cores: max(critical path, job-seconds / {cores}) = {bound:.0f} s; "
                         f"the runs' logs span {span:.0f} s ({span / bound:.2f} x the bound)")
        model = {c: schedule(jobs, seconds, c, limits=limits) for c in model_cores}
        lines.append("modelled finish (a greedy schedule of these jobs at their measured seconds, "
                     "not a run; function schedule): "
                     + ", ".join(f"{c} cores {t:.0f} s" for c, t in model.items())
                     + f"; unlimited cores: the critical path, {length:.0f} s"
                     + (f"; on {cores} cores the runs' logs span {span:.0f} s ({span / model[cores]:.2f} x the model)"
                        if cores in model and model[cores] > 0 else ""))

    per = learners(study, root)
    lines.append(f"\n### Predict: the {top} learners with the most CPU seconds\n")
    if per.empty:
        lines.append("no local predict status files with learner timings (an OpenML study fetches, fits nothing)")
    else:
        t = top_learners(per, top)
        unit = ("median CPU seconds per task, fit/score" if "fit_share" in t
                else "median CPU seconds per task, fit+score (this run recorded no learner_phase_seconds)")
        lines.append(f"{per['task'].nunique()} tasks; size columns: {unit}; (k) = on k tasks of the bin\n")
        lines.append(t.to_string(index=False, float_format=_fmt))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("studies", nargs="+")
    ap.add_argument("--root", default=".", help="the repository (default: here)")
    ap.add_argument("--log", nargs="*", default=None,
                    help="Snakemake logs of the runs (default: every .snakemake/log/*.snakemake.log under root)")
    ap.add_argument("--top", type=int, default=10, help="learners to list (default 10)")
    ap.add_argument("--cores", type=int, nargs="+", default=[1, 2, 4, 8, 16],
                    help="cores to model the study's finish on (default 1 2 4 8 16; function schedule)")
    ap.add_argument("--openml-connections", type=int, default=4,
                    help="the cap on simultaneous OpenML connections in the model (profiles/local: 4)")
    args = ap.parse_args(argv)
    root = Path(args.root)
    logs = [Path(p) for p in args.log] if args.log is not None else sorted(
        (root / ".snakemake" / "log").glob("*.snakemake.log"))
    for study in args.studies:
        print(report(study, root, logs, args.top, model_cores=tuple(args.cores),
                     limits={"openml_connections": args.openml_connections}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
