"""The table of measured job seconds per rule that the progress line's estimate reads
(``workflow/job_seconds.csv``; :mod:`prspace.study.eta`).

Runs nothing: from a finished run's Snakemake logs (each job block names its rule and its
``benchmark:`` file; :func:`bench_stages.parse_log`) and those benchmark files (wall ``s``), one row per
rule: how many jobs it had and their median wall seconds. The rows of ``--kind`` in the table are
replaced; other kinds are kept.

    python benchmarks/bench_job_seconds.py --kind paperlike --root DIR --log DIR/.snakemake/log/X.snakemake.log
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stages import parse_log  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "workflow" / "job_seconds.csv"


def rule_seconds(logs: list[str], root: Path) -> pd.DataFrame:
    """One row per rule: ``rule``, ``jobs`` (with a benchmark file read), ``median_s``."""
    seen: dict[str, tuple[str, float]] = {}
    for text in logs:
        for job in parse_log(text)[0]:
            f = root / job["benchmark"] if job["benchmark"] else None
            if f is not None and f.is_file():
                seen[job["benchmark"]] = (job["rule"], float(pd.read_csv(f, sep="\t")["s"].iloc[-1]))
    if not seen:
        raise SystemExit("no job with a benchmark file in these logs: give the logs of a finished run and its --root")
    df = pd.DataFrame(list(seen.values()), columns=["rule", "s"])
    out = df.groupby("rule")["s"].agg(jobs="count", median_s="median").reset_index()
    out["median_s"] = out["median_s"].round(2)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kind", required=True, help="the study kind: a study name (paperlike, default) or openml")
    p.add_argument("--root", type=Path, required=True, help="the run's working directory")
    p.add_argument("--log", nargs="+", required=True, help="the run's Snakemake logs")
    p.add_argument("--source", default="", help="what run it was (kept in the table)")
    p.add_argument("--out", type=Path, default=TABLE)
    a = p.parse_args(argv)
    rows = rule_seconds([Path(x).read_text() for x in a.log], a.root)
    rows.insert(0, "kind", a.kind)
    rows["source"] = a.source
    old = pd.read_csv(a.out) if a.out.is_file() else rows.iloc[:0]
    table = pd.concat([old[old["kind"] != a.kind], rows], ignore_index=True)
    table.to_csv(a.out, index=False)
    print(rows.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
