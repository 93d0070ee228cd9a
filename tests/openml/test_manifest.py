"""The OpenML study manifest (prspace.openml.manifest): built from the statuses and the task list, read
back and checked, replayed; what `prspace fetch-openml manifest` / `--manifest` call."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from prspace.core.contracts import TaskStatus
from prspace.core.errors import InputError
from prspace.openml.manifest import (
    KIND,
    build_manifest,
    manifest_runs,
    read_manifest,
    replay_task_rows,
    study_table,
)

SERVER = "https://www.openml.org/api/v1/xml"
RUN = {"run_id": 1, "flow_id": 7, "flow_name": "weka.J48", "sha256": "ab", "extra": "dropped"}


def _statuses() -> list[TaskStatus]:
    return [
        TaskStatus("openml-3", "ok", predictions="p.parquet", extra={"openml_task_id": 3, "runs": [RUN, RUN | {"run_id": 2}],
                                                                    "replaced_runs": [{"run_id": 9}]}),
        TaskStatus("openml-4", "skipped", reason="too few flows"),
        TaskStatus("openml-5", "ok", predictions="q.parquet", extra={"openml_task_id": 5, "runs": [RUN]}),
    ]


def _listed() -> pd.DataFrame:
    return pd.DataFrame({"task_id": ["openml-3", "openml-4"], "dataset_id": [31, 32], "dataset_name": ["credit", "x"],
                         "n": pd.array([1000, 20], dtype="Int64"), "n_pos": pd.array([300, 2], dtype="Int64"),
                         "pi": [0.3, 0.1], "family": ["credit", None]})


def test_manifest_lists_the_tasks_with_predictions_and_counts_the_rest(tmp_path):
    m, counts = build_manifest(_statuses(), _listed(), server=SERVER, client="openml-python 0.15", version="1.0",
                               created_at="2026-01-01T00:00:00+00:00", seed=3)
    assert counts == {"tasks": 2, "skipped": 1, "replaced": 1, "models": 3}
    assert m["kind"] == KIND and m["seed"] == 3 and m["replayed_from"] is None
    first, second = m["tasks"]
    assert first["task_id"] == "openml-3" and first["openml_task_id"] == 3 and first["dataset_id"] == 31
    assert first["n"] == 1000 and isinstance(first["n"], int) and first["pi"] == 0.3 and first["family"] == "credit"
    assert first["runs"][0] == {k: RUN[k] for k in ("run_id", "flow_id", "flow_name", "sha256")}
    # a task missing from the task list keeps its ids and runs, its dataset fields empty
    assert second["dataset_id"] is None and second["dataset_name"] == "" and second["family"] == ""
    # written, read back and replayed
    path = tmp_path / "m.json"
    path.write_text(json.dumps(m))
    back = read_manifest(path, SERVER + "/")
    rows = replay_task_rows(back, path)
    assert rows["task_id"].tolist() == ["openml-3", "openml-5"] and rows["n_runs"].tolist() == [2, 1]
    assert rows["selected"].all() and (rows["source"] == "openml").all() and "runs" not in rows.columns
    assert rows["reason"].iloc[0] == f"ok (replay of {path}, drawn 2026-01-01T00:00:00+00:00)"
    assert [r["run_id"] for r in manifest_runs(back, "openml-3", path)] == [1, 2]
    with pytest.raises(InputError, match="has no task openml-9; it lists openml-3, openml-5"):
        manifest_runs(back, "openml-9", path)
    table = study_table(counts, server=SERVER, client="openml-python 0.15", out=str(path), seed=3,
                        downsampling=False).set_index("item")["value"]
    assert table["tasks with predictions"] == 2 and table["runs replaced (broken or without predictions)"] == 1
    assert table["draw"] == f"fresh draw (seed 3); frozen in {path}"
    assert table["Boyd downsampling (section 4.3)"].startswith("disabled in the config; left out")


def test_a_bad_manifest_is_refused_naming_the_key(tmp_path):
    with pytest.raises(InputError, match="no manifest at .*openml.replay"):
        read_manifest(tmp_path / "none.json", SERVER)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InputError, match="is not a manifest JSON"):
        read_manifest(bad, SERVER)
    bad.write_text(json.dumps({"server": SERVER}))
    with pytest.raises(InputError, match="no server/tasks"):
        read_manifest(bad, SERVER)
    bad.write_text(json.dumps({"server": "https://test.openml.org", "tasks": []}))
    with pytest.raises(InputError, match="set config key openml.server to https://test.openml.org"):
        read_manifest(bad, SERVER)
    with pytest.raises(InputError, match="lists no task"):
        replay_task_rows({"tasks": []}, bad)


def test_a_service_failure_is_one_line_naming_the_action_and_exits_1(monkeypatch, capsys):
    import prspace.cli.fetch_openml as F
    from prspace.cli import main
    from prspace.core.errors import ServiceError

    def fail(args):
        raise ServiceError("server answered 503 to GET /task/list; try again later")

    monkeypatch.setattr(F, "run_select", fail)
    code = main(["fetch-openml", "select", "--server", SERVER, "--cache-dir", "c", "--out", "x.csv"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and err == ["prspace fetch-openml select: error: server answered 503 to GET /task/list; "
                                 "try again later"]


def test_changes_cli_names_the_tasks_whose_draw_changed(tmp_path, capsys):
    from prspace.cli import main

    def manifest(runs: dict[str, list[tuple[int, int, str]]]) -> dict:
        return {"server": SERVER, "tasks": [{"task_id": t, "runs": [{"run_id": r, "flow_id": f, "sha256": h}
                                                                     for r, f, h in rs]} for t, rs in runs.items()]}

    before = {"openml-3": [(1, 10, "a"), (2, 11, "b")], "openml-5": [(7, 12, "c")], "openml-8": [(9, 13, "d")]}
    after = {"openml-3": [(1, 10, "a"), (4, 14, "e")], "openml-5": [(7, 12, "CHANGED")], "openml-8": [(9, 13, "d")],
             "openml-9": [(5, 15, "f")]}
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(manifest(before)))
    b.write_text(json.dumps(manifest(after)))
    assert main(["fetch-openml", "changes", str(a), str(a)]) == 0
    assert "the same draw: 3 task(s)" in capsys.readouterr().out
    assert main(["fetch-openml", "changes", str(a), str(b)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("3 task(s) changed between")
    assert "task openml-3: runs no longer drawn: 2 (flow 11); runs newly drawn: 4 (flow 14)" in out[1]
    assert "task openml-5: predictions file changed: runs 7" in out[2]
    assert "task openml-9: drawn after, not before" in out[3] and len(out) == 4  # openml-8 is unchanged
    (tmp_path / "bad.json").write_text("{}")
    assert main(["fetch-openml", "changes", str(a), str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.json is not a prspace OpenML manifest" in err[0] and "second argument" in err[0]
