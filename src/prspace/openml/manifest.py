"""The OpenML study manifest (``results/<study>/openml-manifest.json``): what a study drew, frozen.

``prspace fetch-openml manifest`` writes it after a study (:func:`build_manifest`, and the table
saying what the study is, :func:`study_table`); ``openml.replay`` (``--manifest``) replays it
with no listing call: ``select`` lists its tasks (:func:`replay_task_rows`) and ``task`` draws
the runs it names (:func:`manifest_runs`).  :func:`read_manifest` checks the file and the
server it was drawn from; every problem is an :class:`~prspace.core.errors.InputError` naming the
config key and the fix.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from prspace.core.errors import InputError

__all__ = ["KIND", "build_manifest", "changed_tasks", "manifest_runs", "read_manifest", "replay_task_rows", "study_table"]

#: The manifest's ``kind`` field.
KIND = "prspace OpenML study manifest"
#: Fields of each run of a task in the manifest.
RUN_FIELDS = ("run_id", "flow_id", "flow_name", "sha256")


def load_manifest(path: str | Path, *, key: str = "openml.replay") -> dict:
    """The manifest at ``path``, checked: a JSON object with ``server`` and a ``tasks`` list (``key``: the
    config key or option that named it, for the error)."""
    try:
        m = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"no manifest at {path}; check {key}") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} is not a manifest JSON ({exc}); check {key}") from None
    if not isinstance(m, dict) or not isinstance(m.get("tasks"), list) or "server" not in m:
        raise InputError(f"{path} is not a prspace OpenML manifest (no server/tasks); check {key}")
    return m


def read_manifest(path: str | Path, server: str) -> dict:
    """The manifest at ``path``, checked (:func:`load_manifest`) and drawn from ``server`` (trailing
    slashes ignored)."""
    m = load_manifest(path, key="config key openml.replay (option --manifest)")
    if m["server"].rstrip("/") != server.rstrip("/"):
        raise InputError(f"manifest {path} was drawn from {m['server']} but the server is {server}; "
                         f"set config key openml.server to {m['server']} to replay it")
    return m


def replay_task_rows(manifest: Mapping[str, Any], path: str | Path) -> pd.DataFrame:
    """The task list of a replay: every task of the manifest, selected, with its runs counted
    (``n_flows``, ``n_runs``) and the reason naming the manifest; not yet validated."""
    rows = [{k: v for k, v in t.items() if k != "runs"} | {
        "selected": True, "reason": f"ok (replay of {path}, drawn {manifest.get('created_at', '?')})",
        "n_flows": len(t["runs"]), "n_runs": len(t["runs"])} for t in manifest["tasks"]]
    if not rows:
        raise InputError(f"manifest {path} lists no task; remake it or unset openml.replay")
    return pd.DataFrame(rows).assign(source="openml")


def manifest_runs(manifest: Mapping[str, Any], task_id: str, path: str | Path) -> list[dict]:
    """The runs the manifest lists for ``task_id`` (``openml-<id>``)."""
    entry = next((t for t in manifest["tasks"] if t.get("task_id") == task_id), None)
    if entry is None:
        raise InputError(f"manifest {path} has no task {task_id}; it lists "
                         f"{', '.join(t.get('task_id', '?') for t in manifest['tasks'][:8])}")
    return entry["runs"]


def _value(row: pd.Series | None, col: str) -> Any:
    v = None if row is None else row.get(col)
    return None if v is None or pd.isna(v) else (v.item() if hasattr(v, "item") else v)


def build_manifest(statuses: Sequence[Any], listed: pd.DataFrame, *, server: str, client: str, version: str,
                   created_at: str, seed: int, replayed_from: str | None = None) -> tuple[dict, dict[str, int]]:
    """The manifest of a study from the status of every task (:class:`prspace.core.contracts.TaskStatus`,
    in the order given) and its task list ``listed``: one entry per task with predictions (its ids,
    dataset, size, skew, family and runs), and counts ``tasks``, ``skipped``, ``replaced`` (runs
    replaced at fetch) and ``models``."""
    listed = listed.set_index("task_id")
    tasks, n_skipped, replaced = [], 0, 0
    for st in statuses:
        if st.status != "ok":
            n_skipped += 1
            continue
        replaced += len(st.get("replaced_runs") or [])
        row = listed.loc[st.task_id] if st.task_id in listed.index else None
        tasks.append({
            "task_id": st.task_id, "openml_task_id": st.get("openml_task_id"),
            "dataset_id": _value(row, "dataset_id"), "dataset_name": _value(row, "dataset_name") or "",
            "n": _value(row, "n"), "n_pos": _value(row, "n_pos"), "pi": _value(row, "pi"),
            "family": _value(row, "family") or "",
            "runs": [{k: r[k] for k in RUN_FIELDS} for r in st.get("runs") or []],
        })
    manifest = {"kind": KIND, "server": server, "client": client, "prspace": version, "created_at": created_at,
                "seed": seed, "replayed_from": replayed_from, "tasks": tasks}
    counts = {"tasks": len(tasks), "skipped": n_skipped, "replaced": replaced,
              "models": sum(len(t["runs"]) for t in tasks)}
    return manifest, counts


def study_table(counts: Mapping[str, int], *, server: str, client: str, out: str, seed: int,
                replayed_from: str | None = None, downsampling: bool = True) -> pd.DataFrame:
    """``item, value``: what this OpenML study is -- its source and draw, the counts of
    :func:`build_manifest`, and which of Boyd et al.'s experiments ran on it (downsampling never:
    it needs raw features)."""
    down = ("left out: it retrains learners on downsampled training folds, which needs each dataset's raw "
            "features; OpenML runs carry predictions only (use source local)")
    return pd.DataFrame([
        ("source", f"OpenML runs from {server} via {client}"),
        ("draw", f"replay of manifest {replayed_from}" if replayed_from else f"fresh draw (seed {seed}); frozen in {out}"),
        ("tasks with predictions", counts["tasks"]),
        ("tasks skipped at fetch", counts["skipped"]),
        ("models", counts["models"]),
        ("runs replaced (broken or without predictions)", counts["replaced"]),
        ("Boyd fold skew (section 4.1)", "run on the fetched predictions"),
        ("Boyd aggregation over tasks (section 4.2)", "run on the fetched predictions"),
        ("Boyd downsampling (section 4.3)", down if downsampling else "disabled in the config; " + down),
    ], columns=["item", "value"])


def changed_tasks(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """One line per task whose draw differs between two manifests of the same study (e.g. a run
    interrupted and resumed, or the same config run twice while the server gained or lost runs):
    tasks drawn in one only, runs drawn in one only (run and flow ids), and runs whose predictions
    file changed (SHA-256).  Empty when the two draws are the same."""
    def runs(m: Mapping[str, Any]) -> dict[str, dict[int, dict]]:
        return {t["task_id"]: {int(r["run_id"]): r for r in t["runs"]} for t in m.get("tasks", [])}

    a, b = runs(before), runs(after)
    out = []
    for tid in sorted(set(a) | set(b)):
        if tid not in b:
            out.append(f"task {tid}: drawn before, not after (skipped or gone)")
            continue
        if tid not in a:
            out.append(f"task {tid}: drawn after, not before")
            continue
        parts = []
        only_a, only_b = sorted(set(a[tid]) - set(b[tid])), sorted(set(b[tid]) - set(a[tid]))
        if only_a:
            parts.append("runs no longer drawn: " + ", ".join(f"{r} (flow {a[tid][r]['flow_id']})" for r in only_a))
        if only_b:
            parts.append("runs newly drawn: " + ", ".join(f"{r} (flow {b[tid][r]['flow_id']})" for r in only_b))
        changed = sorted(r for r in set(a[tid]) & set(b[tid]) if a[tid][r].get("sha256") != b[tid][r].get("sha256"))
        if changed:
            parts.append("predictions file changed: runs " + ", ".join(str(r) for r in changed))
        if not parts and list(a[tid]) != list(b[tid]):
            parts.append("same runs, drawn in another order")
        if parts:
            out.append(f"task {tid}: " + "; ".join(parts))
    return out
