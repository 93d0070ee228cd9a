"""benchmarks/bench_stages.py on a synthetic finished study: the stage sums, the critical path
against every path of the job DAG enumerated, and the learner table against numpy's medians."""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_stages", ROOT / "benchmarks" / "bench_stages.py")
bs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bs)

W = "work/s"
#: job: (rule, wildcards, inputs, outputs, benchmark relative to work/s/benchmarks, wall s, cpu s)
JOBS = [
    ("select_tasks", "", [], [f"{W}/tasks.csv"], "select_tasks", 5.0, 4.0),
    ("predict", "task=a", [], [f"{W}/predictions/a.json"], "predict/a", 10.0, 9.0),
    ("predict", "task=b", [], [f"{W}/predictions/b.json"], "predict/b", 30.0, 20.0),
    ("score", "task=a", [f"{W}/predictions/a.json"], [f"{W}/metrics/a.csv"], "score/a", 1.0, 1.0),
    ("score", "task=b", [f"{W}/predictions/b.json"], [f"{W}/metrics/b.csv"], "score/b", 2.0, 1.5),
    ("collect", "", [f"{W}/metrics/a.csv", f"{W}/metrics/b.csv", f"{W}/tasks.csv"], [f"{W}/metrics.csv"],
     "collect", 3.0, 2.0),
    ("figure_data", "", [f"{W}/tasks.csv"], [f"{W}/fig.csv"], "figure_data", 20.0, 19.0),
]


def _block(rule, wc, inputs, outputs, bench):
    lines = [f"localrule {rule}:"] if rule != "select_tasks" else [f"localcheckpoint {rule}:"]
    if inputs:
        lines.append(f"    input: {', '.join(inputs)}")
    lines += [f"    output: {', '.join(outputs)}", f"    benchmark: {W}/benchmarks/{bench}.tsv", "    jobid: 1"]
    if wc:
        lines.append(f"    wildcards: {wc}")
    return "[Tue Nov 24 01:01:15 2026]\n" + "\n".join(lines) + "\n    resources: tmpdir=/tmp\n"


@pytest.fixture
def study(tmp_path):
    root = tmp_path
    (root / W / "predictions").mkdir(parents=True)
    pd.DataFrame({"task_id": ["a", "b"]}).to_csv(root / W / "tasks.csv", index=False)
    for _, _, _, _, bench, s, cpu in JOBS:
        f = root / W / "benchmarks" / f"{bench}.tsv"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(f"s\th:m:s\tmax_rss\tcpu_time\n{s}\t0:00:{int(s):02d}\t100\t{cpu}\n")
    log = root / "run.snakemake.log"
    log.write_text("Provided cores: 2\n" + "".join(_block(*j[:5]) for j in JOBS) + "Finished jobid: 1\n")
    timings = {"a": (150, {"gnb": (0.1, 0.05), "rf": (1.0, 0.2)}), "b": (5000, {"gnb": (0.3, 0.1), "rf": (4.0, 0.5)})}
    for task, (n, learners) in timings.items():
        st = {"task_id": task, "status": "ok", "n": n,
              "learner_seconds": {k: f + s for k, (f, s) in learners.items()},
              "learner_cpu_seconds": {k: f + s for k, (f, s) in learners.items()},
              "learner_phase_seconds": {k: {"fit_s": f, "score_s": s, "fit_cpu_s": f, "score_cpu_s": s}
                                        for k, (f, s) in learners.items()}}
        (root / W / "predictions" / f"{task}.json").write_text(json.dumps(st))
    return root, log


def test_stage_sums_and_shares(study):
    root, _ = study
    df = bs.stages(bs.benchmarks("s", root)).set_index("stage")
    assert df.loc["predict", "jobs"] == 2 and df.loc["predict", "job_s"] == 40.0 and df.loc["predict", "cpu_s"] == 29.0
    assert df.loc["score", "job_s"] == 3.0 and df.loc["select_tasks", "jobs"] == 1
    assert df["share"].sum() == pytest.approx(1.0)
    assert df.loc["predict", "share"] == pytest.approx(40.0 / sum(j[5] for j in JOBS))


def test_critical_path_is_the_longest_of_all_paths(study):
    root, log = study
    jobs, cores, span = bs.study_jobs("s", [log])
    assert cores == 2 and len(jobs) == len(JOBS) and span == 0.0  # one timestamp only
    bench = bs.benchmarks("s", root)
    seconds = dict(zip(bench["bench"], bench["s"], strict=True))
    length, chain = bs.critical_path(jobs, seconds)
    # oracle: every chain of jobs in which each is an input of the next, enumerated
    out_of = {o: i for i, j in enumerate(JOBS) for o in j[3]}
    edges = {(out_of[p], i) for i, j in enumerate(JOBS) for p in j[2]}
    best = 0.0
    for r in range(1, len(JOBS) + 1):
        for perm in itertools.permutations(range(len(JOBS)), r):
            if all((a, b) in edges for a, b in itertools.pairwise(perm)):
                best = max(best, sum(JOBS[i][5] for i in perm))
    assert length == best == 35.0  # predict b, score b, collect (select_tasks + figure_data is 25)
    assert [name for name, _ in chain] == ["predict[task=b]", "score[task=b]", "collect"]
    text = bs.report("s", root, [log], top=2)
    assert "critical path is 35 s" in text and "max(critical path, job-seconds / 2) = 36 s" in text


def test_learner_table_medians_per_size_bin(study):
    root, _ = study
    per = bs.learners("s", root)
    assert len(per) == 4
    t = bs.top_learners(per, 1).set_index("learner")
    assert list(t.index) == ["rf"]  # 5.7 CPU seconds against gnb's 0.55
    assert t.loc["rf", "share"] == pytest.approx(5.7 / 6.25)
    assert t.loc["rf", "fit_share"] == pytest.approx(5.0 / 5.7)
    assert t.loc["rf", "n 0-299 (1 tasks)"] == f"{np.median([1.0]):.3g}/{np.median([0.2]):.3g}"
    assert t.loc["rf", "n 3,000-9,999 (1 tasks)"] == "4/0.5"


def test_modelled_schedule_by_hand_and_at_the_extremes(study):
    """The greedy schedule of the synthetic study (``schedule``), worked by hand on 2 cores: select_tasks
    0-5 and predict a 0-10; predict b 5-35; score a 10-11; figure_data 11-31; score b 35-37; collect
    37-40.  One core is the sum of the jobs, enough cores the critical path; the report prints both."""
    root, log = study
    jobs, _, _ = bs.study_jobs("s", [log])
    bench = bs.benchmarks("s", root)
    seconds = dict(zip(bench["bench"], bench["s"], strict=True))
    assert bs.schedule(jobs, seconds, 2) == 40.0
    assert bs.schedule(jobs, seconds, 1) == sum(j[5] for j in JOBS) == 71.0
    assert bs.schedule(jobs, seconds, 7) == bs.critical_path(jobs, seconds)[0] == 35.0
    text = bs.report("s", root, [log], top=2, model_cores=(1, 2))
    assert "1 cores 71 s, 2 cores 40 s; unlimited cores: the critical path, 35 s" in text


def test_modelled_schedule_within_grahams_bounds_on_random_graphs():
    """On random job graphs a greedy list schedule of single-core jobs on c cores finishes no sooner than
    max(critical path, work / c) and no later than (work - critical path) / c + critical path (Graham 1966,
    the bound of any list schedule); a job graph of one chain takes its sum on any number of cores."""
    rng = np.random.default_rng(0)
    for trial in range(200):
        n = int(rng.integers(1, 40))
        secs = rng.exponential(10.0, n).round(2)
        jobs = []
        for i in range(n):
            parents = [k for k in range(i) if rng.random() < 3.0 / (i + 1)]
            jobs.append({"rule": "r", "wildcards": f"i={i}", "input": [f"o{k}" for k in parents],
                         "output": [f"o{i}"], "benchmark": f"b{i}", "threads": 1, "resources": {}})
        seconds = {f"b{i}": float(s) for i, s in enumerate(secs)}
        work, cp = float(secs.sum()), bs.critical_path(jobs, seconds)[0]
        for c in (1, 2, 3, 8):
            t = bs.schedule(jobs, seconds, c)
            assert max(cp, work / c) - 1e-9 <= t <= (work - cp) / c + cp + 1e-9, (trial, c, t, cp, work)
    chain = [{"rule": "r", "wildcards": "", "input": [f"o{i - 1}"] if i else [], "output": [f"o{i}"],
              "benchmark": f"b{i}", "threads": 1, "resources": {}} for i in range(5)]
    assert bs.schedule(chain, {f"b{i}": 2.0 for i in range(5)}, 16) == 10.0


def test_modelled_schedule_keeps_the_openml_connection_cap():
    """Fetch jobs that each take 4 of the 4 OpenML connections the profile allows run one at a time on any
    number of cores (the loopback study of docs/benchmarks.md), two at a time at 2 connections each, and
    without the cap as many as there are cores; a job asking for more than the cap is refused by name."""
    jobs = [{"rule": "predict", "wildcards": f"task={i}", "input": [], "output": [f"p{i}"], "benchmark": f"b{i}",
             "threads": 1, "resources": {"openml_connections": 4}} for i in range(8)]
    seconds = {f"b{i}": 10.0 for i in range(8)}
    assert bs.schedule(jobs, seconds, 16, limits={"openml_connections": 4}) == 80.0
    assert bs.schedule(jobs, seconds, 16) == 10.0
    half = [{**j, "resources": {"openml_connections": 2}} for j in jobs]
    assert bs.schedule(half, seconds, 16, limits={"openml_connections": 4}) == 40.0
    with pytest.raises(ValueError, match="more cores or resources"):
        bs.schedule(jobs, seconds, 2, limits={"openml_connections": 3})


def test_log_blocks_give_threads_and_numeric_resources():
    text = ("[Tue Nov 24 01:01:15 2026]\nlocalrule predict:\n    output: a\n    jobid: 3\n    threads: 2\n"
            "    resources: tmpdir=/tmp, runtime=120, openml_connections=4, mem_mb=4000, mem=4 GB\n")
    (job,), _ = bs.parse_log(text)
    assert job["threads"] == 2
    assert job["resources"] == {"runtime": 120, "openml_connections": 4, "mem_mb": 4000}
