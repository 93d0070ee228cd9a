"""Time per stage of a finished study, from the benchmark files Snakemake wrote.

Every rule has ``benchmark:`` (``work/<study>/benchmarks/...tsv``: wall seconds ``s`` and
``cpu_time``). This script sums them per stage (the rule: the benchmark file's name, or its folder
for per-task rules) and prints each stage's job-seconds, CPU seconds and share of the study's
job-seconds, side by side for every study given, with the wall times the workflow recorded (``work/<study>/run_times.jsonl``).

    python benchmarks/bench_stages.py default paperlike
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd


def stages(study: str, root: Path) -> pd.DataFrame:
    base = root / "work" / study / "benchmarks"
    rows = []
    for f in sorted(base.rglob("*.tsv")):
        rel = f.relative_to(base)
        stage = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        t = pd.read_csv(f, sep="\t")
        rows.append({"stage": stage, "jobs": 1, "job_s": float(t["s"].iloc[-1]),
                     "cpu_s": float(t["cpu_time"].iloc[-1]) if "cpu_time" in t else float("nan")})
    if not rows:
        raise SystemExit(f"no benchmark files under {base}: run the study first (make run)")
    df = pd.DataFrame(rows).groupby("stage", as_index=False).sum()
    df["share"] = df["job_s"] / df["job_s"].sum()
    return df.sort_values("job_s", ascending=False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("studies", nargs="+")
    ap.add_argument("--root", default=".", help="the repository (default: here)")
    args = ap.parse_args()
    root = Path(args.root)
    for study in args.studies:
        df = stages(study, root)
        runs = root / "work" / study / "run_times.jsonl"
        extra = ""
        if runs.is_file():
            walls = [json.loads(ln)["wall_s"] for ln in runs.read_text().splitlines() if ln.strip()]
            extra = f"; longest recorded run {max(walls):.0f} s wall (runs: {', '.join(f'{w:.0f}' for w in walls)})"
        print(f"\n## {study}: {df['jobs'].sum()} jobs, {df['job_s'].sum():.0f} job-seconds{extra}")
        print(df.to_string(index=False, float_format=lambda v: f"{v:.2f}" if v < 1 else f"{v:.0f}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
