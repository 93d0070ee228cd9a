"""prspace.openml against a loopback OpenML server, with the real openml client.

The server (tests/openml_server.py) answers in OpenML's formats from fixtures made
here; it counts requests and injects faults.  Oracles: liac-arff (the parser the
openml client itself uses) for the scores, the generated labels for y_true, and
the schema validator.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

import arff  # liac-arff, the openml client's own parser: an independent oracle
import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))
from openml_server import FakeOpenML, Run, guard_loopback, make_task, predictions_arff  # noqa: E402
from prspace.core.errors import InputError  # noqa: E402
from prspace.core.schema import read_predictions, validate_predictions, write_predictions  # noqa: E402
from prspace.openml import (  # noqa: E402
    ClientSettings,
    OpenMLNetworkError,
    fetch_task,
    select_tasks,
)

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    guard_loopback(monkeypatch)


def settings(srv: FakeOpenML, cache: Path, **kw) -> ClientSettings:
    kw.setdefault("backoff", 0.01)
    kw.setdefault("timeout", 5.0)
    kw.setdefault("max_retries", 3)
    return ClientSettings(server=srv.url, cache_dir=cache, **kw)


def liac_scores(body: bytes, positive: str) -> pd.DataFrame:
    d = arff.loads(body.decode())
    df = pd.DataFrame(d["data"], columns=[a[0] for a in d["attributes"]])
    return df[["repeat", "row_id", f"confidence.{positive}"]].rename(columns={f"confidence.{positive}": "score"})


def test_fetch_30_models_matches_oracles_and_warm_cache_is_silent(tmp_path):
    t = make_task(201, n_flows=34, n_rows=60)
    with FakeOpenML([t]) as srv:
        st = settings(srv, tmp_path)
        res = fetch_task(st, 201, n_models=30, min_flows=30, seed=0)
        assert res.status == "ok", res.reason
        assert res.n_models == 30 and res.replaced_runs == []
        assert res.http_requests == srv.count > 30

        df = validate_predictions(res.predictions, res.task_info)
        info = res.task_info
        # positive = minority class; labels agree with the generated dataset
        assert info.positive_class == "pos.y z" and info.n == 60 and info.n_pos == int((t.y == 1).sum())
        assert info.n_pos < info.n - info.n_pos
        first = df[df.model_id == df.model_id.iloc[0]].sort_values("row_id")
        np.testing.assert_array_equal(first["y_true"].to_numpy(), t.y == 1)
        np.testing.assert_array_equal(first["fold"].to_numpy(), t.folds[0])
        # 30 distinct flows, each model one of the task's runs of that flow
        assert df.groupby("model_id")["flow_id"].first().nunique() == 30
        runs = {r.run_id: r for r in t.runs}
        for mid, g in df.groupby("model_id"):
            r = runs[int(mid.removeprefix("run-"))]
            assert g["flow_id"].iloc[0] == str(r.flow_id) and g["flow_name"].iloc[0] == r.flow_name
            # scores = confidence.<positive> as liac-arff reads the same file
            ref = liac_scores(r.arff, "pos.y z").sort_values("row_id")
            np.testing.assert_allclose(g.sort_values("row_id")["score"].to_numpy(), ref["score"].to_numpy(), rtol=0, atol=0)
        assert info.provenance.startswith(srv.url) and "openml-python" in info.provenance
        assert info.n_folds == 10 and info.n_repeats == 1

        # warm cache: same result, zero HTTP requests
        srv.reset_count()
        again = fetch_task(st, 201, n_models=30, min_flows=30, seed=0)
        assert srv.count == 0 and again.http_requests == 0
        pd.testing.assert_frame_equal(again.predictions.reset_index(drop=True), res.predictions.reset_index(drop=True))

        # the seed decides the draw
        other = fetch_task(st, 201, n_models=30, min_flows=30, seed=1)
        assert set(other.runs) != set(res.runs)
        path = tmp_path / "out.parquet"
        write_predictions(res.predictions, info, path)
        back, info2 = read_predictions(path)
        assert info2 == info and len(back) == 30 * 60


def _broken_world() -> tuple[FakeOpenML, dict[str, int]]:
    t = make_task(301, n_flows=10, n_rows=50, runs_per_flow=1)
    by_flow = {r.flow_id: r for r in t.runs}
    bad: dict[str, int] = {}
    # an error message in the listing: never downloaded
    by_flow[1000].error_message = "java.lang.OutOfMemoryError"
    bad["error"] = by_flow[1000].run_id
    # no predictions file (openml-python #309)
    by_flow[1001].arff = None
    bad["nofile"] = by_flow[1001].run_id
    # NaN ('?') scores of the positive class on two rows
    lines = by_flow[1002].arff.decode().splitlines()
    k = lines.index("@DATA") + 3
    for j in (k, k + 1):
        f = lines[j].split(",")
        f[3] = f[4] = "?"
        lines[j] = ",".join(f)
    by_flow[1002].arff = ("\n".join(lines) + "\n").encode()
    bad["nan"] = by_flow[1002].run_id
    # a duplicated row
    lines = by_flow[1003].arff.decode().splitlines()
    lines[-1] = lines[-2]
    by_flow[1003].arff = ("\n".join(lines) + "\n").encode()
    bad["dup"] = by_flow[1003].run_id
    # a file truncated on the server (consistent Content-Length, rows missing)
    body = by_flow[1004].arff
    by_flow[1004].arff = body[: body.rindex(b"\n", 0, int(len(body) * 0.6)) + 1]
    bad["trunc"] = by_flow[1004].run_id
    return FakeOpenML([t]), bad


def test_broken_runs_are_replaced_with_named_reasons(tmp_path, caplog):
    srv, bad = _broken_world()
    with srv, caplog.at_level(logging.WARNING, logger="prspace.openml"):
        # all 10 flows are needed except the one with an error: draw 4 so replacements happen
        res = fetch_task(settings(srv, tmp_path), 301, n_models=5, min_flows=5, seed=3)
        assert res.status == "ok", res.reason
        paths = list(srv.paths)
    used = {int(m.removeprefix("run-")) for m in res.predictions["model_id"].unique()}
    assert used.isdisjoint(bad.values())
    assert f"/api/v1/xml/run/{bad['error']}" not in paths  # error runs are not even described
    reasons = {r["run_id"]: r["reason"] for r in res.replaced_runs}
    # every broken run that was drawn is named with its reason
    expect = {"nofile": "no predictions file", "nan": "NaN", "dup": "duplicate row_id", "trunc": "missing row_id"}
    drawn = [k for k in expect if bad[k] in reasons]
    assert drawn, reasons
    for k in drawn:
        assert expect[k] in reasons[bad[k]], reasons[bad[k]]
        assert f"run {bad[k]}" in caplog.text and "replaced" in caplog.text
    assert res.task_info.notes.startswith(f"{len(reasons)} run(s) replaced")


def test_all_broken_kinds_replaced_when_every_flow_is_needed(tmp_path):
    srv, bad = _broken_world()
    with srv:
        res = fetch_task(settings(srv, tmp_path), 301, n_models=5, min_flows=5, seed=0)
        full = fetch_task(settings(srv, tmp_path), 301, n_models=6, min_flows=5, seed=0)
    assert res.status == "ok"
    # 9 error-free flows, 4 broken -> exactly 5 usable: asking for 6 is a skip, not an error
    assert full.status == "skipped" and "only 5 usable flows" in full.reason
    reasons = {r["run_id"]: r["reason"] for r in full.replaced_runs}
    assert set(reasons) == {bad["nofile"], bad["nan"], bad["dup"], bad["trunc"]}
    assert "row_id(s)" in reasons[bad["nan"]] and "confidence.pos.y z" in reasons[bad["nan"]]


def test_too_few_flows_is_skipped_not_fatal(tmp_path, caplog):
    t = make_task(401, n_flows=4)
    with FakeOpenML([t]) as srv, caplog.at_level(logging.WARNING, logger="prspace.openml"):
        res = fetch_task(settings(srv, tmp_path), 401, n_models=30, min_flows=30)
        assert res.status == "skipped" and res.predictions is None
        assert "4 flows" in res.reason and "needs 30" in res.reason
        assert "task openml-401 skipped" in caplog.text
        # nothing but metadata and the listing was requested
        assert not any("/data/download/" in p for p in srv.paths)


@pytest.mark.parametrize("where", ["run/list", "data/download", r"run/\d+$"])
def test_http_500_html_then_success(tmp_path, caplog, where):
    t = make_task(501, n_flows=6)
    with FakeOpenML([t]) as srv, caplog.at_level(logging.WARNING, logger="prspace.openml"):
        srv.fault(where, "500", times=2)
        res = fetch_task(settings(srv, tmp_path), 501, n_models=5, min_flows=5)
        assert res.status == "ok"
        assert all(f[2] == 0 for f in srv.faults)  # both faults were served
    assert "HTTP 500" in caplog.text and "retrying" in caplog.text


def test_stalled_response_times_out_and_is_retried(tmp_path, caplog):
    t = make_task(502, n_flows=6)
    with FakeOpenML([t]) as srv, caplog.at_level(logging.WARNING, logger="prspace.openml"):
        srv.stall_seconds = 2.0
        srv.fault("data/download", "stall", times=1)
        srv.fault("task/502", "stall", times=1)  # a client (openml) call stalls too
        res = fetch_task(settings(srv, tmp_path, timeout=0.5), 502, n_models=5, min_flows=5)
        assert res.status == "ok"
    assert caplog.text.count("timed out") == 2


def test_truncated_body_is_retried_and_never_kept(tmp_path, caplog):
    t = make_task(503, n_flows=6)
    with FakeOpenML([t]) as srv, caplog.at_level(logging.WARNING, logger="prspace.openml"):
        srv.fault("data/download", "truncate", times=3)
        res = fetch_task(settings(srv, tmp_path), 503, n_models=5, min_flows=5)
        assert res.status == "ok" and res.replaced_runs == []
    assert "truncated" in caplog.text
    # every cached predictions file is complete (compare with what the server holds)
    served = {f"run-{r.run_id}.arff": r.arff for r in t.runs}
    cached = list(tmp_path.rglob("run-*.arff"))
    assert len(cached) == 5
    for p in cached:
        assert p.read_bytes() == served[p.name]
    assert not list(tmp_path.rglob("*.part"))


def test_an_interrupted_download_resumes_from_the_bytes_kept(tmp_path):
    """A body cut off half way is kept (``.partial``); the retry asks for the rest (``Range: bytes=N-``), the
    server answers 206 and the file is whole; a server without ranges (200) sends it again, also whole; a
    process that finds the partial file locked by another downloads its own copy."""
    import fcntl

    from prspace.openml.client import download, partial_path

    t = make_task(504, n_flows=6)
    body = t.runs[0].arff
    with FakeOpenML([t]) as srv:
        url = f"{srv.base}/data/download/{t.runs[0].file_id}/predictions.arff"
        dest = tmp_path / "a" / "run.arff"
        srv.fault("data/download", "truncate", times=1)
        with pytest.raises(OpenMLNetworkError, match="truncated"):
            download(url, dest, "run 1", settings(srv, tmp_path, max_retries=0))
        kept = partial_path(dest).read_bytes()
        assert not dest.exists() and 0 < len(kept) < len(body) and body.startswith(kept)
        download(url, dest, "run 1", settings(srv, tmp_path, max_retries=0))  # the rerun
        assert dest.read_bytes() == body and not partial_path(dest).exists()
        assert srv.ranges == [(f"/data/download/{t.runs[0].file_id}/predictions.arff", len(kept))]
        assert not list(dest.parent.glob(".*"))  # no partial or lock file left behind

        dest2 = tmp_path / "b" / "run.arff"  # a stale partial that is not the file's prefix: 200 restarts it
        partial_path(dest2).parent.mkdir(parents=True)
        partial_path(dest2).write_bytes(b"x" * (len(body) + 5))
        download(url, dest2, "run 1", settings(srv, tmp_path, max_retries=1))  # 416, dropped, then whole
        assert dest2.read_bytes() == body

        dest3 = tmp_path / "c" / "run.arff"  # another process holds the partial file: our own copy
        dest3.parent.mkdir()
        with open(partial_path(dest3).with_name(partial_path(dest3).name + ".lock"), "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            download(url, dest3, "run 1", settings(srv, tmp_path))
        assert dest3.read_bytes() == body and not partial_path(dest3).exists()


def test_unrecoverable_failure_keeps_downloads_and_resume_fetches_only_the_rest(tmp_path):
    t = make_task(601, n_flows=8)
    with FakeOpenML([t]) as srv:
        st = settings(srv, tmp_path, max_retries=2, workers=2)
        # one predictions file keeps failing: the run dies after the others finished
        victim = t.runs[3]
        srv.fault(f"/data/download/{victim.file_id}/", "500", times=100)
        with pytest.raises(OpenMLNetworkError, match=r"predictions of run \d+ \(http[^)]*\): HTTP 500.*gave up after 3 attempts.*rerun to resume"):
            fetch_task(st, 601, n_models=8, min_flows=8)
        done = {p.name for p in tmp_path.rglob("run-*.arff")}
        assert len(done) == 7 and f"run-{victim.run_id}.arff" not in done
        srv.faults.clear()
        srv.reset_count()
        res = fetch_task(st, 601, n_models=8, min_flows=8)
        assert res.status == "ok"
        downloads = [p for p in srv.paths if p.startswith("/data/download/")]
        assert downloads == [f"/data/download/{victim.file_id}/predictions_run_{victim.run_id}.arff"]
        assert not any(p.startswith("/api/") for p in srv.paths)  # metadata all cached


def test_labels_from_dataset_when_no_correct_column_and_repeats(tmp_path):
    # 2 x 10-fold CV; every run written mlr-style (no `correct` column)
    t = make_task(701, n_flows=4, n_rows=40, procedure=9, classes=("b", "a"), minority=0)
    for r in t.runs:
        rng = np.random.default_rng(r.run_id)
        scores = {rep: np.round(rng.random(40), 4) for rep in range(2)}
        r.arff = predictions_arff(t, scores, "mlr", rng=rng)
    with FakeOpenML([t]) as srv:
        st = settings(srv, tmp_path)
        res = fetch_task(st, 701, n_models=4, min_flows=4)
        assert res.status == "ok", res.reason
        assert any("/data/download/" in p and "dataset_" in p for p in srv.paths)
        allr = fetch_task(st, 701, n_models=4, min_flows=4, repeats="all")
    df, info = res.predictions, res.task_info
    assert set(df["repeat"]) == {0} and info.n_repeats == 1
    assert info.positive_class == "b"  # minority: class index 0 is "b"
    first = df[df.model_id == df.model_id.iloc[0]].sort_values("row_id")
    np.testing.assert_array_equal(first["y_true"].to_numpy(), t.y == 0)
    assert set(allr.predictions["repeat"]) == {0, 1} and allr.task_info.n_repeats == 2
    validate_predictions(allr.predictions, allr.task_info)


def test_tied_classes_positive_is_the_one_sorting_last(tmp_path):
    t = make_task(801, n_flows=3, n_rows=40, classes=("yes", "no"))
    t.y[:] = 0
    t.y[:20] = 1
    for r in t.runs:
        rng = np.random.default_rng(r.run_id)
        r.arff = predictions_arff(t, {0: np.round(rng.random(40), 3)}, "weka", rng=rng)
    with FakeOpenML([t]) as srv:
        res = fetch_task(settings(srv, tmp_path), 801, n_models=3, min_flows=3)
    assert res.task_info.positive_class == "yes" and res.task_info.n_pos == 20


def test_unknown_task_is_an_input_error(tmp_path):
    with FakeOpenML([make_task(901, n_flows=2)]) as srv:
        with pytest.raises(InputError, match="task 999 is not on"):
            fetch_task(settings(srv, tmp_path), 999)


def test_bad_server_url_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="not an http"):
        ClientSettings(server="www.openml.org", cache_dir=tmp_path)
    with pytest.raises(InputError, match="/api/"):
        ClientSettings(server="http://127.0.0.1:1/", cache_dir=tmp_path)


def test_select_by_ids_tag_suite_study_and_discovery(tmp_path):
    good = make_task(1001, n_flows=6, tags=("study_14",))
    few = make_task(1002, n_flows=2, tags=("study_14",))
    multi = make_task(1003, n_flows=6, n_classes=3)
    holdout = make_task(1004, n_flows=6, procedure=2)  # 5 x 2-fold: not 10-fold CV
    many_runs = make_task(1005, n_flows=7, runs_per_flow=3, tags=("study_14",))
    many_runs.runs[0].error_message = "failed"
    with FakeOpenML([good, few, multi, holdout, many_runs]) as srv:
        srv.studies["OpenML-TEST"] = ("task", [1001, 1002])
        srv.studies["7"] = ("run", [1004, 1005])
        st = settings(srv, tmp_path)
        by_id = {c.openml_task_id: c for c in select_tasks(st, task_ids=[1001, 1002, 1003, 1004, 1005, 4242], min_flows=5)}
        assert by_id[1001].selected and by_id[1001].n_flows == 6 and by_id[1001].dataset_name == "data-1001"
        assert not by_id[1002].selected and "2 flows" in by_id[1002].reason
        assert not by_id[1003].selected and "3 classes" in by_id[1003].reason
        assert not by_id[1004].selected and "10-fold" in by_id[1004].reason
        assert by_id[1005].selected and by_id[1005].n_flows == 7 and by_id[1005].n_runs == 21
        assert not by_id[4242].selected and "not found" in by_id[4242].reason

        tag = select_tasks(st, tag="study_14", min_flows=5)
        assert [(c.openml_task_id, c.selected) for c in tag] == [(1001, True), (1002, False), (1005, True)]
        suite = select_tasks(st, suite="OpenML-TEST", min_flows=5)
        assert [c.openml_task_id for c in suite if c.selected] == [1001]
        study = select_tasks(st, study="7", min_flows=5)
        assert [c.openml_task_id for c in study if c.selected] == [1005]
        disc = select_tasks(st, discover=True, min_flows=5)
        assert [c.openml_task_id for c in disc if c.selected] == [1001, 1005]
        assert 1003 not in {c.openml_task_id for c in disc}  # filtered by the server (number_classes/2)
        ho = next(c for c in disc if c.openml_task_id == 1004)  # rejected from the listing alone
        assert not ho.selected and "10-fold" in ho.reason and ho.dataset_name == "data-1004"
        assert "5 times 2-fold" in ho.estimation_procedure
        one = select_tasks(st, discover=True, min_flows=5, max_tasks=1, seed=0)
        assert sum(c.selected for c in one) == 1
        srv.reset_count()
        select_tasks(st, discover=True, min_flows=5)
        assert srv.count == 0  # warm cache
        with pytest.raises(InputError, match="suite 'nope' not found"):
            select_tasks(st, suite="nope")
        with pytest.raises(InputError, match="no tasks to select"):
            select_tasks(st)


def test_run_listing_pages_and_falls_back_to_flow_by_flow(tmp_path, monkeypatch, caplog):
    t = make_task(1101, n_flows=6, runs_per_flow=2)
    with FakeOpenML([t], page_limit=5) as srv:
        res = fetch_task(settings(srv, tmp_path / "a", page_size=5), 1101, n_models=6, min_flows=6)
        assert res.status == "ok"  # pages at offsets 5 and 10 complete the listing
        assert sum("run/list" in p for p in srv.paths) == 3
        # a large offset times out: the flows of the first page are completed flow by flow
        srv.fault("offset/5/", "500", times=100)
        with caplog.at_level(logging.WARNING, logger="prspace.openml"):
            res = fetch_task(settings(srv, tmp_path / "b", max_retries=1, page_size=5), 1101, n_models=3, min_flows=3)
        assert res.status == "ok"
        flow_calls = [p for p in srv.paths if "run/list" in p and "/flow/" in p]
        assert len(flow_calls) == 3  # runs 1..5 of the listing belong to flows 1000-1002
        assert {int(m[-3:]) for m in res.predictions.flow_id.unique()} == {0, 1, 2}
        assert "#1528" in caplog.text


def test_interrupted_run_tolerates_leftover_temp_files(tmp_path):
    t = make_task(1201, n_flows=5)
    with FakeOpenML([t]) as srv:
        st = settings(srv, tmp_path)
        res = fetch_task(st, 1201, n_models=5, min_flows=5)
        # simulate a crash mid-write: a stray temp file and a missing final file
        files = sorted(tmp_path.rglob("run-*.arff"))
        files[0].rename(files[0].with_name("." + files[0].name + ".abc.part"))
        srv.reset_count()
        again = fetch_task(st, 1201, n_models=5, min_flows=5)
        assert again.runs == res.runs
        assert [p for p in srv.paths] == [f"/data/download/{next(r.file_id for r in t.runs if f'run-{r.run_id}.arff' == files[0].name)}/"
                                          f"{files[0].name.replace('run-', 'predictions_run_')}"]


def test_run_without_input_data_in_description_still_works(tmp_path):
    # a run whose task listing has an extra unrelated run of another task: ignored
    t = make_task(1301, n_flows=3)
    other = make_task(1302, n_flows=1)
    with FakeOpenML([t, other]) as srv:
        srv.add_run(Run(999_999, 1302, 77, "x", other.runs[0].arff))
        res = fetch_task(settings(srv, tmp_path), 1301, n_models=3, min_flows=3)
    assert res.status == "ok" and all(m.startswith("run-1301") for m in res.predictions.model_id.unique())


def test_run_whose_description_is_gone_is_replaced(tmp_path):
    t = make_task(1401, n_flows=4)
    gone = t.runs[0].run_id
    with FakeOpenML([t]) as srv:
        srv.fault(f"/api/v1/xml/run/{gone}$", "gone", times=100)
        res = fetch_task(settings(srv, tmp_path), 1401, n_models=3, min_flows=3, seed=0)
        full = fetch_task(settings(srv, tmp_path), 1401, n_models=4, min_flows=3, seed=0)
    assert res.status == "ok"
    assert full.status == "skipped"
    assert any(r["run_id"] == gone and "code 220" in r["reason"] for r in full.replaced_runs)


def test_no_results_412_answers_are_empty_not_errors(tmp_path):
    t = make_task(1501, n_flows=0)
    with FakeOpenML([t]) as srv:
        st = settings(srv, tmp_path)
        res = fetch_task(st, 1501, n_models=3, min_flows=3)
        assert res.status == "skipped" and res.reason.startswith("0 flows")
        assert select_tasks(st, tag="no-such-tag") == []
        codes = [p for p in srv.paths if "run/list" in p or "task/list" in p]
        assert len(codes) == 2  # one listing each, answered 412 (512 / 482), not retried


def test_killed_process_resumes_without_redownloading(tmp_path):
    """Kill `prspace fetch-openml task` mid-run; the rerun fetches only what was unfinished."""
    import os
    import subprocess
    import time

    t = make_task(1601, n_flows=6)
    victim = t.runs[-1]
    with FakeOpenML([t]) as srv:
        srv.stall_seconds = 60.0
        srv.fault(f"/data/download/{victim.file_id}/", "stall", times=1)
        cache = tmp_path / "cache"
        cmd = [sys.executable, "-m", "prspace", "fetch-openml", "task", "--server", srv.url,
               "--cache-dir", str(cache), "--task-id", "1601", "--n-models", "6", "--min-flows", "6",
               "--timeout", "90", "--out", str(tmp_path / "x.parquet"), "--status", str(tmp_path / "x.json")]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy())
        try:
            deadline = time.monotonic() + 90
            while len(list(cache.rglob("run-*.arff"))) < 5 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert len(list(cache.rglob("run-*.arff"))) == 5
            time.sleep(0.3)
        finally:
            proc.kill()
            proc.wait(timeout=30)
        assert not (tmp_path / "x.parquet").exists()
        srv.faults.clear()
        srv.reset_count()
        res = fetch_task(settings(srv, cache), 1601, n_models=6, min_flows=6)
        assert res.status == "ok"
        assert srv.paths == [f"/data/download/{victim.file_id}/predictions_run_{victim.run_id}.arff"]


def test_live_listing_rules_a_task_of_more_than_1000_runs_pages_at_1000(tmp_path):
    t = make_task(1401, n_flows=34, runs_per_flow=30, n_rows=40)  # 1,020 runs
    with FakeOpenML([t]) as srv:
        st = settings(srv, tmp_path)
        cands = select_tasks(st, task_ids=[1401], min_flows=30)
        assert cands[0].selected
        res = fetch_task(st, 1401, n_models=30, min_flows=30)
        assert res.status == "ok"
        lists = [p for p in srv.paths if "/run/list/" in p]
        assert lists and all("/limit/1000/" in p for p in lists)  # never above the cap or without a limit
        assert any("/offset/1000/" in p for p in lists)  # the fetch read past the first page
        # the draw saw every flow: a run listing capped at 1,000 would miss none of the 34
        assert {r["flow_id"] for r in res.run_details} <= {r.flow_id for r in t.runs}


def test_limit_too_high_516_halves_the_page_size(tmp_path, caplog):
    t = make_task(1402, n_flows=8, runs_per_flow=40, n_rows=30)  # 320 runs
    with FakeOpenML([t], page_limit=300) as srv:
        with caplog.at_level(logging.WARNING, logger="prspace.openml"):
            res = fetch_task(settings(srv, tmp_path), 1402, n_models=8, min_flows=8)
        assert res.status == "ok"
        assert "code 516" in caplog.text and "paging with 500" in caplog.text
        assert any("/limit/250/offset/250/" in p for p in srv.paths)
    with FakeOpenML([t], page_limit=10) as srv:  # a cap below what we go down to: one clear line
        with pytest.raises(OpenMLNetworkError, match=r"refuses even 50 rows a call \(code 516\); lower config key openml.page_size"):
            fetch_task(settings(srv, tmp_path / "b"), 1402, n_models=8, min_flows=8)


def test_the_loopback_server_answers_513_and_515_as_the_live_one(tmp_path):
    import requests

    t = make_task(1403, n_flows=3, runs_per_flow=400, n_rows=20)  # 1,200 runs
    with FakeOpenML([t]) as srv:
        r = requests.get(f"{srv.url}/run/list/task/1403", timeout=5)
        assert r.status_code == 412 and b"<oml:code>513</oml:code>" in r.content
        r = requests.get(f"{srv.url}/run/list/task/1403/offset/5", timeout=5)
        assert r.status_code == 412 and b"<oml:code>515</oml:code>" in r.content
        r = requests.get(f"{srv.url}/run/list/task/1403/limit/1001", timeout=5)
        assert r.status_code == 412 and b"<oml:code>516</oml:code>" in r.content


def test_replay_draws_the_manifest_runs_and_fails_when_a_file_changed(tmp_path):
    from prspace.openml import ReplayMismatch

    t = make_task(1404, n_flows=8, n_rows=40)
    with FakeOpenML([t]) as srv:
        res = fetch_task(settings(srv, tmp_path / "a"), 1404, n_models=5, min_flows=5)
        replay = [{k: r[k] for k in ("run_id", "flow_id", "sha256")} for r in res.run_details]
        srv.reset_count()
        again = fetch_task(settings(srv, tmp_path / "b"), 1404, n_models=5, min_flows=5, replay=replay)
        assert again.runs == res.runs and not [p for p in srv.paths if "/list/" in p]
        pd.testing.assert_frame_equal(again.predictions, res.predictions)
        # the server's file of one drawn run changes: a replay on a fresh cache fails in one line
        victim = next(r for r in t.runs if r.run_id == res.runs[2])
        srv.files[victim.file_id] = (srv.files[victim.file_id][0], victim.arff.replace(b"% generated", b"% changed!"))
        with pytest.raises(ReplayMismatch, match=rf"run {victim.run_id} has changed .*unset openml.replay"):
            fetch_task(settings(srv, tmp_path / "c"), 1404, n_models=5, min_flows=5, replay=replay)


def test_selfcheck_compares_like_with_like_and_names_the_cause():
    from prspace.openml.selfcheck import compare_task, summarize

    t = make_task(1405, n_flows=3, n_rows=50)
    rows = []
    for r in t.runs[:2]:
        d = arff.loads(r.arff.decode())
        df = pd.DataFrame(d["data"], columns=[a[0] for a in d["attributes"]])
        rows.append(pd.DataFrame({"task_id": "openml-1405", "model_id": f"run-{r.run_id}", "repeat": df["repeat"].astype(int),
                                  "fold": df["fold"].astype(int), "row_id": df["row_id"].astype(int),
                                  "y_true": df["correct"] == "pos.y z", "score": df["confidence.pos.y z"]}))
    preds = pd.concat(rows, ignore_index=True)
    runs = [{"run_id": r.run_id, "flow_id": r.flow_id, "server_auroc": round(r.auroc, 6),
             "server_fold_auroc": {f"{a}:{b}": round(v, 6) for (a, b), v in r.fold_auroc.items()}} for r in t.runs[:2]]
    runs[1]["server_auroc"] = round(1 - t.runs[1].auroc, 6)  # the server scored the other class
    checks = compare_task(preds, runs, task_repeats=1)
    assert len(checks) == 2 * 11
    ok = checks[checks.model_id == f"run-{t.runs[0].run_id}"]
    assert ok["agrees"].all() and ok["abs_diff"].max() <= 5.1e-7
    bad = checks[~checks["agrees"]]
    assert len(bad) == 1 and bad.iloc[0]["scope"] == "overall" and "other class" in bad.iloc[0]["likely_cause"]
    s = summarize(checks).set_index("statistic")["value"]
    assert s["runs compared"] == 2 and s["runs differing by more than 0.0001"] == 1
    # repeats not all fetched: the overall value is not compared, the folds are
    assert set(compare_task(preds, runs, task_repeats=10)["scope"]) == {"fold"}


def test_a_client_hanging_up_leaves_stderr_to_the_cli(capsys):
    """A client that resets a kept-alive connection is ordinary traffic for a server: the
    fake must not print socketserver's dashed traceback into the stream where the CLI
    tests read the command's one-line error (it did, once, under load)."""
    import socket
    import struct

    with FakeOpenML([make_task(2301, n_flows=1)]) as srv:
        host, port = srv.base.removeprefix("http://").split(":")
        for _ in range(5):
            s = socket.create_connection((host, int(port)))
            s.sendall(b"GET /api/v1/xml/task/2301 HTTP/1.1\r\nHost: x\r\n\r\n")
            s.recv(1)  # the response has started: the handler now waits on the kept-alive socket
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()  # RST, not FIN: the handler's next read raises ConnectionResetError
        time.sleep(0.3)
    assert capsys.readouterr().err == ""
    assert srv.handler_errors == []
