"""A failed workflow job's own message, found in its log for the console.

Every rule sends its command's output to a log under ``work/<study>/logs/``; when a job
fails Snakemake prints only ``CalledProcessError ... check log file(s)``.  The
Snakefile's ``onerror`` handler calls :func:`job_errors` to print, for every log written
during the run, the line in which the ``prspace`` command said what went wrong (its
one-line ``prspace COMMAND: error: ...`` or ``... interrupted``; else the last line of a traceback).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

__all__ = ["job_errors", "print_job_errors"]

_ERROR = re.compile(r"^prspace[\w -]*: (error: .+|interrupted.*)")
_EXC_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt)\b.*")


def _message(text: str) -> str | None:
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if _ERROR.match(ln):
            return ln
    if any(ln.startswith("Traceback (most recent call last)") for ln in lines):
        for ln in reversed(lines):
            if _EXC_LINE.match(ln):
                return ln
    return None


def job_errors(log_dir: str | os.PathLike[str], *, since: float = 0.0) -> list[str]:
    """``"<log file>: <message>"`` for every log under ``log_dir`` modified at or after
    ``since`` (seconds since the epoch) that holds an error message, sorted by path."""
    root = Path(log_dir)
    if not root.is_dir():
        return []
    out = []
    for path in sorted(root.rglob("*.log")):
        try:
            if path.stat().st_mtime < since:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")[-20000:]
        except OSError:
            continue
        msg = _message(text)
        if msg:
            out.append(f"{path}: {msg}")
    return out


def print_job_errors(log_dir: str | os.PathLike[str], *, since: float = 0.0) -> None:
    """Print :func:`job_errors` to stderr under one heading (nothing if there are none)."""
    messages = job_errors(log_dir, since=since)
    if messages:
        print(f"\nprspace: what the failed job(s) said (full logs in {log_dir}/):", file=sys.stderr)
        for m in messages:
            print(f"  {m}", file=sys.stderr)



def record_run_time(path: str | os.PathLike[str], wall_s: float) -> None:
    """Append the wall time of a successful run to ``work/<study>/run_times.jsonl`` (one line per
    run, with the time it ended), read by ``benchmarks/bench_stages.py``."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("a") as fh:
        fh.write(json.dumps({"ended": time.strftime("%Y-%m-%dT%H:%M:%S"), "wall_s": round(float(wall_s), 1)}) + "\n")
