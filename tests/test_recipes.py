"""The recipes of ``CONTRIBUTING.md`` performed as written (issue 43, Deliver 1).

Each test copies the repository's code (``src/``, ``workflow/``, ``Snakefile``, the configurations,
``docs/``, the tests it runs; not ``results/`` but the one committed table the reduced study reads,
its skew reference) into a temporary git repository, makes a small, real addition by the recipe's
steps, and then checks:

* the files it touched (``git status``) are files the recipe lists, no more than the number it states;
* ``snakemake -n`` on the reduced study (``tests/fixtures/config-reduced.yaml``) plans the new output
  (the registry makes the rule, the targets and the report's page; its caption is the file the recipe
  writes beside the workflow, ``workflow/report/captions/``);
* the new output's own check: the step run on a tiny input through ``prspace step`` (and ``prspace
  figure``), and the registry's invariants (``tests/core/test_registry.py``) with the new test in
  the copy, all in one Python process beside the dry run (seconds, not minutes).

The additions: a table of the row counts of the input of step ``auroc_bounds``; an experiment
``model_counts`` (the models per task, with a setting); a figure of the AUROC gaps of step
``auroc_bounds``; a ``px.*`` verdict row of that step in a new evidence table; a metric ``max_f1`` (the
largest F1 over the thresholds: not an area, so its blocks combine by ``max``), in every table and a
choice of ``analysis.metrics``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace.metrics import aupr, auprg, auroc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from test_contributing import RECIPE_TEXT, _files  # noqa: E402

SNAKEMAKE = Path(sys.executable).with_name("snakemake")
#: what the copy holds (the skew reference is an input of the reduced study, not a result of it)
COPIED = ("src", "workflow", "Snakefile", "config.yaml", "config", "docs", "pyproject.toml", "tests/conftest.py",
          "tests/fixtures", "tests/core/test_registry.py", "tests/figures/test_figures.py", "tests/metrics",
          "tests/_pyprg_compat.py", "results/paperlike/tables/tasks.csv")
#: the registry's invariants, on the reduced study
INVARIANTS = "reduced or one_constant or papers_step or every_figure_a_drawing"
STEP = "src/prspace/experiments/steps/auroc_bounds_step.py"
REGISTRY = "src/prspace/core/registry.py"
#: a report output's caption file, by kind (``tables`` or ``figures``) and name
CAPTION = "workflow/report/captions/{}/{}.rst"


# --- the copy, its edits and its checks ----------------------------------------------------------
def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=recipe", "-c", "user.email=recipe@localhost", "-c", "commit.gpgsign=false",
                           "-c", "init.defaultBranch=main", *args], cwd=repo,
                          capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the repository's code, committed, so that ``git status`` names what a recipe touched."""
    copy = tmp_path / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for item in COPIED:
        src, dst = ROOT / item, copy / item
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=ignore)
        else:
            shutil.copy2(src, dst)
    _git(copy, "init", "-q")
    _git(copy, "add", "-A")
    _git(copy, "commit", "-qm", "copy")
    return copy


def _edit(repo: Path, path: str, old: str, new: str) -> None:
    """Replace the one ``old`` of ``path`` by ``new`` (the recipe's edit; fails if the code moved)."""
    f = repo / path
    text = f.read_text()
    assert text.count(old) == 1, f"{path}: the recipe's anchor {old!r} is not there once"
    f.write_text(text.replace(old, new))


def _write(repo: Path, path: str, text: str) -> None:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)


def _touched(repo: Path) -> list[str]:
    _git(repo, "add", "-A")
    return sorted(_git(repo, "diff", "--cached", "--name-only").split())


def _check_count(repo: Path, title: str, subs: dict[str, str], most: int | None = None) -> list[str]:
    """The files touched are files the recipe lists (placeholders filled), no more than it states
    (or ``most``, a case the recipe counts lower)."""
    line, listed = _files(RECIPE_TEXT[title])
    stated = int(re.match(r"Files \((\d+)", line).group(1))
    filled = set()
    for p in listed:
        for key, value in subs.items():
            p = p.replace(key, value)
        filled.add(p)
    touched = _touched(repo)
    assert set(touched) <= filled, f"{title}: touched {sorted(set(touched) - filled)}, not in the recipe"
    assert len(touched) <= (stated if most is None else most), (title, touched)
    return touched


def _env(repo: Path) -> dict[str, str]:
    """The copy's package first; the outer run's extra pytest options are not the copy's (a plugin they
    name need not be importable there)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    return {**env, "PYTHONPATH": str(repo / "src")}


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), cwd=repo, env=_env(repo), capture_output=True, text=True, timeout=600)


def _dry_run(repo: Path, *config: str) -> subprocess.Popen:
    """``snakemake -n`` of the reduced study in the copy (``config``: ``--config`` items on top of it),
    started (:func:`_plan` waits for it)."""
    work = repo.parent / "study"
    work.mkdir(exist_ok=True)
    return subprocess.Popen([str(SNAKEMAKE), "--snakefile", str(repo / "Snakefile"), "--directory", str(work),
                             "--configfile", str(repo / "tests" / "fixtures" / "config-reduced.yaml"), "--cores", "1",
                             "-n", *(("--config", *config) if config else ())], cwd=repo, env=_env(repo),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _plan(run: subprocess.Popen) -> str:
    out, _ = run.communicate(timeout=600)
    assert run.returncode == 0, out[-3000:]
    return out


def _job(plan: str, rule: str) -> str:
    """The block of the dry run's plan for ``rule``."""
    m = re.search(rf"^(?:local)?rule {re.escape(rule)}:\n(.*?)(?=\n\n)", plan, flags=re.M | re.S)
    assert m, f"the dry run plans no job of rule {rule}"
    return m.group(1)


def _check(repo: Path, commands: list[list[str]], *tests: str) -> None:
    """In the copy, in one process: each ``prspace`` command line, then pytest on ``tests``."""
    script = (f"import sys\nimport pytest\nfrom prspace.cli import main\nfor argv in {commands!r}:\n"
              "    if main(argv):\n        sys.exit(f'prspace {argv} failed')\n"
              f"sys.exit(pytest.main({['-q', '-p', 'no:cacheprovider', '-p', 'no:xdist', *tests]!r}))\n")
    res = _run(repo, sys.executable, "-c", script)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]


def _metrics_csv(path: Path) -> pd.DataFrame:
    """A tiny metrics table: two tasks of 5 models, a top-1 disagreement planted on the small one."""
    rng = np.random.default_rng(5)
    rows = []
    for task, (p, n) in {"t-small": (8, 30), "t-big": (40, 160)}.items():
        y = np.r_[np.ones(p), np.zeros(n)]
        for j in range(5):
            s = rng.normal(rng.uniform(0.5, 1.5) * y, 1.0)
            rows.append({"task_id": task, "model_id": f"m{j}", "n": p + n, "n_pos": p, "auroc": auroc(y, s),
                         "aupr": aupr(y, s), "auprg": auprg(y, s)})
    m = pd.DataFrame(rows)
    m.loc[(m.task_id == "t-small") & (m.model_id == "m0"), ["auroc", "aupr"]] = [0.95, 0.50]
    m.loc[(m.task_id == "t-small") & (m.model_id == "m1"), ["auroc", "aupr"]] = [0.94, 0.90]
    m.to_csv(path, index=False)
    return m


def _step(repo: Path, name: str, *extra: str) -> list[str]:
    """``prspace step NAME`` on the tiny metrics table, writing under ``out/``."""
    return ["step", name, "--in", f"metrics={repo.parent / 'metrics.csv'}", "--tables-dir",
            str(repo.parent / "out" / "tables"), *extra]


# --- the recipes -----------------------------------------------------------------------------------
_ROWS_TABLE = '''AUROC_BOUNDS_ROWS = Table("auroc_bounds_rows", "Rows of the metrics table per task", _R)
LEARNER_RANKING = Table('''
_ROWS_CAPTION = "One row per task: ``n_models``, the number of models the metrics table scores on it.\n"


def test_a_table(repo):
    # 1. its declaration: the Table, in TABLES and in its step's tables; its caption file
    _edit(repo, REGISTRY, "LEARNER_RANKING = Table(", _ROWS_TABLE)
    _write(repo, CAPTION.format("tables", "auroc_bounds_rows"), _ROWS_CAPTION)
    _edit(repo, REGISTRY, "AUROC_BOUNDS, LEARNER_RANKING,", "AUROC_BOUNDS, AUROC_BOUNDS_ROWS, LEARNER_RANKING,")
    _edit(repo, REGISTRY, 'Step("auroc_bounds", (AUROC_BOUNDS,),', 'Step("auroc_bounds", (AUROC_BOUNDS, AUROC_BOUNDS_ROWS),')
    # 2. the step returns it
    _edit(repo, STEP, '''    table = flip_table(read_metrics_table(inputs["metrics"]))''', '''    metrics = read_metrics_table(inputs["metrics"])
    table = flip_table(metrics)
    rows = metrics.groupby("task_id").size().rename("n_models").reset_index()''')
    _edit(repo, STEP, "TableOut(R.AUROC_BOUNDS, out, NOTE, TITLE)]",
          'TableOut(R.AUROC_BOUNDS, out, NOTE, TITLE), TableOut(R.AUROC_BOUNDS_ROWS, rows, "Models per task.")]')
    assert _check_count(repo, "A table", {"<step module>": "auroc_bounds_step", "<name>": "auroc_bounds_rows"}) == [
        REGISTRY, STEP, CAPTION.format("tables", "auroc_bounds_rows")]

    dry = _dry_run(repo)
    # its check: the step on a tiny input writes the counts (pandas' value_counts the oracle)
    m = _metrics_csv(repo.parent / "metrics.csv")
    _check(repo, [_step(repo, "auroc_bounds")], "tests/core/test_registry.py", "-k", INVARIANTS)
    out = repo.parent / "out"
    rows = pd.read_csv(out / "tables" / "auroc_bounds_rows.csv")
    assert dict(zip(rows.task_id, rows.n_models, strict=True)) == m.task_id.value_counts().to_dict()
    assert (out / "tables" / "auroc_bounds_rows.md").is_file()
    plan = _plan(dry)
    job = _job(plan, "auroc_bounds")
    assert "results/reduced/tables/auroc_bounds_rows.csv" in job and "results/reduced/tables/auroc_bounds_rows.md" in job
    assert "work/reduced/report/auroc_bounds_rows.html" in _job(plan, "report_tables")
    # the report reads the caption file where the recipe wrote it
    caption = _run(repo, sys.executable, "-c", "from prspace.core import registry as R; from prspace.study.study_plan "
                   "import caption_file; print(caption_file(R.AUROC_BOUNDS_ROWS))")
    assert Path(caption.stdout.strip()) == repo / CAPTION.format("tables", "auroc_bounds_rows"), caption.stderr
    assert Path(caption.stdout.strip()).read_text() == _ROWS_CAPTION


_EXPERIMENT = '''"""Step ``model_counts``: how many models each task scores, and whether it has ``min_models``
(the example of CONTRIBUTING.md's experiment recipe, made by ``tests/test_recipes.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import read_metrics_table
from prspace.core.steps import StepOutput, TableOut


class ModelCountsInputs(TypedDict):
    metrics: Path


def model_counts(metrics: pd.DataFrame, min_models: int) -> pd.DataFrame:
    n = metrics.groupby("task_id", sort=True)["model_id"].nunique()
    return pd.DataFrame({"task_id": n.index, "n_models": n.to_numpy(), "enough": n.to_numpy() >= min_models})


def model_counts_step(inputs: ModelCountsInputs, *, min_models: int = 2) -> StepOutput:
    table = model_counts(read_metrics_table(inputs["metrics"]), min_models)
    return StepOutput(tables=[TableOut(R.MODEL_COUNTS, table, f"enough: at least {min_models} models.")])
'''
_EXPERIMENT_TEST = '''import pandas as pd

from prspace.experiments.steps.model_counts_step import model_counts


def test_model_counts_are_pandas_distinct_models_per_task():
    m = pd.DataFrame({"task_id": ["a", "a", "a", "b", "b"], "model_id": ["x", "y", "z", "x", "x"]})
    t = model_counts(m, 2)
    assert dict(zip(t.task_id, t.n_models)) == m.groupby("task_id").model_id.nunique().to_dict() == {"a": 3, "b": 1}
    assert t.enough.tolist() == [True, False]
'''


def test_an_experiment(repo):
    name = "model_counts"
    # 1. the science and its step
    _write(repo, f"src/prspace/experiments/steps/{name}_step.py", _EXPERIMENT)
    # 2. its table and its Step in the registry, the table's caption file
    _edit(repo, REGISTRY, "LEARNER_RANKING = Table(", '''MODEL_COUNTS = Table("model_counts", "Models per task", _D)
LEARNER_RANKING = Table(''')
    _write(repo, CAPTION.format("tables", name), "One row per task: ``n_models`` scored and ``enough``, whether that "
           "is at least ``analysis.model_counts.min_models``.\n")
    _edit(repo, REGISTRY, "FIGURE_SELECTION, METRICS, NOISE_FLOOR_PER_TASK", "FIGURE_SELECTION, METRICS, MODEL_COUNTS, NOISE_FLOOR_PER_TASK")
    _edit(repo, REGISTRY, "STEP_RANK_SETS = Step(", f'''STEP_MODEL_COUNTS = Step("{name}", (MODEL_COUNTS,), run="prspace.experiments.steps.{name}_step:{name}_step",
    description="Models per task and whether each task has enough.",
    inputs=_pairs(metrics=METRICS), settings=_pairs(min_models="analysis.model_counts.min_models"))
STEP_RANK_SETS = Step(''')
    _edit(repo, REGISTRY, "STEP_AUROC_BOUNDS, STEP_RANK_SETS,", "STEP_AUROC_BOUNDS, STEP_MODEL_COUNTS, STEP_RANK_SETS,")
    # 3. its setting with its one default
    _edit(repo, "workflow/schemas/config.schema.yaml", "      panel_draws:\n", '''      model_counts:
        type: object
        additionalProperties: false
        default: {}
        description: Models per task (prspace step model_counts).
        properties:
          min_models: {type: integer, minimum: 1, default: 2, description: "Fewest models a task needs."}
      panel_draws:
''')
    # 4. its test; 5. its section of the docs
    _write(repo, f"tests/experiments/test_{name}.py", _EXPERIMENT_TEST)
    with open(repo / "docs" / "analysis.md", "a") as f:
        f.write("\n## Models per task\n\n`model_counts.csv`: the models each task scores (`prspace step model_counts`).\n")
    _check_count(repo, "An experiment", {"<name>": name})
    assert len(_touched(repo)) == 6

    dry = _dry_run(repo)
    # its check: the step on a tiny input with the setting from the command line, and its test
    m = _metrics_csv(repo.parent / "metrics.csv")
    _check(repo, [_step(repo, name, "--set", "min_models=6")], f"tests/experiments/test_{name}.py",
           "tests/core/test_registry.py", "-k", f"{INVARIANTS} or {name}")
    t = pd.read_csv(repo.parent / "out" / "tables" / "model_counts.csv")
    assert dict(zip(t.task_id, t.n_models, strict=True)) == m.groupby("task_id").model_id.nunique().to_dict()
    assert not t.enough.any()
    job = _job(_plan(dry), name)
    assert "results/reduced/tables/model_counts.csv" in job and "results/reduced/tables/metrics.csv" in job


_FIGURE = '''"""The AUROC gap of each top-1 disagreement beside the largest gap that would still permit it
(the example of CONTRIBUTING.md's figure recipe, made by ``tests/test_recipes.py``). Layout only."""

from __future__ import annotations

from matplotlib.figure import Figure

from prspace.figures.study import FigureInput


def draw(given: FigureInput) -> Figure:
    (gaps,) = given.data
    fig = Figure(figsize=(3.3, 2.6))
    ax = fig.add_subplot()
    for metric, sub in gaps.groupby("metric"):
        ax.scatter(sub["max_flip_gap"], sub["auroc_gap"], s=12, label=str(metric))
    ax.set_xlabel("largest AUROC gap that permits the flip")
    ax.set_ylabel("AUROC gap")
    ax.legend()
    return fig
'''
_FIGURE_TEST = '''

def test_auroc_bounds_gaps_draws_one_point_per_disagreement():
    from prspace.figures.auroc_bounds_gaps import draw
    from prspace.figures.study import FigureInput

    t = pd.DataFrame({"task_id": ["a", "b"], "metric": ["aupr", "auprg"], "auroc_gap": [0.01, 0.02],
                      "max_flip_gap": [0.05, 0.04]})
    points = np.vstack([c.get_offsets() for c in draw(FigureInput([t])).axes[0].collections])
    assert sorted(map(tuple, points.tolist())) == [(0.04, 0.02), (0.05, 0.01)]
'''


def test_a_figure(repo):
    name = "auroc_bounds_gaps"
    # 1. its table and itself in the registry, its step in STEPS after the step of its table
    _edit(repo, REGISTRY, "\n\n# --- figures (results/<study>/figures)", f'\n{name.upper()} = FigureData("{name}")\n\n\n# --- figures (results/<study>/figures)')
    _edit(repo, REGISTRY, "\n#: Boyd et al.'s Figures 1-4, each drawn", f'''FIGURE_{name.upper()} = Figure("{name}", ({name.upper()},), draw="prspace.figures.{name}:draw")

#: Boyd et al.'s Figures 1-4, each drawn''')
    _write(repo, CAPTION.format("figures", name), "Each top-1 disagreement with AUROC: its AUROC gap against the "
           "largest gap that would still permit it.\n")
    _edit(repo, REGISTRY, 'Step("auroc_bounds", (AUROC_BOUNDS,),', f'Step("auroc_bounds", (AUROC_BOUNDS,), ({name.upper()},),')
    _edit(repo, REGISTRY, "STEP_RANK_SETS = Step(", f"STEP_FIGURE_{name.upper()} = _figure_step(FIGURE_{name.upper()})\nSTEP_RANK_SETS = Step(")
    _edit(repo, REGISTRY, "STEP_AUROC_BOUNDS, STEP_RANK_SETS,", f"STEP_AUROC_BOUNDS, STEP_FIGURE_{name.upper()}, STEP_RANK_SETS,")
    # 2. the step returns its table
    _edit(repo, STEP, "return StepOutput(tables=[TableOut(R.AUROC_BOUNDS, out, NOTE, TITLE)])",
          f'''gaps = table[table["top1_differs"].astype(bool)][["task_id", "metric", "auroc_gap", "max_flip_gap"]]
    return StepOutput(tables=[TableOut(R.AUROC_BOUNDS, out, NOTE, TITLE)], figure_data=[(R.{name.upper()}, gaps)])''')
    # 3. the drawing; 4. its test
    _write(repo, f"src/prspace/figures/{name}.py", _FIGURE)
    with open(repo / "tests" / "figures" / "test_figures.py", "a") as f:
        f.write(_FIGURE_TEST)
    _check_count(repo, "A figure", {"<name>": name, "<step module>": "auroc_bounds_step"})
    assert len(_touched(repo)) == 5

    dry = _dry_run(repo)
    # its check: the step writes its table, `prspace figure` draws it, and its test
    _metrics_csv(repo.parent / "metrics.csv")
    out = repo.parent / "out"
    gaps = out / "fd" / f"{name}.csv"
    _check(repo, [_step(repo, "auroc_bounds", "--figure-data-dir", str(out / "fd")),
                  ["figure", name, "--tables", str(gaps), "--out", str(out / "fig.png"), "--formats", "png"]],
           "tests/figures/test_figures.py", "tests/core/test_registry.py", "-k", f"{INVARIANTS} or {name}")
    assert len(pd.read_csv(gaps)) >= 1  # the planted disagreement
    assert (out / "fig.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    plan = _plan(dry)
    assert f"work/reduced/figure_data/{name}.csv" in _job(plan, "auroc_bounds")
    job = _job(plan, f"figure_{name}")
    assert f"results/reduced/figures/{name}.png" in job and f"results/reduced/figures/{name}.pdf" in job


_ROW_TEST = '''import numpy as np
import pandas as pd

from prspace.experiments.steps.auroc_bounds_step import auroc_bounds_step
from prspace.metrics import aupr, auprg, auroc


def test_the_px_row_counts_the_disagreements_the_bound_does_not_permit(tmp_path):
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(8), np.zeros(30)]
    rows = []
    for j in range(4):
        s = rng.normal(y, 1.0)
        rows.append({"task_id": "t", "model_id": f"m{j}", "n": 38, "n_pos": 8, "auroc": auroc(y, s),
                     "aupr": aupr(y, s), "auprg": auprg(y, s)})
    m = pd.DataFrame(rows)
    m.loc[0, ["auroc", "aupr"]] = [0.95, 0.50]  # planted: m0 best by AUROC, m1 best by AUPR
    m.loc[1, ["auroc", "aupr"]] = [0.94, 0.90]
    m.to_csv(tmp_path / "m.csv", index=False)
    out = auroc_bounds_step({"metrics": tmp_path / "m.csv"})
    (ev,) = [t.frame for t in out.tables if t.table.name == "auroc_bounds_evidence"]
    row = ev.set_index("claim_id").loc["px.auroc_bounds.permitted"]
    flips = [t.frame for t in out.tables if t.table.name == "auroc_bounds"][0]
    flips = flips[(flips.task_id != "all") & flips.top1_differs.astype(bool)]
    assert row.n == len(flips) >= 1 and row.k == (~flips.permitted.astype(bool)).sum() == 0
'''


def test_a_verdict_row(repo):
    # 2. the row, in the step that computes the evidence (a px.* row: no claim, no label)
    _edit(repo, STEP, "from prspace.core.contracts import read_metrics_table",
          "from prspace.core.contracts import read_metrics_table\nfrom prspace.core.evidence import evidence_frame, evidence_row")
    _edit(repo, STEP, "    return StepOutput(tables=[TableOut(R.AUROC_BOUNDS, out, NOTE, TITLE)])", '''    flips = table[table["top1_differs"].astype(bool)]
    k, n = int((~flips["permitted"].astype(bool)).sum()), len(flips)
    row = evidence_row(paper="prspace", claim_id="px.auroc_bounds.permitted", kind="bound", k=k, n=n,
                       claim="every observed top-1 disagreement with AUROC is permitted by the AUROC bound",
                       estimate=k / n if n else float("nan"), detail="flips the exact bound does not permit")
    return StepOutput(tables=[TableOut(R.AUROC_BOUNDS, out, NOTE, TITLE),
                              TableOut(R.AUROC_BOUNDS_EVIDENCE, evidence_frame([row]), "Evidence row.")])''')
    # 3. a new evidence table: its Table, its step's tables and evidence, EVIDENCE_ROWS; its caption file
    _edit(repo, REGISTRY, "LEARNER_RANKING = Table(", '''AUROC_BOUNDS_EVIDENCE = Table("auroc_bounds_evidence", "Evidence rows: the AUROC bound and the observed flips", _R)
LEARNER_RANKING = Table(''')
    _write(repo, CAPTION.format("tables", "auroc_bounds_evidence"), "One evidence row: of the top-1 disagreements "
           "with AUROC, how many the exact AUROC bound does not permit (``k`` of ``n``).\n")
    _edit(repo, REGISTRY, "AUROC_BOUNDS, LEARNER_RANKING,", "AUROC_BOUNDS, AUROC_BOUNDS_EVIDENCE, LEARNER_RANKING,")
    _edit(repo, REGISTRY, 'Step("auroc_bounds", (AUROC_BOUNDS,),',
          'Step("auroc_bounds", (AUROC_BOUNDS, AUROC_BOUNDS_EVIDENCE), evidence=(AUROC_BOUNDS_EVIDENCE,),')
    _edit(repo, REGISTRY, "FK_EVIDENCE, BOYD_EVIDENCE)", "FK_EVIDENCE, BOYD_EVIDENCE, AUROC_BOUNDS_EVIDENCE)")
    # 5. the row from a planted case in the step's test
    _write(repo, "tests/experiments/test_auroc_bounds_step.py", _ROW_TEST)
    _check_count(repo, "A verdict row", {"<package>/<module>": "steps/auroc_bounds_step", "<module>": "auroc_bounds_step",
                                         "<name>": "auroc_bounds_evidence"}, most=4)

    dry = _dry_run(repo)
    _metrics_csv(repo.parent / "metrics.csv")
    _check(repo, [_step(repo, "auroc_bounds")], "tests/experiments/test_auroc_bounds_step.py",
           "tests/core/test_registry.py", "-k", f"{INVARIANTS} or px_row")
    ev = pd.read_csv(repo.parent / "out" / "tables" / "auroc_bounds_evidence.csv")
    assert ev.claim_id.tolist() == ["px.auroc_bounds.permitted"] and ev.k.tolist() == [0] and ev.n.iloc[0] >= 1
    plan = _plan(dry)
    assert "results/reduced/tables/auroc_bounds_evidence.csv" in _job(plan, "auroc_bounds")
    # rule verdicts reads it (prspace.study.study_plan.verdict_inputs)
    assert "results/reduced/tables/auroc_bounds_evidence.csv" in _job(plan, "verdicts")


_MAX_F1_KERNEL = '''@_blockwise(reduce=max)
def _max_f1_from(g: _Segments) -> float:
    """The largest F1 = 2 TP / (TP + FP + P) over the thresholds: at a segment's end (a group of negatives
    only adds FP, so F1 falls there).  Not an area: the blocks of a long input combine by ``max``."""
    tpb = g.tpa + g.dtp
    return float(np.max(2.0 * tpb / (tpb + g.fpa + g.dfp + g.n_pos)))


def max_f1(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """The largest F1 score over the thresholds, max_k 2 P_k R_k / (P_k + R_k) (van Rijsbergen 1979).

    >>> from prspace.metrics import max_f1
    >>> max_f1([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])  # the top four: P = 3/4, R = 1
    0.8571428571428571
    """
    return _max_f1_from(_segments(y_true, y_score, pos_label, sample_weight))


def aupr(
'''
_MAX_F1_TEST = '''

def test_max_f1_equals_scikit_learns_best_f1():
    from prspace.metrics._kernel import _CHUNK

    rng = np.random.default_rng(3)
    for n, decimals in ((50, 1), (400, 2), (3 * _CHUNK, 12)):  # the last: more segments than one block
        y = rng.random(n) < 0.4
        y[:2] = [True, False]
        s = np.round(rng.normal(y * 1.0, 1.0), decimals)
        for w in (None, rng.integers(1, 4, n).astype(float)):
            p, r, _ = skm.precision_recall_curve(y, s, sample_weight=w)
            f1 = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0)
            assert M.max_f1(y, s, sample_weight=w) == pytest.approx(f1.max(), abs=1e-12), (n, w is None)
'''
#: in the copy: the metrics table of three models' predictions (step ``score``'s science) and their ranks by
#: the new metric (step ``rank``'s science)
_MAX_F1_OUTPUT = '''
import sys
import numpy as np
import pandas as pd
from prspace.core.schema import TaskInfo
from prspace.experiments.fk.scoring import score_task
from prspace.experiments.ranking.ranks import rank_models

out = sys.argv[1]
rng = np.random.default_rng(11)
n = 120
y = np.r_[np.ones(30, dtype=bool), np.zeros(n - 30, dtype=bool)]
pred = pd.concat([pd.DataFrame({"task_id": "t", "model_id": f"m{j}", "flow_id": j, "flow_name": f"f{j}", "repeat": 0,
                                "fold": np.arange(n) % 3, "row_id": np.arange(n), "y_true": y,
                                "score": np.round(rng.normal(y * (0.5 + j), 1.0), 2)}) for j in range(3)],
                 ignore_index=True)
pred.to_csv(out + "/predictions.csv", index=False)
task = TaskInfo(task_id="t", source="local", dataset_id="0", dataset_name="t", n=n, n_pos=30, positive_class="1",
                estimation_procedure="3-fold", n_folds=3, n_repeats=1, n_models=3, provenance="test_recipes",
                created_at="2026-01-01T00:00:00Z")
per_model, _ = score_task(pred, task)
per_model.to_csv(out + "/metrics.csv", index=False)
rank_models(per_model, ["aupr", "max_f1"]).to_csv(out + "/ranks.csv", index=False)
'''


def _best_f1(y, s) -> float:
    """scikit-learn's best F1 over the thresholds of its PR curve (the oracle of ``max_f1``)."""
    from sklearn.metrics import precision_recall_curve

    p, r, _ = precision_recall_curve(y, s)
    return float(np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0).max())


def test_a_metric(repo):
    pr, head, init, names = ("src/prspace/metrics/pr.py", "src/prspace/metrics/headline.py",
                             "src/prspace/metrics/__init__.py", "src/prspace/metrics/names.py")
    # 1. the public function and its private one on the segments, @_blockwise(reduce=max); re-exported
    _edit(repo, pr, "\n\ndef aupr(\n", "\n\n" + _MAX_F1_KERNEL)
    _edit(repo, pr, '"interpolate_pr_curve"]', '"interpolate_pr_curve", "max_f1"]')
    _edit(repo, init, "    interpolate_pr_curve,\n    pr_curve,\n)", "    interpolate_pr_curve,\n    max_f1,\n    pr_curve,\n)")
    _edit(repo, init, '    "auprg",\n', '    "auprg",\n    "max_f1",\n')
    # 2. both kernels
    _edit(repo, head, "_aupr_linear, _psi\n", "_aupr_linear, _max_f1_from, _psi\n")
    _edit(repo, head, '        out["auprg"] = min(_auprg_from(g), 1.0)\n',
          '        out["auprg"] = min(_auprg_from(g), 1.0)\n    if "max_f1" in want:\n        out["max_f1"] = _max_f1_from(g)\n')
    _edit(repo, head, '            out["auprg"] = _auprg_batch(seg, tpa, fpa, tpb, fpb, p, nn, alone)\n',
          '            out["auprg"] = _auprg_batch(seg, tpa, fpa, tpb, fpb, p, nn, alone)\n'
          '        if "max_f1" in want:  # _max_f1_from, per resample\n'
          '            out["max_f1"] = np.max(np.where(seg, 2.0 * tpb / (tpb + fpb + p), 0.0), axis=0)\n')
    # 3. its key and label; 4. the enum of analysis.metrics
    _edit(repo, names, '"aupr_linear", "aucnpr", "auprg")\n', '"aupr_linear", "aucnpr", "auprg", "max_f1")\n')
    _edit(repo, names, '    "aupr_linear": "AUPR (linear)",\n}', '    "aupr_linear": "AUPR (linear)",\n    "max_f1": "max F1",\n}')
    _edit(repo, "workflow/schemas/config.schema.yaml", "aupr_linear, aucnpr, auprg]}", "aupr_linear, aucnpr, auprg, max_f1]}")
    # 5. its oracle test; 6. the docs and the metrics table's caption
    with open(repo / "tests" / "metrics" / "test_metrics.py", "a") as f:
        f.write(_MAX_F1_TEST)
    _edit(repo, "docs/architecture.md", "aucnpr, auprg, pi, n_pos, n_neg`", "aucnpr, auprg, max_f1, pi, n_pos, n_neg`")
    _edit(repo, "docs/architecture.md", "| `auroc, average_precision, aupr, aupr_linear, aucnpr, auprg` |",
          "| `auroc, average_precision, aupr, aupr_linear, aucnpr, auprg, max_f1` |")
    _edit(repo, "docs/architecture.md", "and the six metrics", "and the seven metrics")
    _edit(repo, "workflow/report/captions/tables/metrics.rst", "``aupr_linear, aucnpr, auprg`` are",
          "``aupr_linear, aucnpr, auprg, max_f1`` are")
    assert len(_check_count(repo, "A metric", {"<family>": "pr"})) == 8

    # the study plans with the metric chosen to rank by (the schema's enum takes it)
    dry = _dry_run(repo, "analysis={'metrics': ['aupr', 'max_f1']}")
    out = repo.parent / "out"
    out.mkdir()
    res = _run(repo, sys.executable, "-c", _MAX_F1_OUTPUT, str(out))
    assert res.returncode == 0, res.stderr[-3000:]
    # its checks: its oracle test and every key's (both kernels, the schema, the docs, doctests, bad input,
    # ties, weights, invariances), and the registry's invariants
    props = "tests/metrics/test_metrics_properties.py::test_"  # those that check every key of all_metrics
    _check(repo, [], "tests/metrics/test_metric_keys.py", "tests/metrics/test_metrics_doctests.py",
           "tests/metrics/test_metrics_errors.py", f"{props}invariant_under_strictly_increasing_transforms",
           f"{props}row_order_does_not_matter", f"{props}integer_weights_equal_repeated_rows",
           "tests/metrics/test_metrics.py::test_max_f1_equals_scikit_learns_best_f1",
           "tests/metrics/test_metrics.py::test_all_metrics_keys_and_consistency", "tests/core/test_registry.py", "-k",
           f"{INVARIANTS} or not test_registry")
    # the metrics table's new columns against scikit-learn, and the ranks by it
    m = pd.read_csv(out / "metrics.csv").set_index("model_id")
    assert {"max_f1", "max_f1_fold_mean", "max_f1_fold_std"} <= set(m.columns)
    pred = pd.read_csv(out / "predictions.csv")
    for model, g in pred.groupby("model_id"):
        assert m.loc[model, "max_f1"] == pytest.approx(_best_f1(g.y_true, g.score), abs=1e-12), model
        folds = [_best_f1(f.y_true, f.score) for _, f in g.groupby("fold")]
        assert m.loc[model, "max_f1_fold_mean"] == pytest.approx(np.mean(folds), abs=1e-12), model
    ranks = pd.read_csv(out / "ranks.csv").set_index("model_id")
    assert ranks.max_f1.to_dict() == m.max_f1.rank(ascending=False).to_dict()
    assert "results/reduced/tables/metrics.csv" in _job(_plan(dry), "rank")
