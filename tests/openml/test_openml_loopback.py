"""The paper-scale loopback OpenML (tests/openml_loopback.py) and the faults of a study at scale.

* the world has the paper's shape (886 binary 10-fold tasks on 426 datasets, >= 30 flows each,
  dataset sizes with median 1,000 rows, a tenth over 10,000, a few over 100,000) and the server
  answers with the live listing rules; its predictions files read the same with liac-arff (the
  client's own parser) as with prspace's parser;
* a study killed (SIGKILL) at a random point while fetching and restarted downloads no finished
  file twice, leaves no corrupt cache entry (SHA-256 of every cached file against the server's) and
  ends with the same tables as an uninterrupted run;
* a server refusing or dropping 5 % of requests costs retries, not tasks;
* a task whose runs changed between two runs of a study is named (``changed_tasks``);
* the largest task, 100,000 rows x 30 runs, is fetched and written within a stated memory bound.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import arff  # liac-arff: the openml client's own parser, an independent oracle
import numpy as np
import pandas as pd
import pytest
import requests

sys.path.insert(0, str(Path(__file__).parents[1]))
from openml_loopback import ERROR, NOFILE, OK, LoopbackOpenML, make_world  # noqa: E402
from openml_server import guard_loopback  # noqa: E402
from prspace.core.schema import read_predictions  # noqa: E402
from prspace.openml import ClientSettings, fetch_task  # noqa: E402
from prspace.openml.manifest import changed_tasks  # noqa: E402
from prspace.openml.predictions_arff import parse_predictions_arff  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(300)


def _small_world(seed: int = 3):
    # 12 qualifying tasks + 4 decoys on 8 datasets of about 300 rows: a study in seconds
    return make_world(seed=seed, n_datasets=8, n_tasks=12, n_decoys=4, median_rows=300, sigma=0.3)


def test_world_has_the_papers_shape_and_the_live_listing_rules(monkeypatch):
    w = make_world()
    q = w.task_qualifies
    assert q.sum() == 886 and len(w.ds_rows) == 426
    assert set(w.task_ds[q]) == set(range(1, 427))  # every dataset carries a qualifying task
    rows = w.ds_rows
    assert abs(np.median(rows) - 1000) <= 50
    assert 0.08 <= (rows > 10_000).mean() <= 0.12
    assert 2 <= (rows > 100_000).sum() <= 5
    good = w.run_kind == OK
    for tid in w.task_ids[q]:
        idx = w.runs_of_task[int(tid)]
        assert len(set(w.run_flow[idx][good[idx]])) >= 30
    assert (w.run_kind == NOFILE).sum() > 100 and (w.run_kind == ERROR).sum() > 100 and (w.run_kind >= 3).sum() > 100
    assert max(len(v) for v in w.runs_of_task.values()) > 1000  # some listings need several pages
    guard_loopback(monkeypatch)
    with LoopbackOpenML(w) as srv:
        big = next(t for t, v in w.runs_of_task.items() if len(v) > 1000)
        r = requests.get(f"{srv.url}/run/list/task/{big}/limit/1001/offset/0", timeout=30)
        assert r.status_code == 412 and "<oml:code>516</oml:code>" in r.text
        r = requests.get(f"{srv.url}/run/list/task/{big}", timeout=30)
        assert r.status_code == 412 and "<oml:code>513</oml:code>" in r.text
        r = requests.get(f"{srv.url}/task/list/type/1/limit/1000/offset/1000/number_classes/2", timeout=30)
        assert r.ok and r.text.count("<oml:task>") == len(w.task_ids) - 1000
        # one predictions file of each layout reads the same with liac-arff and prspace's parser
        t = int(w.task_ids[q][0])
        idx = w.runs_of_task[t]
        for style in range(3):
            rid = int(next(w.run_ids[i] for i in idx if w.run_kind[i] == OK and w.run_flow[i] % 3 == style))
            body = requests.get(f"{srv.base}/data/download/{rid}/x.arff", timeout=30).content
            ours = parse_predictions_arff(body)
            d = arff.loads(body.decode())
            names = [a[0] for a in d["attributes"]]
            ref = pd.DataFrame(d["data"], columns=names)
            for c, v in ours.confidence.items():
                np.testing.assert_array_equal(v, ref[f"confidence.{c}"].to_numpy(float))
            np.testing.assert_array_equal(ours.row_id, ref["row_id"].to_numpy(float))


# --------------------------------------------------------------------------- a study driver

DRIVER = r"""
import sys
from prspace.cli import main
server, cache, out, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
common = ["--server", server, "--cache-dir", cache]
assert main(["fetch-openml", "select", *common, "--discover", "--max-tasks", n, "--out", out + "/tasks.csv"]) == 0
import pandas as pd
tasks = pd.read_csv(out + "/tasks.csv")
for t in tasks.loc[tasks["selected"], "openml_task_id"]:
    st = f"{out}/openml-{t}.json"
    assert main(["fetch-openml", "task", *common, "--task-id", str(t), "--workers", "4", "--backoff", "0.01",
                 "--timeout", "10", "--out", f"{out}/openml-{t}.parquet", "--status", st]) == 0
"""


def _drive(srv: LoopbackOpenML, cache: Path, out: Path, n: int) -> subprocess.Popen:
    out.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([sys.executable, "-c", DRIVER, srv.url, str(cache), str(out), str(n)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))


def _tables(out: Path) -> tuple[pd.DataFrame, dict]:
    frames, runs = [], {}
    for st in sorted(out.glob("openml-*.json")):
        s = json.loads(st.read_text())
        runs[s["task_id"]] = [(r["run_id"], r["sha256"]) for r in s.get("runs") or []]
        if s["status"] == "ok":
            frames.append(read_predictions(s["predictions"])[0])
    return pd.concat(frames, ignore_index=True), runs


def _manifest(out: Path) -> dict:
    _, runs = _tables(out)
    return {"tasks": [{"task_id": t, "runs": [{"run_id": r, "flow_id": 0, "sha256": h} for r, h in rs]}
                      for t, rs in runs.items()]}


def _check_cache(srv: LoopbackOpenML, cache: Path) -> int:
    """Every cached predictions file is byte for byte the server's; every JSON entry parses."""
    n = 0
    for p in cache.rglob("run-*.arff"):
        rid = int(p.stem.split("-")[1])
        assert hashlib.sha256(p.read_bytes()).hexdigest() == hashlib.sha256(srv.content.predictions(rid)).hexdigest(), p
        n += 1
    for p in cache.rglob("*.json"):
        json.loads(p.read_text())
    return n


@pytest.mark.slow
def test_killed_study_resumes_without_downloading_twice_and_equals_an_uninterrupted_run(tmp_path):
    w = _small_world()
    n = 6
    with LoopbackOpenML(w) as srv:
        ref = _drive(srv, tmp_path / "cache-ref", tmp_path / "ref", n)
        assert ref.wait(timeout=240) == 0, ref.stderr.read()[-3000:]
        total = srv.count
        assert max(srv.file_downloads().values()) == 1  # the uninterrupted run fetches each file once

        srv.reset_count()
        # SIGKILL at a random point of the fetch: after a seeded random number of requests
        kill_at = int(np.random.default_rng(7).integers(int(0.3 * total), int(0.8 * total)))
        cache = tmp_path / "cache"
        p = _drive(srv, cache, tmp_path / "run", n)
        while srv.count < kill_at and p.poll() is None:
            time.sleep(0.005)
        assert p.poll() is None, "the study ended before the kill; raise the kill point"
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        before = srv.file_downloads()
        on_disk = {int(x.stem.split("-")[1]) for x in cache.rglob("run-*.arff")}
        assert 0 < len(on_disk) and _check_cache(srv, cache) == len(on_disk)

        q = _drive(srv, cache, tmp_path / "run", n)
        assert q.wait(timeout=240) == 0, q.stderr.read()[-3000:]
        after = srv.file_downloads() - before
        # no file finished before the kill is downloaded again; at most the ones in flight (4 workers)
        assert not set(after) & on_disk, sorted(set(after) & on_disk)
        twice = [f for f, k in (before + after).items() if k > 1]
        assert len(twice) <= 4, twice
        _check_cache(srv, cache)

    a, ra = _tables(tmp_path / "ref")
    b, rb = _tables(tmp_path / "run")
    assert ra == rb and len(ra) == n
    pd.testing.assert_frame_equal(a, b)


def test_five_percent_refused_or_dropped_requests_cost_retries_not_tasks(tmp_path, caplog, monkeypatch):
    guard_loopback(monkeypatch)
    w = _small_world(seed=5)
    tids = [int(t) for t in w.task_ids[w.task_qualifies][:4]]
    results = {}
    for rate in (0.0, 0.05):
        with LoopbackOpenML(w, fail_rate=rate, fail_kind="mixed", fail_seed=1) as srv:
            s = ClientSettings(server=srv.url, cache_dir=tmp_path / f"c{rate}", backoff=0.01, timeout=10,
                               max_retries=5, workers=4)
            with caplog.at_level(logging.WARNING, logger="prspace.openml"):
                caplog.clear()
                res = [fetch_task(s, t, n_models=30, seed=0) for t in tids]
            results[rate] = res
            if rate:
                assert srv.failures["refuse"] > 0 and srv.failures["drop"] > 0, srv.failures
                retries = [r for r in caplog.records if "retrying" in r.getMessage()]
                assert len(retries) >= sum(srv.failures.values()) * 0.9  # each failure is retried (logged)
    for a, b in zip(results[0.0], results[0.05], strict=True):
        assert a.status == b.status == "ok"
        assert a.runs == b.runs
        pd.testing.assert_frame_equal(a.predictions, b.predictions)


def test_a_task_whose_runs_changed_between_two_runs_is_named(tmp_path, monkeypatch):
    guard_loopback(monkeypatch)
    w = _small_world(seed=6)
    tids = [int(t) for t in w.task_ids[w.task_qualifies][:3]]

    def draw(srv, cache):
        s = ClientSettings(server=srv.url, cache_dir=cache, backoff=0.01, timeout=10)
        out = {"tasks": []}
        for t in tids:
            r = fetch_task(s, t, n_models=30, seed=0)
            out["tasks"].append({"task_id": r.task_id, "runs": r.run_details})
        return out

    with LoopbackOpenML(w) as srv:
        first = draw(srv, tmp_path / "a")
        assert changed_tasks(first, draw(srv, tmp_path / "b")) == []  # same server, same draw
        drawn = first["tasks"][1]["runs"][0]["run_id"]
        w.gone.add(drawn)  # a drawn run is deleted, and the task gains flows
        w.add_flows(tids[1], 5)
        srv.content.run.cache_clear()
        second = draw(srv, tmp_path / "c")
    lines = changed_tasks(first, second)
    assert len(lines) == 1 and lines[0].startswith(f"task openml-{tids[1]}:"), lines
    assert f"{drawn} (flow" in lines[0] and "no longer drawn" in lines[0]


@pytest.mark.slow
def test_largest_task_100000_rows_by_30_runs_within_the_memory_bound(tmp_path, monkeypatch):
    """One 100,000-row task x 30 runs through ``prspace fetch-openml task`` (fetch, check, write the
    parquet) in a child process whose peak resident memory must stay under BOUND_MB; the workflow's
    predict rule declares mem_mb=4000."""
    bound_mb = 2500
    w = make_world(seed=1, n_datasets=1, n_tasks=1, n_decoys=0, median_rows=100_000, sigma=0.0)
    assert w.ds_rows[0] == 100_000
    code = ("import resource, sys; from prspace.cli import main; rc = main(sys.argv[1:]); "
            "print('MAXRSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024); sys.exit(rc)")
    with LoopbackOpenML(w) as srv:
        t = int(w.task_ids[0])
        res = subprocess.run(
            [sys.executable, "-c", code, "fetch-openml", "task", "--server", srv.url, "--cache-dir",
             str(tmp_path / "cache"), "--task-id", str(t), "--out", str(tmp_path / "t.parquet"),
             "--status", str(tmp_path / "t.json")],
            capture_output=True, text=True, timeout=280, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert res.returncode == 0, res.stderr[-3000:]
    peak = int(res.stdout.split("MAXRSS")[1].split()[0])
    df, info = read_predictions(tmp_path / "t.parquet")
    assert info.n == 100_000 and info.n_models == 30 and len(df) == 3_000_000
    print(f"largest task: 100,000 rows x 30 runs, peak RSS {peak} MB (bound {bound_mb} MB)")
    assert peak < bound_mb, f"peak RSS {peak} MB over the bound {bound_mb} MB"
