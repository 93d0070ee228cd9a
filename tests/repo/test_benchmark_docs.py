"""docs/benchmarks.md's generated blocks are what their scripts write from the committed benchmark files."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "benchmarks.md").read_text()


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _block(marker: str) -> str:
    m = re.search(rf"<!-- {marker}:start -->\n(.*?)\n<!-- {marker}:end -->", DOCS, flags=re.S)
    assert m, f"docs/benchmarks.md has no {marker} block"
    return m[1]


def test_openml_loopback_block_is_the_scripts():
    bench = _script("bench_openml_loopback")
    summary = pd.read_csv(ROOT / "benchmarks" / "openml_loopback_summary.csv")
    ext = json.loads((ROOT / "benchmarks" / "openml_loopback_extrapolation.json").read_text())
    assert _block("openml-loopback") == bench.docs_block(summary, ext)
    assert f"{ext['gb_total']:.2f} GB" in _block("openml-loopback")
    assert (summary["max_in_flight"] <= summary["cap"]).all()  # the politeness cap held at every size
    openml_md = (ROOT / "docs" / "openml.md").read_text()
    m = re.search(r"<!-- openml-forecast:start -->\n(.*?)\n<!-- openml-forecast:end -->", openml_md, flags=re.S)
    assert m and m[1] == bench.forecast_block(ext)


def test_openml_whole_draw_block_is_the_scripts():
    bench = _script("bench_openml_loopback")
    t = pd.read_csv(ROOT / "benchmarks" / "openml_loopback_whole.csv")
    assert _block("openml-loopback-whole") == bench.whole_block(t)
    assert int(t["tasks"].iloc[-1]) == 886 and (t["max_in_flight"] <= t["cap"]).all()


def test_audit_real_block_is_the_scripts():
    """Issue 59's table (untied and tied scores, wide and long) is the script's, from its CSV; a cell's multiple is
    the CSV's seconds divided by the baseline's (the default's for `--out`)."""
    bench = _script("bench_audit_scale")
    t = pd.read_csv(ROOT / "benchmarks" / "audit_real.csv")
    assert _block("audit-real") == bench.docs_block(t)
    assert {100_000, 1_000_000} <= {int(r) for r in t["rows"]}
    at = t[(t["rows"] == 1_000_000) & (t["file"] == "wide-untied")].set_index("command")["seconds"]
    row = next(x for x in _block("audit-real").splitlines() if x.startswith("| 1,000,000 | wide-untied |"))
    assert f"| {at['default'] / at['baseline']:.2f} |" in row and f"| {at['--out'] / at['default']:.2f} |" in row


def test_jack_bins_block_is_the_scripts():
    """Scores binned for the resampling (issue 59): the block is the script's, from its CSV and the commit it names."""
    bench = _script("bench_jack_bins")
    t = pd.read_csv(ROOT / "benchmarks" / "jack_bins.csv")
    assert _block("jack-bins") == bench.docs_block(t, str(t["commit"].iloc[-1]))


def test_power_time_block_is_the_scripts():
    """`prspace power` before and after (issue 59) is the script's table and answers, from its two CSVs: the answers
    (`power_answers.csv`) are of the timed run (`power_time.csv`), one set per command and tree, and where an answer
    moved the block says so and the trees' stdout differs; the text after the block types no number of its own."""
    bench = _script("bench_power_time")
    t = pd.read_csv(ROOT / "benchmarks" / "power_time.csv")
    answers = bench.read_answers(ROOT / "benchmarks" / "power_answers.csv")
    block = _block("power-time")
    assert block == bench.docs_block(t, answers)
    assert set(t["label"]) == {"before", "after"} and t.loc[t["label"] == "before", "same_answer"].all()
    assert t["same_answer"].all() or "**The answers are not byte-identical**" in block
    if answers is None:
        answers = pd.DataFrame(columns=bench.ANSWER_COLUMNS)
    assert list(answers.columns) == bench.ANSWER_COLUMNS
    run = answers[(answers["commit"] == t["commit"].iloc[0]) & (answers["started"] == t["started"].iloc[0])]
    assert len(run) == len(answers), "power_answers.csv holds answers of another run than power_time.csv"
    if not len(run):
        assert "were not recorded in this run" in block
    else:  # the answers of the timed run: every command and tree of it
        ran = set(zip(t["command"], t["label"], strict=True))
        assert set(zip(run["command"], run["label"], strict=True)) == ran
        for command, a in run.groupby("command"):  # moved as printed: needed, power, smallest difference
            shown = {lab: sorted((r["task"], r["metric"], r["size"], *(fmt(r[col], r["cap"]) for col, _, fmt in
                                                                      bench.ANSWERS)) for r in g.to_dict("records"))
                     for lab, g in a.groupby("label")}
            moved = len({tuple(v) for v in shown.values()}) > 1
            assert not moved or not t.loc[t["command"] == command, "same_answer"].all()
            line = block.split(f"* `{command}`", 1)[1].split("\n", 1)[0]
            assert ("no answer moved" not in line) == moved
    prose = DOCS.split("<!-- power-time:end -->", 1)[1].split("\n## ", 1)[0]
    prose = re.sub(r"`[^`]*`|\bissues? \d+", "", prose)  # code, commits and branch names, issue numbers
    assert not re.search(r"\d", prose), "a number typed after the power-time block: generate it into the block"


def test_power_bins_block_is_the_scripts():
    """What binning a planned test set moves (issue 59) is the script's table, from its CSV; `POWER_BINS` is the fewest
    bins the CSV shows under the allowance in every case (the reference, 512, when none is), every case measured at
    every bins; the text after the block types no number of its own."""
    from prspace.audit.simulation.power_tests import POWER_BINS

    bench = _script("bench_power_bins")
    t = pd.read_csv(ROOT / "benchmarks" / "power_bins.csv")
    block = _block("power-bins")
    assert block == bench.docs_block(t)
    pick = bench.chosen_bins(t)
    assert POWER_BINS == (int(t["ref_bins"].iloc[0]) if pick is None else pick)
    cases = t.groupby(["population", "unit", "metric", "size"])["bins"].apply(lambda b: sorted(map(str, b)))
    assert all(b == sorted(map(str, ["exact", *sorted({x for x in t["bins"]} - {"exact"})])) for b in cases)
    assert set(t["unit"]) == {"positives", "groups"} and t["pi"].min() < 0.1 < t["pi"].max()
    prose = DOCS.split("<!-- power-bins:end -->", 1)[1].split("\n#", 1)[0]
    prose = re.sub(r"`[^`]*`|\bissues? \d+", "", prose)
    assert not re.search(r"\d", prose), "a number typed after the power-bins block: generate it into the block"


def test_make_run_block_is_the_scripts():
    """`make run` side by side (issue 60): the block is the script's, from `benchmarks/make_run.csv`, and
    judges the run labelled after against the one labelled before."""
    bench = _script("bench_make_run")
    t = pd.read_csv(ROOT / "benchmarks" / "make_run.csv", keep_default_na=False)
    assert _block("make-run") == bench.block(t, "before", "after")
    assert {"before", "after"} <= set(t["label"])


def test_make_test_block_is_the_scripts():
    """`make test` from fresh clones (issue 60): the block is the script's, from `benchmarks/make_test.csv`."""
    bench = _script("bench_make_run")
    t = pd.read_csv(ROOT / "benchmarks" / "make_test.csv", keep_default_na=False)
    assert _block("make-test") == bench.test_block(t, "after")


def test_predict_batch_block_is_the_scripts():
    """One process for every task's predictions (issue 60): the block is the script's, from its CSV, whose
    summary rows are the script's arithmetic over its study rows and the two make-run rows it names."""
    import csv

    bench = _script("bench_predict_batch")
    with (ROOT / "benchmarks" / "predict_batch.csv").open() as fh:
        table = list(csv.DictReader(fh))
    assert _block("predict-batch") == bench.docs_block(table)
    studies = [r for r in table if r["study"] != "both"]
    again = bench.summary(studies, ROOT / "benchmarks" / "make_run.csv", table[-1]["make_run_after"],
                          table[-1]["make_run_before"])
    def filled(rows):
        return [{k: str(v) for k, v in r.items() if str(v) != ""} for r in rows]

    assert filled(again) == filled(table)
    assert all(r["same_results_as_per_task"] == "yes" for r in table)


def test_cpu_by_command_block_is_the_scripts():
    """A whole make run's CPU by command (issue 60): the block is the script's, from its CSV, beside the make-run
    table's `before` row; each run's rows add up to its GNU-time total (the last row is the rest, not Python)."""
    bench = _script("bench_cpu_by_command")
    table = pd.read_csv(ROOT / "benchmarks" / "cpu_by_command.csv")
    runs = pd.read_csv(ROOT / "benchmarks" / "make_run.csv")
    label = str(table["label"].iloc[-1])
    batch = pd.read_csv(ROOT / "benchmarks" / "predict_batch.csv")
    assert _block("cpu-by-command") == bench.docs_block(table, runs, label, batch=batch)
    for _, t in table.groupby("label"):
        assert abs(t["cpu_s"].sum() - t["run_cpu_s"].iloc[0]) < 0.1 * len(t)
        assert t["command"].iloc[-1] == bench.OTHER_PROCESSES and (t["cpu_s"] > 0).all()


def test_cpu_by_command_counts_a_process_once():
    """A process whose parent is in the log is counted in its parent's line; Snakemake counts its own CPU only."""
    bench = _script("bench_cpu_by_command")
    recs = [{"argv": ["/v/snakemake", "--cores"], "self": 5.0, "children": 100.0, "pid": 1, "ppid": 0},
            {"argv": ["/src/prspace/__main__.py", "step", "verdicts"], "self": 2.0, "children": 6.0, "pid": 2, "ppid": 1},
            {"argv": ["/src/prspace/__main__.py", "step", "verdicts"], "self": 6.0, "children": 0.0, "pid": 3, "ppid": 2},
            {"argv": ["/py/venv/__main__.py", ".venv"], "self": 1.0, "children": 0.0, "pid": 4, "ppid": 9}]
    t = bench.by_command(recs).set_index("command")
    assert t.loc["snakemake (its own)", "cpu_s"] == 5.0
    assert t.loc["python: venv", "cpu_s"] == 1.0
    # the job (a child of Snakemake) has its own line, its pool worker (pid 3) counted in it, once
    assert t.loc["prspace step verdicts", "cpu_s"] == 8.0 and t.loc["prspace step verdicts", "processes"] == 1


def test_page_is_current_figures_within_400_lines():
    """Issue 78: the page is its current figures, at most 400 lines, the headline table first; every block on it is
    one a test here checks against its script (no block left from a removed section)."""
    assert len(DOCS.splitlines()) <= 400
    assert DOCS.index("<!-- headlines:start -->") < DOCS.index("\n## ", DOCS.index("## Current figures") + 1)
    blocks = set(re.findall(r"<!-- ([a-z-]+):start -->", DOCS))
    here = (ROOT / "tests" / "repo" / "test_benchmark_docs.py").read_text()
    assert all(f'"{b}"' in here for b in blocks), blocks


def test_headline_and_recorded_tables_are_the_scripts():
    """The current-figures table and the tables of recorded measurements are `bench_headlines.py`'s, from the CSVs;
    the README commands are timed in that table and in no other section's prose."""
    bench = _script("bench_headlines")
    assert _block("headlines") == bench.headlines_block()
    for name in ("metrics", "rank-uncertainty", "startup", "panel-cpu"):
        assert _block(name) == bench.table_block(name)
    for cmd in ("make run", "make test", "make check", "make verify"):
        assert f"| `{cmd}`: " in _block("headlines")


def test_headline_figures_are_the_csvs():
    """Spot checks of the headline table against its CSVs, computed here another way."""
    block = _block("headlines")
    panel = pd.read_csv(ROOT / "benchmarks" / "panel_cpu.csv")
    ratio = panel.loc[panel["in_default"], "cpu_s"].sum() / panel.loc[panel["in_before"], "cpu_s"].sum()
    assert f"= {ratio:.2f} |" in block
    run = pd.read_csv(ROOT / "benchmarks" / "make_run.csv").set_index("label").loc["after"]
    assert f"{int(run['wall_s'] // 60)} min {run['wall_s'] % 60:.0f} s wall, {run['user_s'] + run['sys_s']:,.0f} CPU s" in block
    metrics = pd.read_csv(ROOT / "benchmarks" / "metrics.csv").query("n == 1000000")
    assert f"{(metrics['all_metrics_ms'] / metrics['argsort_ms']).max():.2f} x one" in block
