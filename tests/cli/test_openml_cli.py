"""``prspace fetch-openml select|task`` against the loopback OpenML server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))
from openml_server import FakeOpenML, guard_loopback, make_task  # noqa: E402
from prspace.cli import main  # noqa: E402
from prspace.core.schema import read_predictions  # noqa: E402

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    guard_loopback(monkeypatch)


def _args(srv: FakeOpenML, cache: Path) -> list[str]:
    return [
        "--server",
        srv.url,
        "--cache-dir",
        str(cache),
        "--backoff",
        "0.01",
        "--max-retries",
        "2",
        "--timeout",
        "5",
    ]


def test_select_writes_the_task_table(tmp_path, capsys):
    tasks = [make_task(2001, n_flows=5, tags=("t1",)), make_task(2002, n_flows=2, tags=("t1",))]
    out = tmp_path / "tasks.csv"
    with FakeOpenML(tasks) as srv:
        rc = main(
            [
                "fetch-openml",
                "select",
                *_args(srv, tmp_path / "c"),
                "--tag",
                "t1",
                "--task-ids",
                "2001,7777",
                "--min-flows",
                "5",
                "--out",
                str(out),
            ]
        )
    assert rc == 0
    df = pd.read_csv(out)
    assert {"task_id", "openml_task_id", "dataset_name", "n_flows", "selected", "reason"} <= set(
        df.columns
    )
    assert df["task_id"].tolist() == ["openml-2001", "openml-2002", "openml-7777"]
    assert df["selected"].tolist() == [True, False, False]
    assert df.loc[0, "dataset_name"] == "data-2001" and df.loc[0, "n_flows"] == 5
    assert "1 of 3 task(s) selected" in capsys.readouterr().err


def test_task_ok_skipped_and_warm(tmp_path, capsys):
    tasks = [make_task(2101, n_flows=6), make_task(2102, n_flows=2)]
    with FakeOpenML(tasks) as srv:
        base = [
            "fetch-openml",
            "task",
            *_args(srv, tmp_path / "c"),
            "--n-models",
            "5",
            "--min-flows",
            "5",
            "--seed",
            "0",
        ]
        out, status = tmp_path / "w" / "openml-2101.parquet", tmp_path / "w" / "openml-2101.json"
        assert main([*base, "--task-id", "2101", "--out", str(out), "--status", str(status)]) == 0
        st = json.loads(status.read_text())
        assert st["task_id"] == "openml-2101" and st["status"] == "ok" and st["n_models"] == 5
        assert (
            st["predictions"] == str(out)
            and st["replaced_runs"] == []
            and st["http_requests"] == srv.count
        )
        assert st["seconds"] >= 0
        df, info = read_predictions(out)
        assert (
            info.task_id == "openml-2101" and info.n_models == 5 and df["model_id"].nunique() == 5
        )
        err = capsys.readouterr().err
        assert "openml-2101 ok" in err and "HTTP request(s)" in err

        srv.reset_count()
        assert main([*base, "--task-id", "2101", "--out", str(out), "--status", str(status)]) == 0
        assert json.loads(status.read_text())["http_requests"] == 0 and srv.count == 0

        out2, status2 = tmp_path / "w" / "openml-2102.parquet", tmp_path / "w" / "openml-2102.json"
        assert main([*base, "--task-id", "2102", "--out", str(out2), "--status", str(status2)]) == 0
        st2 = json.loads(status2.read_text())
        assert (
            st2["status"] == "skipped" and "2 flows" in st2["reason"] and st2["predictions"] is None
        )
        assert not out2.exists()


def test_task_network_failure_exits_nonzero_and_keeps_cache(tmp_path, capsys):
    t = make_task(2201, n_flows=5)
    with FakeOpenML([t]) as srv:
        srv.fault("/data/download/", "500", times=1000)
        status = tmp_path / "s.json"
        rc = main(
            [
                "fetch-openml",
                "task",
                *_args(srv, tmp_path / "c"),
                "--task-id",
                "2201",
                "--n-models",
                "5",
                "--min-flows",
                "5",
                "--out",
                str(tmp_path / "x.parquet"),
                "--status",
                str(status),
            ]
        )
    assert rc == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        err[-1].startswith("prspace fetch-openml task: error: predictions of run")
        and "rerun to resume" in err[-1]
    )
    st = json.loads(status.read_text())
    assert st["status"] == "failed" and st["predictions"] is None
    assert not (tmp_path / "x.parquet").exists()
    assert list((tmp_path / "c").rglob("runs/*.json"))  # run descriptions stay cached


def test_bad_server_url_is_one_line_exit_2(tmp_path, capsys):
    rc = main(["fetch-openml", "task", "--server", "openml.org", "--cache-dir", str(tmp_path), "--task-id", "1",
               "--out", str(tmp_path / "x.parquet"), "--status", str(tmp_path / "s.json")])
    assert rc == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "is not an http(s) URL" in lines[0] and "Traceback" not in err
    assert lines[0].startswith("prspace fetch-openml: error: server 'openml.org'")
    status = json.loads((tmp_path / "s.json").read_text())
    assert status["status"] == "failed" and "not an http(s) URL" in status["reason"]


def test_unknown_task_is_one_line_exit_2(tmp_path, capsys):
    with FakeOpenML([make_task(2301, n_flows=2)]) as srv:
        rc = main(["fetch-openml", "task", *_args(srv, tmp_path / "c"), "--task-id", "2399",
                   "--out", str(tmp_path / "x.parquet"), "--status", str(tmp_path / "s.json")])
    assert rc == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[-1].startswith("prspace fetch-openml: error: OpenML task 2399 is not on http://127.0.0.1:")
    assert "Unknown task (code 151)" in lines[-1]


def test_select_without_network_is_one_line_with_exit_1(tmp_path, capsys):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    rc = main(["fetch-openml", "select", "--server", f"http://127.0.0.1:{port}/api/v1/xml",
               "--cache-dir", str(tmp_path / "c"), "--max-retries", "1", "--backoff", "0",
               "--discover", "--out", str(tmp_path / "t.csv")])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 1 and len(err) == 1, err
    assert err[0].startswith("prspace fetch-openml select: error: task list (discovery")
    assert "connection failed" in err[0] and "rerun to resume" in err[0] and "Traceback" not in err[0]
    assert not (tmp_path / "t.csv").exists()


def test_select_refused_by_the_server_names_request_code_and_fix(tmp_path, capsys):
    t = make_task(2101, n_flows=3, runs_per_flow=10)
    with FakeOpenML([t], page_limit=10) as srv:
        rc = main(["fetch-openml", "select", *_args(srv, tmp_path / "c"), "--task-ids", "2101",
                   "--min-flows", "3", "--out", str(tmp_path / "t.csv")])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 1 and len(err) == 1, err
    assert "run list of task 2101" in err[0] and "code 516" in err[0] and "openml.page_size" in err[0]
