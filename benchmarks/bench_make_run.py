"""`make run` timed from fresh clones, side by side, and the block of docs/benchmarks.md generated from it.

Runs nothing itself: each clone's `make run` is run under GNU time, e.g.

    git clone -q . /tmp/after/main && cd /tmp/after/main && git checkout -q COMMIT
    /usr/bin/time -v make run > ../make_run.log 2> ../make_run.time

and then recorded, one row per run, into ``benchmarks/make_run.csv`` (a row of the same ``--label`` is
replaced):

    python benchmarks/bench_make_run.py record --label after --root /tmp/after/main \\
        --time /tmp/after/make_run.time --started 2026-11-27T21:47:57 --note "..." [--verify "..."]

A row holds GNU time's wall, user and system CPU seconds and peak RSS, the seconds to the ``.venv``
(``--started`` to the mtime of ``.venv/.installed``), and per study (``paperlike``, ``default``) what
``benchmarks/bench_stages.py`` reads from the clone: jobs, job-seconds (the ``benchmark:`` files'
wall seconds), the span of its Snakemake log, the critical path and the modelled finish on 8 and 16
cores (a greedy schedule of the jobs at their measured seconds; a job that used several threads keeps
its measured seconds, so the model errs long for it).

    python benchmarks/bench_make_run.py docs [--before before --after after]

writes the table and the sentences judging issue 60's targets (<= 20 min wall on 2 cores, set-up
included; at most half the CPU seconds of the run labelled ``--before``; each study's critical path
<= 6 min) between the ``make-run`` markers of docs/benchmarks.md.

`make test` is recorded the same way, one row per run into ``benchmarks/make_test.csv`` (GNU time's wall and
CPU, the seconds to the ``.venv``, pytest's own seconds and counts from its last line), and its block (the
target: <= 10 min from a fresh clone, set-up included) written between the ``make-test`` markers:

    /usr/bin/time -v make test > ../test.log 2> ../test.time
    python benchmarks/bench_make_run.py record-test --label after --root /tmp/t/main --log /tmp/t/test.log \
        --time /tmp/t/test.time --started 2026-11-28T05:20:00 --note "..."
    python benchmarks/bench_make_run.py docs-test
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_stages as bs  # noqa: E402
from _docs import write_block  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "benchmarks" / "make_run.csv"
TEST_TABLE = ROOT / "benchmarks" / "make_test.csv"
#: issue 60's target for `make test` from a fresh clone, set-up included
TEST_TARGET_S = 10 * 60
PAGE = ROOT / "docs" / "benchmarks.md"
STUDIES = ("paperlike", "default")
#: the parts of a study's job-seconds the block sets side by side (by stage, as bench_stages names them)
PARTS = {"predict": lambda x: x == "predict", "boyd": lambda x: x.startswith("boyd/"),
         "verdicts": lambda x: x == "verdicts",
         "other": lambda x: x != "predict" and x != "verdicts" and not x.startswith("boyd/")}
#: issue 60's targets: wall on 2 idle cores with set-up, the CPU ratio to the run before, each critical path
WALL_TARGET_S, CPU_RATIO_TARGET, CRITICAL_TARGET_S = 20 * 60, 0.5, 6 * 60


def gnu_time(text: str) -> dict[str, float]:
    """Wall, user and system seconds and peak RSS (MB) from ``/usr/bin/time -v``'s report."""
    def field(name: str) -> str:
        m = re.search(rf"^\s*{re.escape(name)}: (.+)$", text, re.MULTILINE)
        if m is None:
            raise SystemExit(f"no {name!r} line in the time file: give the stderr of /usr/bin/time -v")
        return m.group(1).strip()

    parts = [float(p) for p in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
    wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    return {"wall_s": round(wall, 1), "user_s": float(field("User time (seconds)")),
            "sys_s": float(field("System time (seconds)")),
            "max_rss_mb": round(float(field("Maximum resident set size (kbytes)")) / 1024, 1)}


def study_row(study: str, root: Path) -> dict[str, float]:
    """One study's columns from the clone (``bench_stages``): jobs, job-seconds, log span, critical path, model."""
    logs = sorted((root / ".snakemake" / "log").glob("*.snakemake.log"))
    bench = bs.benchmarks(study, root)
    jobs, _, span = bs.study_jobs(study, logs)
    seconds = dict(zip(bench["bench"], bench["s"], strict=True))
    critical, _ = bs.critical_path(jobs, seconds)
    st = bs.stages(bench).set_index("stage")
    parts = {part: st.loc[[x for x in st.index if pick(x)]] for part, pick in PARTS.items()}
    return {f"{study}_jobs": len(bench), f"{study}_job_s": round(float(bench["s"].sum()), 1),
            **{f"{study}_{part}_{col}": round(float(rows[col].sum()), 1) for part, rows in parts.items()
               for col in ("job_s", "cpu_s")},
            f"{study}_span_s": round(span, 1), f"{study}_critical_s": round(critical, 1),
            **{f"{study}_model{c}_s": round(bs.schedule(jobs, seconds, c), 1) for c in (2, 8, 16)}}


def _cpu_model() -> str:
    text = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").is_file() else ""
    m = re.search(r"^model name\s*: (.+)$", text, re.MULTILINE)
    return f"{m.group(1).strip() if m else 'unknown CPU'}, {os.cpu_count()} cores"


def _clone_row(args: argparse.Namespace) -> dict:
    """The columns every recorded run shares: label, the clone's commit, start, machine, seconds to its ``.venv``."""
    root = Path(args.root)
    started = dt.datetime.fromisoformat(args.started).replace(tzinfo=dt.UTC)
    venv = root / ".venv" / ".installed"
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    return {"label": args.label, "commit": commit, "started_utc": started.strftime("%Y-%m-%d %H:%M"),
            "machine": _cpu_model(),
            "venv_s": round(venv.stat().st_mtime - started.timestamp(), 1) if venv.is_file() else float("nan")}


def _upsert(out: Path, row: dict) -> None:
    """``row`` into the table ``out`` (a row of the same label replaced), then printed."""
    old = pd.read_csv(out, keep_default_na=False) if out.is_file() else pd.DataFrame()
    table = pd.concat([old[old["label"] != row["label"]] if len(old) else old, pd.DataFrame([row])], ignore_index=True)
    table.to_csv(out, index=False)
    print(pd.DataFrame([row]).T.to_string(header=False))


def record(args: argparse.Namespace) -> None:
    head = _clone_row(args)
    venv_s = head.pop("venv_s")
    row = {**head, **gnu_time(Path(args.time).read_text()), "venv_s": venv_s,
           **{k: v for s in STUDIES for k, v in study_row(s, Path(args.root)).items()},
           "verify": args.verify, "note": args.note}
    _upsert(Path(args.out), row)


def pytest_summary(text: str) -> dict[str, float]:
    """pytest's own seconds and its counts from its last summary line (``= 2457 passed, 1 skipped ... in 624.75s``)."""
    lines = [ln for ln in text.splitlines() if re.search(r"\bin [\d.]+s\b", ln) and re.search(r"\d+ passed", ln)]
    if not lines:
        raise SystemExit("no pytest summary line (\"N passed ... in S s\") in the log: give the stdout of make test")
    last = lines[-1]
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b", last)}
    return {"pytest_s": float(re.search(r"\bin ([\d.]+)s\b", last).group(1)),
            **{k: counts.get(k, 0) for k in ("passed", "failed", "skipped", "xfailed")}}


def record_test(args: argparse.Namespace) -> None:
    head = _clone_row(args)
    venv_s = head.pop("venv_s")
    t = gnu_time(Path(args.time).read_text())
    row = {**head, "wall_s": t["wall_s"], "user_s": t["user_s"], "sys_s": t["sys_s"], "venv_s": venv_s,
           **pytest_summary(Path(args.log).read_text()), "note": args.note}
    _upsert(Path(args.out), row)


def test_block(table: pd.DataFrame, after: str) -> str:
    """The generated `make test` block: one row per run, then the target judged on the ``after`` run."""
    t = _session(table.set_index("label"), after)
    lines = ["Generated by `python benchmarks/bench_make_run.py docs-test` from `benchmarks/make_test.csv` (the runs of "
             f"the session of run {after}; the CSV keeps the earlier ones).", "",
             "| run | commit | started (UTC) | wall | `.venv` s | pytest s | user + system CPU s | tests |",
             "|---|---|---|---|---:|---:|---:|---|"]
    for label, r in t.iterrows():
        tests = f"{r['passed']:,} passed, {r['failed']} failed, {r['skipped']} skipped, {r['xfailed']} xfailed"
        lines.append(f"| {label} | {r['commit']} | {r['started_utc']} | {_min(r['wall_s'])} | {r['venv_s']:.0f} | "
                     f"{r['pytest_s']:.0f} | {r['user_s']:,.0f} + {r['sys_s']:,.0f} = {r['user_s'] + r['sys_s']:,.0f} | "
                     f"{tests} |")
    notes = [f"{label}: {r['note']}" for label, r in t.iterrows() if r["note"]]
    lines += ["", "Machines: " + "; ".join(f"{label}: {r['machine']}" for label, r in t.iterrows()) + "."
              + (" Notes: " + "; ".join(notes) + "." if notes else ""), ""]
    if after not in t.index:
        return "\n".join(lines)
    a = t.loc[after]
    ok = a["wall_s"] <= TEST_TARGET_S
    lines.append(f"**`make test` of {a['commit']}: {_min(a['wall_s'])}** from a fresh clone, set-up included "
                 f"({a['venv_s']:.0f} s to the `.venv`, pytest {_min(a['pytest_s'])}): the target of 10 minutes is "
                 + ("met" if ok else f"missed by {_min(a['wall_s'] - TEST_TARGET_S)}")
                 + ("." if a["failed"] == 0 else f"; {a['failed']} test(s) failed in that run."))
    return "\n".join(lines)


def _session(t: pd.DataFrame, after: str) -> pd.DataFrame:
    """The runs of ``after``'s session (started the same UTC day, on its machine): the ones comparable with it; the
    CSV keeps the earlier ones."""
    if after not in t.index:
        return t
    a = t.loc[after]
    return t[(t["started_utc"].str[:10] == a["started_utc"][:10]) & (t["machine"] == a["machine"])]


def _min(s: float) -> str:
    return f"{int(s // 60)} min {s % 60:.0f} s"


def _parts_table(t: pd.DataFrame, before: str, after: str) -> list[str]:
    """Where each study's job-seconds went in runs ``before`` and ``after``."""
    lines = [f"Where each study's job-seconds went in runs {before} and {after} (wall seconds of its jobs; in brackets "
             "the CPU seconds Snakemake sampled, which read long and multi-process jobs low):", "",
             "| run | study | " + " | ".join(PARTS) + " |", "|---|---|" + "---:|" * len(PARTS)]
    for label, r in t.loc[[x for x in (before, after) if x in t.index]].iterrows():
        for s in STUDIES:
            lines.append(f"| {label} | {s} | " + " | ".join(
                f"{r[f'{s}_{part}_job_s']:,.0f} ({r[f'{s}_{part}_cpu_s']:,.0f})" for part in PARTS) + " |")
    return [*lines, ""]


def block(table: pd.DataFrame, before: str, after: str) -> str:
    """The generated block: one row per run, then the targets judged on the ``after`` run."""
    t = _session(table.set_index("label"), after)
    lines = ["Generated by `python benchmarks/bench_make_run.py docs` from `benchmarks/make_run.csv` (the runs of the "
             f"session of run {after}; the CSV keeps the earlier ones).", "",
             "| run | commit | started (UTC) | wall | `.venv` s | user + system CPU s | peak RSS MB | "
             "paper-like: jobs, job-s, log span s | default: jobs, job-s, log span s | critical paths s | "
             "modelled 8 / 16 cores s (both studies) | `make verify` |",
             "|---|---|---|---|---:|---:|---:|---|---|---|---|---|"]
    for label, r in t.iterrows():
        cpu = r["user_s"] + r["sys_s"]
        lines.append(
            f"| {label} | {r['commit']} | {r['started_utc']} | {_min(r['wall_s'])} | {r['venv_s']:.0f} | "
            f"{r['user_s']:,.0f} + {r['sys_s']:,.0f} = {cpu:,.0f} | {r['max_rss_mb']:,.0f} | "
            + " | ".join(f"{r[f'{s}_jobs']}, {r[f'{s}_job_s']:,.0f}, {r[f'{s}_span_s']:,.0f}" for s in STUDIES)
            + f" | {r['paperlike_critical_s']:.0f} + {r['default_critical_s']:.0f} | "
            f"{r['paperlike_model8_s'] + r['default_model8_s']:,.0f} / "
            f"{r['paperlike_model16_s'] + r['default_model16_s']:,.0f} | {r['verify'] or '-'} |")
    notes = [f"{label}: {r['note']}" for label, r in t.iterrows() if r["note"]]
    lines += ["", "Machines: " + "; ".join(f"{label}: {r['machine']}" for label, r in t.iterrows()) + "."
              + (" Notes: " + "; ".join(notes) + "." if notes else ""), ""]
    lines += _parts_table(t, before, after)
    if after not in t.index:
        return "\n".join(lines)
    a = t.loc[after]
    wall_ok = a["wall_s"] <= WALL_TARGET_S
    words = [f"**`make run` of {a['commit']}: {_min(a['wall_s'])}** on 2 cores from a fresh clone, set-up included: "
             f"the target of 20 minutes is {'met' if wall_ok else f'missed by {_min(a.wall_s - WALL_TARGET_S)}'}."]
    if before in t.index:
        b = t.loc[before]
        ratio = (a["user_s"] + a["sys_s"]) / (b["user_s"] + b["sys_s"])
        where = ("on the same machine" if a["machine"] == b["machine"]
                 else f"on another machine ({b['machine']}, against {a['machine']})")
        words.append(f"Its CPU seconds are {ratio:.2f} of {b['commit']}'s ({before}), measured {where}, started "
                     f"{b['started_utc']} and {a['started_utc']} UTC: the target of at most half is "
                     f"{'met' if ratio <= CPU_RATIO_TARGET else 'missed'}.")
    crit = [(s, a[f"{s}_critical_s"]) for s in STUDIES]
    over = [s for s, c in crit if c > CRITICAL_TARGET_S]
    words.append("Each study's critical path is "
                 + " and ".join(f"{c:.0f} s ({s})" for s, c in crit)
                 + (": within the 6 minutes." if not over else f": {', '.join(over)} over 6 minutes.")
                 + f" Modelled on 8 cores: {_min(a['paperlike_model8_s'] + a['default_model8_s'])} of jobs, "
                 f"plus the `.venv` and the two reports.")
    return "\n".join([*lines, " ".join(words)])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="one run's row into the table")
    r.add_argument("--label", required=True)
    r.add_argument("--root", required=True, help="the clone make run ran in")
    r.add_argument("--time", required=True, help="the stderr of /usr/bin/time -v make run")
    r.add_argument("--started", required=True, help="when make run started, UTC, ISO (2026-11-27T21:47:57)")
    r.add_argument("--verify", default="", help="what make verify said afterwards")
    r.add_argument("--note", default="", help="the machine's state, anything else")
    r.add_argument("--out", default=str(TABLE))
    d = sub.add_parser("docs", help="the block of docs/benchmarks.md from the table")
    d.add_argument("--before", default="before")
    d.add_argument("--after", default="after")
    rt = sub.add_parser("record-test", help="one make test run's row into benchmarks/make_test.csv")
    rt.add_argument("--label", required=True)
    rt.add_argument("--root", required=True, help="the clone make test ran in")
    rt.add_argument("--log", required=True, help="the stdout of make test (pytest's summary line)")
    rt.add_argument("--time", required=True, help="the stderr of /usr/bin/time -v make test")
    rt.add_argument("--started", required=True, help="when make test started, UTC, ISO")
    rt.add_argument("--note", default="", help="the machine's state, anything else")
    rt.add_argument("--out", default=str(TEST_TABLE))
    dt_ = sub.add_parser("docs-test", help="the make-test block of docs/benchmarks.md from its table")
    dt_.add_argument("--after", default="after")
    a = p.parse_args(argv)
    if a.cmd == "record":
        record(a)
    elif a.cmd == "record-test":
        record_test(a)
    elif a.cmd == "docs-test":
        text = test_block(pd.read_csv(TEST_TABLE, keep_default_na=False), a.after)
        write_block(PAGE, "make-test", text)
        print(text)
    else:
        text = block(pd.read_csv(TABLE, keep_default_na=False), a.before, a.after)
        write_block(PAGE, "make-run", text)
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
