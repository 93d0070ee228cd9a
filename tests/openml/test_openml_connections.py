"""The politeness cap across processes (:mod:`prspace.openml.connections`, issue 60, Deliver 4).

Several ``prspace fetch-openml task`` processes, each with its own pool of download threads, fetch
their tasks at once from the loopback OpenML; the server counts the requests it is answering at any
moment. However many processes and threads there are, it never answers more than ``--workers`` at
once, and the tasks' fetches overlap in time (the cap does not serialise them).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))
from openml_loopback import LoopbackOpenML, make_world  # noqa: E402
from prspace.openml.connections import ConnectionSlots  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(300)
CLI = "import sys; from prspace.cli import main; sys.exit(main(sys.argv[1:]))"


def test_threads_never_hold_more_slots_than_the_cap(tmp_path):
    slots = ConnectionSlots(tmp_path / "slots", 3)
    lock = threading.Lock()
    now, most = [0], [0]

    def work() -> None:
        for _ in range(15):
            with slots.hold():
                with lock:
                    now[0] += 1
                    most[0] = max(most[0], now[0])
                time.sleep(0.002)
                with lock:
                    now[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] <= 3
    assert most[0] >= 2  # eight threads asking, three slots: they are used side by side
    assert sorted(p.name for p in (tmp_path / "slots").iterdir()) == ["slot-0", "slot-1", "slot-2"]


def test_a_slot_of_a_killed_process_is_free_again(tmp_path):
    """The kernel drops a dead process's flock: a job killed mid-request keeps no slot."""
    code = ("import sys, time; from prspace.openml.connections import ConnectionSlots; "
            "s = ConnectionSlots(sys.argv[1], 1); fd = s.acquire(); print('held', flush=True); time.sleep(60)")
    p = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "slots")], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    try:
        assert p.stdout.readline().strip() == "held"
        slots = ConnectionSlots(tmp_path / "slots", 1)
        assert slots._try() is None  # held by the other process
    finally:
        p.kill()
        p.wait()
    fd = slots._try()
    assert fd is not None
    slots.release(fd)


def _task_of(world, path: str) -> int | None:
    """The task a run description or predictions-file request belongs to (None for other requests)."""
    import re

    m = re.search(r"/run/(\d+)$", path)
    if m is None:
        return None
    rid = int(m[1])
    idx = (world.run_ids == rid).nonzero()[0]
    return int(world.run_task[idx[0]]) if len(idx) else None


def test_several_fetch_processes_stay_within_the_cap_and_overlap(tmp_path):
    cap = 2
    world = make_world(seed=5, n_datasets=6, n_tasks=6, n_decoys=0, median_rows=200, sigma=0.2)
    tasks = [int(t) for t in world.task_ids[world.task_qualifies][:3]]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with LoopbackOpenML(world, latency=0.03) as srv:
        srv.reset_count()
        procs = [subprocess.Popen(
            [sys.executable, "-c", CLI, "fetch-openml", "task", "--server", srv.url, "--cache-dir",
             str(tmp_path / "cache"), "--task-id", str(t), "--workers", str(cap), "--backoff", "0.01",
             "--out", str(tmp_path / f"{t}.parquet"), "--status", str(tmp_path / f"{t}.json")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env) for t in tasks]
        errs = [p.communicate(timeout=280)[1] for p in procs]
        spans = list(srv.spans)
        most = srv.max_in_flight
    assert [p.returncode for p in procs] == [0, 0, 0], errs
    assert len(spans) > 3 * 60  # 30 run descriptions and 30 predictions files a task, and more
    assert most <= cap, f"{most} requests in flight at once; the cap is {cap}"
    assert most == cap  # 3 processes x 2 threads asking: the cap is reached, not undercut
    # the three tasks' run descriptions: their times overlap (the processes fetch side by side)
    window: dict[int, list[float]] = {}
    for t0, t1, path in spans:
        tid = _task_of(world, path)
        if tid is not None:
            w = window.setdefault(tid, [t0, t1])
            w[0], w[1] = min(w[0], t0), max(w[1], t1)
    assert sorted(window) == sorted(tasks)
    overlapping = sum(1 for a in tasks for b in tasks if a < b
                      and window[a][0] < window[b][1] and window[b][0] < window[a][1])
    assert overlapping >= 1, window
