"""``prspace fetch-openml``: select OpenML tasks and fetch their predictions.

``prspace fetch-openml select ... --out tasks.csv`` writes the task list (prspace.core.contracts);
``prspace fetch-openml task ... --out X.parquet --status X.json`` fetches one task (with
``--metrics-out M.csv --folds-out F.csv`` it then scores it in the same process: step ``score``);
``prspace fetch-openml manifest --status *.json ... --out manifest.json`` freezes the draw;
``prspace fetch-openml selfcheck --status *.json ...`` compares our AUROC with the server's.
With ``--manifest M``, select and task replay a manifest with no listing call.
Exit status: 0 ok (and skipped tasks); 2 user error (one line); 1 the server kept failing or
refused a request (one line naming the request, the server's code and message, what to do).
See docs/openml.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import sys
import time
from pathlib import Path

import prspace
from prspace.cli.step import add_score_outputs, score_outputs
from prspace.core._io import atomic_path
from prspace.core.contracts import (
    TaskStatus,
    read_status,
    read_task_list,
    validate_task_list,
    write_status,
    write_task_list,
)
from prspace.core.errors import InputError, ServiceError
from prspace.core.output import write_csv, write_markdown
from prspace.core.schema import write_predictions
from prspace.openml import (
    ClientSettings,
    OpenMLNetworkError,
    candidates_frame,
    fetch_task,
    select_tasks,
)
from prspace.openml.manifest import (
    build_manifest,
    changed_tasks,
    load_manifest,
    manifest_runs,
    read_manifest,
    replay_task_rows,
    study_table,
)
from prspace.openml.selfcheck import check_statuses, summarize

log = logging.getLogger("prspace.fetch_openml")


def _int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of task ids") from None


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", required=True, help="OpenML API URL (config openml.server), e.g. https://www.openml.org/api/v1/xml")
    p.add_argument("--cache-dir", required=True, type=Path, help="download cache (config openml.cache_dir)")
    p.add_argument("--workers", type=int, default=4, help="requests in flight to the server at once, over every "
                   "process on the same --cache-dir (default 4; config openml.workers)")
    p.add_argument("--max-retries", type=int, default=5, help="retries per request after the first try (default 5)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the server (default 60)")
    p.add_argument("--backoff", type=float, default=1.0, help="first retry delay in seconds, doubling (default 1)")
    p.add_argument("--page-size", type=int, default=1000,
                   help="rows per listing call (default 1000, the live server's maximum; config openml.page_size)")
    p.add_argument("--manifest", type=Path, default=None,
                   help="replay this manifest (config openml.replay): its tasks and runs, no listing call")


def _with_client(sub: argparse._SubParsersAction, name: str, func, help: str, description: str) -> argparse.ArgumentParser:
    """A sub-command that talks to the server: its parser with the client's options (:func:`_common`)."""
    p = sub.add_parser(name, help=help, description=description)
    _common(p)
    p.set_defaults(func=func)
    return p


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fetch-openml",
        help="select OpenML tasks and fetch their cross-validated predictions",
        description="Select OpenML binary tasks and fetch run predictions into the predictions schema.",
    )
    sub = parser.add_subparsers(dest="openml_command", metavar="{select,task,manifest,selfcheck,changes}")
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])

    sel = _with_client(sub, "select", run_select, "list candidate tasks with verdicts -> CSV",
                       "List candidate OpenML tasks (given ids, a tag, a suite, a study or discovery) and whether "
                       "each meets the criteria (binary, 10-fold CV, runs of at least --min-flows flows); write them "
                       "as a CSV with a verdict per task.")
    sel.add_argument("--task-ids", type=_int_list, default=None, help="comma-separated OpenML task ids")
    sel.add_argument("--tag", default=None, help="tasks with this OpenML tag")
    sel.add_argument("--suite", default=None, help="tasks of this benchmark suite (id or alias)")
    sel.add_argument("--study", default=None, help="tasks of this study (id or alias)")
    sel.add_argument("--discover", action="store_true", help="all binary 10-fold CV classification tasks")
    sel.add_argument("--min-flows", type=int, default=30, help="distinct flows a task needs (default 30)")
    sel.add_argument("--max-tasks", type=int, default=None, help="stop after this many selected tasks")
    sel.add_argument("--seed", type=int, default=0, help="order in which candidates are examined with --max-tasks")
    sel.add_argument("--out", required=True, type=Path, help="CSV to write")

    task = _with_client(sub, "task", run_task, "fetch one task's predictions -> parquet + status JSON",
                        "Fetch the cross-validated predictions of --n-models runs from distinct flows of one OpenML "
                        "task into the predictions schema (parquet) and write its status JSON (ok or skipped, with "
                        "the reason).")
    task.add_argument("--task-id", required=True, type=int, help="OpenML task id, e.g. 1882")
    task.add_argument("--n-models", type=int, default=30, help="models (runs of distinct flows) per task")
    task.add_argument("--min-flows", type=int, default=30, help="distinct flows a task needs")
    task.add_argument("--seed", type=int, default=0, help="seed of the run draw")
    task.add_argument("--repeats", default="0", help="CV repeats to keep: comma list or 'all' (default 0)")
    task.add_argument("--out", required=True, type=Path, help="predictions parquet (written when ok)")
    task.add_argument("--status", required=True, type=Path, help="status JSON (always written)")
    add_score_outputs(task)

    man = sub.add_parser("manifest", help="freeze a study's draw: server, client, date, runs and checksums -> JSON")
    man.add_argument("--status", nargs="+", required=True, type=Path, help="status JSON of every task")
    man.add_argument("--task-list", required=True, type=Path, help="the study's task list (tasks.csv)")
    man.add_argument("--server", required=True, help="OpenML API URL the study used")
    man.add_argument("--seed", type=int, default=0, help="seed of the draw")
    man.add_argument("--replayed-from", default=None, help="the manifest this study replayed, if any")
    man.add_argument("--downsampling", default="enabled", choices=["enabled", "disabled"],
                     help="whether the study's config asked for the Boyd downsampling experiment")
    man.add_argument("--out", required=True, type=Path, help="manifest JSON to write")
    man.add_argument("--study-table", required=True, type=Path, help="CSV (Markdown beside it): what this OpenML study is")
    man.set_defaults(func=run_manifest)

    chk = sub.add_parser("selfcheck", help="our AUROC of each run's predictions vs the OpenML server's evaluation")
    chk.add_argument("--status", nargs="+", required=True, type=Path, help="status JSON of every task")
    chk.add_argument("--out", required=True, type=Path, help="per value CSV (Markdown beside it)")
    chk.add_argument("--summary-out", required=True, type=Path, help="summary CSV (Markdown beside it)")
    chk.set_defaults(func=run_selfcheck)

    chg = sub.add_parser("changes", help="name the tasks whose draw differs between two manifests",
                         description="Compare two manifests of a study (e.g. results/<study>/openml-manifest.json "
                                     "before and after a rerun): one line per task drawn in one only, with runs "
                                     "no longer or newly drawn, or with a predictions file whose SHA-256 changed. "
                                     "Exit 0 when the draws are the same, 1 when they differ (as diff does).")
    chg.add_argument("before", type=Path, help="the earlier manifest JSON")
    chg.add_argument("after", type=Path, help="the later manifest JSON")
    chg.set_defaults(func=run_changes)


def _settings(args: argparse.Namespace) -> ClientSettings:
    return ClientSettings(
        server=args.server, cache_dir=args.cache_dir, workers=args.workers,
        max_retries=args.max_retries, timeout=args.timeout, backoff=args.backoff, page_size=args.page_size,
    )


def _quiet_client_logs() -> None:
    """The openml client logs every request on the root logger at INFO; keep those at DEBUG."""

    def only_ours(record: logging.LogRecord) -> bool:
        if "openml" in record.pathname.replace("\\", "/").split("/site-packages/")[-1].split("/")[0]:
            return record.levelno >= logging.ERROR or logging.getLogger().isEnabledFor(logging.DEBUG)
        return True

    root = logging.getLogger()
    for h in root.handlers:
        if not any(getattr(f, "__name__", "") == "only_ours" for f in h.filters):
            h.addFilter(only_ours)
    logging.getLogger("openml").setLevel(logging.ERROR)


def run_select(args: argparse.Namespace) -> int:
    _quiet_client_logs()
    settings = _settings(args)
    t0 = time.monotonic()
    if args.manifest is not None:
        m = read_manifest(args.manifest, settings.server)
        df = validate_task_list(replay_task_rows(m, args.manifest), where=str(args.manifest))
    else:
        try:
            cands = select_tasks(
                settings, task_ids=args.task_ids, tag=args.tag, suite=args.suite, study=args.study,
                discover=args.discover, min_flows=args.min_flows, max_tasks=args.max_tasks,
                seed=args.seed, progress=sys.stderr.isatty(),
            )
        except OpenMLNetworkError as exc:
            raise ServiceError(str(exc)) from exc
        df = candidates_frame(cands)
    df = write_task_list(df.sort_values("openml_task_id", ignore_index=True), args.out)
    print(
        f"prspace fetch-openml select: {int(df['selected'].sum())} of {len(df)} task(s) selected "
        f"-> {args.out} ({time.monotonic() - t0:.1f}s)",
        file=sys.stderr,
    )
    return 0


def _failed(name: str, exc: Exception, t0: float) -> TaskStatus:
    return TaskStatus(task_id=name, status="failed", reason=str(exc), seconds=round(time.monotonic() - t0, 3),
                      extra={"replaced_runs": [], "http_requests": None}, before_seconds=("replaced_runs",))


def run_task(args: argparse.Namespace) -> int:
    _quiet_client_logs()
    name = f"openml-{args.task_id}"
    score = score_outputs(args)  # checked before the work
    t0 = time.monotonic()
    try:
        settings = _settings(args)
        replay = None
        if args.manifest is not None:
            replay = manifest_runs(read_manifest(args.manifest, settings.server), name, args.manifest)
        res = fetch_task(
            settings, args.task_id, n_models=args.n_models, min_flows=args.min_flows,
            seed=args.seed, repeats=args.repeats, progress=sys.stderr.isatty(), replay=replay,
        )
    except OpenMLNetworkError as exc:
        write_status(_failed(name, exc, t0), args.status)
        raise ServiceError(str(exc)) from exc
    except InputError as exc:
        write_status(_failed(name, exc, t0), args.status)
        raise
    predictions = None
    if res.status == "ok":
        write_predictions(res.predictions, res.task_info, args.out)
        predictions = str(args.out)
    write_status(TaskStatus(
        task_id=res.task_id, status=res.status, reason=res.reason, predictions=predictions,
        n_models=res.n_models, seconds=round(res.seconds, 3),
        extra={
            "replaced_runs": [{"run_id": r["run_id"], "reason": r["reason"]} for r in res.replaced_runs],
            "http_requests": res.http_requests,
            "openml_task_id": int(args.task_id),
            "task_repeats": res.task_repeats,
            "replayed_from": str(args.manifest) if args.manifest is not None else None,
            "runs": res.run_details,
        },
    ), args.status)
    print(
        f"prspace fetch-openml task: {res.task_id} {res.status}: {res.reason}; "
        f"{len(res.replaced_runs)} run(s) replaced, {res.http_requests} HTTP request(s), {res.seconds:.1f}s",
        file=sys.stderr,
    )
    del res  # the fetched frames: scoring reads the task back from its parquet
    score(args.status)
    return 0


def run_manifest(args: argparse.Namespace) -> int:
    import openml  # the OpenML client library: slow to import, only this command needs it

    client = f"openml-python {openml.__version__}"
    manifest, counts = build_manifest(
        [read_status(p) for p in sorted(args.status)], read_task_list(args.task_list), server=args.server,
        client=client, version=prspace.__version__, created_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        seed=args.seed, replayed_from=args.replayed_from)
    with atomic_path(args.out) as tmp:
        tmp.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    table = study_table(counts, server=args.server, client=client, out=str(args.out), seed=args.seed,
                        replayed_from=args.replayed_from, downsampling=args.downsampling == "enabled")
    write_csv(table, args.study_table)
    write_markdown(table, Path(args.study_table).with_suffix(".md"), title="This OpenML study")
    print(f"prspace fetch-openml manifest: {counts['tasks']} task(s), {counts['models']} run(s) -> {args.out}",
          file=sys.stderr)
    return 0


def run_selfcheck(args: argparse.Namespace) -> int:
    checks = check_statuses(args.status)
    summary = summarize(checks)
    write_csv(checks, args.out)
    write_markdown(checks, Path(args.out).with_suffix(".md"),
                   title="Our AUROC vs OpenML's evaluation engine, per run (overall pooled; per fold)")
    write_csv(summary, args.summary_out)

    # the policy of prspace.core.output: 4 significant digits, small differences in exponent notation
    write_markdown(summary, Path(args.summary_out).with_suffix(".md"),
                   title="Self-check against OpenML's own AUROC")
    bad = int((~checks["agrees"].astype(bool)).sum()) if len(checks) else 0
    print(f"prspace fetch-openml selfcheck: {checks['model_id'].nunique() if len(checks) else 0} run(s), "
          f"{len(checks)} value(s) compared, {bad} differ by more than 1e-4", file=sys.stderr)
    return 0


def run_changes(args: argparse.Namespace) -> int:
    before = load_manifest(args.before, key="the first argument (a manifest JSON, e.g. results/<study>/openml-manifest.json)")
    after = load_manifest(args.after, key="the second argument (a manifest JSON, e.g. results/<study>/openml-manifest.json)")
    if before["server"].rstrip("/") != after["server"].rstrip("/"):
        print(f"note: the manifests come from different servers ({before['server']} and {after['server']})")
    lines = changed_tasks(before, after)
    n_before, n_after = len(before["tasks"]), len(after["tasks"])
    if not lines:
        print(f"the same draw: {n_before} task(s), every run and predictions file (SHA-256) unchanged")
        return 0
    print(f"{len(lines)} task(s) changed between {args.before} ({n_before} tasks) and {args.after} ({n_after} tasks):")
    for line in lines:
        print(f"  {line}")
    return 1
