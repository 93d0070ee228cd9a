"""docs/benchmarks.md's table of current figures and its tables of recorded measurements, from the committed CSVs.

Runs nothing. Every figure is read from a committed file under ``benchmarks/`` (the one measurement of each
benchmark that is current; older passes are in git's history of docs/benchmarks.md):

* ``headlines``: one row per benchmark, its headline figure with what, command, machine, date and commit;
* ``metrics``, ``rank-uncertainty``, ``startup``, ``panel-cpu``: the tables of ``metrics.csv``,
  ``rank_uncertainty.csv``, ``startup.csv`` (measurements recorded once, by hand from their scripts' output) and
  ``panel_cpu.csv`` (``bench_panel_cpu.py --out``).

    python benchmarks/bench_headlines.py          # rewrite these blocks of docs/benchmarks.md
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _docs import write_block  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
B = ROOT / "benchmarks"
DOCS = ROOT / "docs" / "benchmarks.md"


def _csv(name: str) -> pd.DataFrame:
    return pd.read_csv(B / name, keep_default_na=False)


def _min(s: float) -> str:
    return f"{int(s // 60)} min {s % 60:.0f} s"


def _yes(col: pd.Series) -> pd.Series:
    return col.astype(str) == "True"


def _numeric(col: pd.Series) -> bool:
    return bool(pd.to_numeric(col.astype(str).str.replace(",", ""), errors="coerce").notna().all())


def _row(t: pd.DataFrame, col: str, value: str) -> pd.Series:
    return t[t[col] == value].iloc[-1]


def _readme_commands() -> list[tuple[str, ...]]:
    run, test = _row(_csv("make_run.csv"), "label", "after"), _row(_csv("make_test.csv"), "label", "after")
    check = re.search(r"make check afterwards, (\d+) passed in (\d+) s", test["note"])
    verify = _csv("make_verify.csv").iloc[-1]
    fresh = "fresh clone, `.venv` set-up included"
    return [
        ("`make run`: both studies and their reports", f"{_min(run['wall_s'])} wall, "
         f"{run['user_s'] + run['sys_s']:,.0f} CPU s ({fresh})", "`/usr/bin/time -v make run`", run["machine"],
         run["started_utc"][:10], run["commit"]),
        ("`make test`: the test suite", f"{_min(test['wall_s'])} wall, {test['passed']:,} passed ({fresh})",
         "`/usr/bin/time -v make test`", test["machine"], test["started_utc"][:10], test["commit"]),
        ("`make check`: the seed reruns at the committed settings", f"{check[2]} s, {check[1]} passed",
         "`make check` after `make test`", test["machine"], test["started_utc"][:10], test["commit"]),
        ("`make verify`: committed tables against a run's", f"{float(verify['wall_s']):.1f} s wall, {verify['result']}",
         "`/usr/bin/time -v make verify`", verify["machine"], verify["date"], verify["commit"]),
    ]


def _cpu_rows() -> list[tuple[str, ...]]:
    cpu = _csv("cpu_by_command.csv")
    cpu = cpu[cpu["label"] == cpu["label"].iloc[-1]]
    pred = cpu[cpu["command"] == "prspace predict-local"].iloc[0]
    saved = _row(_csv("predict_batch.csv"), "way", "saved")
    per = _csv("predict_batch.csv")
    per = per[(per["study"] == "both") & (per["way"] == "per_task")].iloc[0]
    panel = _csv("panel_cpu.csv")
    before = panel.loc[_yes(panel["in_before"]), "cpu_s"].astype(float).sum()
    after = panel.loc[_yes(panel["in_default"]), "cpu_s"].astype(float).sum()
    start = _csv("startup.csv").astype({"job_cpu_s": float, "imports_cpu_s": float})
    return [
        ("a `make run`'s CPU by command", f"predictions {pred['cpu_s']:,.0f} of {pred['run_cpu_s']:,.0f} CPU s "
         f"({100 * pred['cpu_s'] / pred['run_cpu_s']:.0f}%)", "`bench_cpu_by_command.py`", "AMD EPYC, 2 cores",
         "2026-11-29", pred["commit"]),
        ("every task's predictions in one process", f"saves {saved['cpu_s']:,.0f} of {per['cpu_s']:,.0f} CPU s, "
         "same results", "`bench_predict_batch.py`", "AMD EPYC, 2 cores", "2026-11-29", "259befb"),
        ("the learner panel's CPU, after issue 60 against before", f"{after:.1f} / {before:.1f} CPU s = "
         f"{after / before:.2f}", "`bench_panel_cpu.py`", "2 cores, shared (load 20-44)", "2026-11-27", "5646517"),
        ("the fixed cost of a job (Python and its imports)", f"{start['imports_cpu_s'].min():.2f}-"
         f"{start['imports_cpu_s'].max():.2f} CPU s of imports in jobs of {start['job_cpu_s'].min():.2f}-"
         f"{start['job_cpu_s'].max():.2f}", "`bench_startup.py`", start["machine"].iloc[0], start["date"].iloc[0],
         start["commit"].iloc[0]),
    ]


def _kernel_rows() -> list[tuple[str, ...]]:
    m = _csv("metrics.csv").astype({"all_metrics_ms": float, "argsort_ms": float, "sklearn_two_calls_ms": float})
    big = m[m["n"] == 1_000_000]
    vs_sort = big["all_metrics_ms"] / big["argsort_ms"]
    vs_sk = big["sklearn_two_calls_ms"] / big["all_metrics_ms"]
    r = _csv("rank_uncertainty.csv").iloc[-1]
    return [
        ("`all_metrics` at 10^6 rows (six metrics, one sort)", f"{vs_sort.min():.2f}-{vs_sort.max():.2f} x one "
         f"`np.argsort`; {vs_sk.min():.1f}-{vs_sk.max():.1f} x faster than scikit-learn's two calls",
         "`bench_metrics.py`", m["machine"].iloc[0], m["date"].iloc[0], m["commit"].iloc[0]),
        ("rank uncertainty: 30 models x 10,000 rows x 2,000 resamples", f"{float(r['prspace_cpu_s']):.1f} CPU s "
         f"(scikit-learn's AUROC alone in a loop: {float(r['sklearn_loop_cpu_s']):.1f})",
         "`bench_rank_uncertainty.py`", r["machine"], r["date"], r["commit"]),
    ]


def _audit_rows() -> list[tuple[str, ...]]:
    a = _csv("audit_real.csv")
    d = a[(a["file"] == "wide-untied") & (a["command"] == "default")].astype({"ratio_to_baseline": float})
    p = _csv("power_time.csv")
    after = p[p["label"] == "after"]
    j = _csv("jack_bins.csv")
    j = j[j["rows"] == j["rows"].max()].astype(float, errors="ignore")
    bins = _csv("power_bins.csv").astype({"max_end_move_vs_exact": float})
    b = bins[bins["bins"] != "exact"].assign(bins=lambda x: x["bins"].astype(int))
    ok = b.groupby("bins")["max_end_move_vs_exact"].max() < 0.1
    return [
        ("`prspace audit`, default, untied scores (3 models)", " / ".join(
            f"{r['ratio_to_baseline']:.1f}" for _, r in d.iterrows()) + " x pandas + scikit-learn at "
         + " / ".join(f"{int(r['rows']):,}" for _, r in d.iterrows()) + " rows",
         "`bench_audit_scale.py`", a["cpu_model"].iloc[0] + ", 2 cores", a["started"].iloc[0][:10], a["commit"].iloc[0]),
        ("`prspace power` on a 2,000-row file", "; ".join(f"{r['command']} {float(r['seconds']):.1f} s"
                                                         for _, r in after.iterrows()),
         "`bench_power_time.py`", f"{after['cpus'].iloc[0]} cpus", after["started"].iloc[0][:10], after["commit"].iloc[0]),
        ("resampling on 2,048 bins, 10^6 untied rows", f"jackknife {j['seconds_exact'].mean():.1f} -> "
         f"{j['seconds_binned'].mean():.2f} s, ends within {j['max_end_move_over_half_width'].max():.4f} of a half-width",
         "`bench_jack_bins.py`", "2 cores", "2026-11-26", j["commit"].iloc[0]),
        ("planned test sets binned (`POWER_BINS`)", f"{int(ok[ok].index.min())} bins: the fewest within 0.1 of a "
         "half-width in every case", "`bench_power_bins.py`", "2 cores", "2026-11-27", bins["commit"].iloc[0]),
    ]


def _openml_rows() -> list[tuple[str, ...]]:
    ext = json.loads((B / "openml_loopback_extrapolation.json").read_text())
    w = _csv("openml_loopback_whole.csv").iloc[-1]
    return [
        ("the faithful OpenML draw's fetch, extrapolated", f"{ext['gb_total']:.2f} GB, {ext['wall_s_predict'] / 3600:.1f} h "
         f"for {ext['tasks']} tasks", "`bench_openml_loopback.py --sizes 100 200`", "AMD EPYC, 2 cores", "2026-11-27",
         "1e3f6c4"),
        ("the whole draw end to end on the loopback", f"fetch {_min(float(w['wall_s']))}, analysis "
         f"{float(w['analysis_wall_s']) / 3600:.1f} h, {float(w['analysis_cpu_s']):,.0f} CPU s",
         "`bench_openml_loopback.py --sizes 886 --full`", "AMD EPYC, 2 cores", w["report_ended"][:10], "d84ad15"),
    ]


def headlines_block() -> str:
    rows = [*_readme_commands(), *_cpu_rows(), *_kernel_rows(), *_audit_rows(), *_openml_rows()]
    lines = ["Generated by `python benchmarks/bench_headlines.py` from the CSVs under `benchmarks/`.", "",
             "| what | figure | command | machine | date | commit |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def table_block(name: str) -> str:
    """The markdown table of a recorded measurement (``name``: one of :data:`TABLES`)."""
    csv, labels = TABLES[name]
    t = pd.read_csv(B / csv, dtype=str, keep_default_na=False)  # the recorded text, not re-rounded
    cols = list(labels)
    if name == "panel-cpu":
        t = t.astype({"cpu_s": float, "n": int})
        g = [(k, x) for k, x in t.groupby(["study", "task_id", "n"], sort=False)]
        rows = [(s, f"`{task}`", f"{n:,}", x.loc[_yes(x["in_before"]), "cpu_s"].sum(),
                 x.loc[_yes(x["in_default"]), "cpu_s"].sum()) for (s, task, n), x in g]
        rows.append(("both", "six tasks", "", sum(r[3] for r in rows), sum(r[4] for r in rows)))
        t = pd.DataFrame([(*r[:3], f"{r[3]:.1f}", f"{r[4]:.1f}", f"{r[4] / r[3]:.2f}") for r in rows],
                         columns=cols)
    lines = [f"Generated by `python benchmarks/bench_headlines.py` from `benchmarks/{csv}`.", "",
             "| " + " | ".join(labels.values()) + " |",
             "|" + "".join("---:|" if _numeric(t[c]) else "---|" for c in cols)]
    lines += ["| " + " | ".join(_cell(r[c]) for c in cols) + " |" for _, r in t.iterrows()]
    return "\n".join(lines)


def _cell(value: object) -> str:
    """A recorded value as written, a whole number of five digits or more with thousands separators."""
    text = str(value)
    return f"{int(text):,}" if text.isdigit() and len(text) > 4 else text


#: block name -> (CSV, {its column shown: the column's label})
TABLES = {
    "metrics": ("metrics.csv", {"n": "rows", "pi": "pi", "ties": "ties", "argsort_ms": "`argsort` ms",
                                "argsort_stable_ms": "stable `argsort` ms", "all_metrics_ms": "`all_metrics` ms",
                                "sklearn_two_calls_ms": "scikit-learn's two calls ms"}),
    "rank-uncertainty": ("rank_uncertainty.csv", {"setting": "setting", "load": "load",
                                                  "prspace_wall_s": "prspace wall s", "prspace_cpu_s": "prspace CPU s",
                                                  "sklearn_loop_wall_s": "scikit-learn loop wall s",
                                                  "sklearn_loop_cpu_s": "scikit-learn loop CPU s"}),
    "startup": ("startup.csv", {"command": "command", "job_cpu_s": "job CPU s", "imports_cpu_s": "imports",
                                "eager_cpu_s": "eager", "libs_cpu_s": "libs"}),
    "panel-cpu": ("panel_cpu.csv", {c: c for c in ("study", "task", "rows", "before, CPU s", "after, CPU s",
                                                   "ratio")}),
}


def main() -> None:
    write_block(DOCS, "headlines", headlines_block())
    for name in TABLES:
        write_block(DOCS, name, table_block(name))


if __name__ == "__main__":
    main()
