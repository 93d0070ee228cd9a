"""Benchmark: the fixed cost of a workflow job (issue 33), per command, side by side in one run.

Every per-task rule starts ``python -m prspace COMMAND`` (``workflow/rules/study.smk``,
``boyd.smk``), so each job pays Python's start and its imports before any work.  For each
command the workflow ran once per task (``predict-local``, ``step score``, ``boyd fold-skew``,
``boyd downsample``; the last two now run once for all tasks, the first still once per task) and for
``prspace --help``, this script runs the command for real on one
small embedded task (single-threaded BLAS, as Snakemake sets it) and prints, in CPU seconds
(user + system, ``getrusage`` of the child; the imports: medians of ``--repeats`` fresh processes):

* ``job``: the whole job (one run);
* ``imports``: importing the modules the job had loaded at its end (captured from the real
  run), in a fresh process: what the lazy dispatch of :mod:`prspace.cli` costs the job;
* ``eager``: importing every command module and every module their ``run`` functions import
  (what a command line that imported all its commands would cost each job): the old import
  graph, timed beside the new one;
* ``libs``: importing only the third-party packages among the job's modules (numpy, pandas,
  pyarrow, scikit-learn, ...): the part of ``imports`` no lazy import can remove;

with ``imports / eager`` and ``libs / imports`` as ratios.  Then the one per-job cost found
beside imports (``describe_learner``, the ``flow_name`` of 30 learners in every predict job),
timed both ways in this process: printing the preprocessing (scikit-learn's repr, before) and
reading its parts (after).  ``--root`` with a finished study's ``work/`` turns the per-job
numbers into study totals (jobs counted from ``work/<study>/benchmarks``).

    python benchmarks/bench_startup.py [--repeats 3] [--root .] [--study paperlike default]
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "prspace"
TASK = "keel-appendicitis"  # the smallest task of the default suite (n = 106)
#: per-task stage (benchmark folder of the workflow) -> the command bench row it runs
STAGES = {"predict": "predict-local", "score": "step score", "boyd/fold_skew": "boyd fold-skew",
          "boyd/downsample": "boyd downsample"}
_CAPTURE = (
    "import atexit, json, runpy, sys\n"
    "atexit.register(lambda: open({out!r}, 'w').write(json.dumps(sorted(sys.modules))))\n"
    "sys.argv = ['prspace', *{argv!r}]\n"
    "runpy.run_module('prspace', run_name='__main__', alter_sys=True)\n"
)


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(PKG.parent) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update({k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")})
    return env


def _cpu(args: list[str], repeats: int) -> float:
    """Median CPU seconds (user + system) of ``repeats`` runs of ``args`` in fresh processes."""
    out = []
    for _ in range(repeats):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, env=_env(), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return statistics.median(out)


def _imports(modules: list[str], repeats: int) -> float:
    return _cpu([sys.executable, "-c", "".join(f"import {m}\n" for m in modules) or "pass"], repeats)


def _eager_modules() -> list[str]:
    """Every command module and every prspace module its functions import (read with ast)."""
    out = set()
    for p in sorted((PKG / "cli").glob("*.py")):
        out.add(f"prspace.cli.{p.stem}" if p.stem != "__init__" else "prspace.cli")
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("prspace"):
                out.add(node.module)
    return sorted(out)


def _library(name: str) -> bool:
    """A third-party package one can import (not the standard library, nor an extension's
    pseudo-module such as ``cython_runtime``)."""
    if name in sys.stdlib_module_names or name.startswith("_"):
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _commands(tmp: Path) -> dict[str, list[str]]:
    pred, status = tmp / "pred.parquet", tmp / "pred.json"
    return {
        "predict-local": ["predict-local", "--dataset", TASK, "--learners", "default", "--folds", "10",
                          "--seed", "0", "--out", str(pred), "--status", str(status)],
        "step score": ["step", "score", "--in", f"status={status}", "--out", f"metrics={tmp / 'm.csv'}",
                       "--out", f"folds={tmp / 'f.csv'}"],
        "boyd fold-skew": ["boyd", "fold-skew", "--status", str(status), "--dispersions", "0.25,0.5,0.75,0.9",
                           "--seeds", "3", "--max-repeats", "1", "--seed", "0", "--out", str(tmp / "fs.parquet")],
        # --max-pi 0.5: the task (pi 0.2) runs instead of being skipped
        "boyd downsample": ["boyd", "downsample", "--dataset", TASK, "--learners", "small", "--ratios", "1,2,3,4,5,10",
                            "--folds", "5", "--repeats", "3", "--seed", "0", "--max-pi", "0.5",
                            "--out", str(tmp / "ds.parquet")],
        "--help": ["--help"],
    }


def describe_cost(repeats: int) -> tuple[float, float]:
    """CPU seconds of the 30 default learners' ``flow_name`` steps: printed (before), read from parts (now)."""
    from prspace.local.learners import _prep_parts, learner_names, make_learner

    pipes = [make_learner(n, 0).named_steps["prep"] for n in learner_names("default")]

    def timed(f) -> float:
        out = []
        for _ in range(repeats):
            c = time.process_time()
            for p in pipes:
                f(p)
            out.append(time.process_time() - c)
        return statistics.median(out)

    return timed(lambda p: repr(p).lower()), timed(lambda p: list(_prep_parts(p)))


def _jobs(root: Path, study: str) -> dict[str, int]:
    """Jobs of each stage: a rule run per task has a benchmark file per task in ``<stage>/``, a rule run once for
    every task (``boyd/fold_skew``, ``boyd/downsample``) the one file ``<stage>.tsv``."""
    base = root / "work" / study / "benchmarks"
    return {stage: len(list((base / stage).glob("*.tsv"))) + (base / f"{stage}.tsv").is_file() for stage in STAGES}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="fresh processes per measurement (median)")
    ap.add_argument("--root", type=Path, default=None, help="a checkout whose work/ holds finished studies")
    ap.add_argument("--study", nargs="*", default=["paperlike", "default"])
    args = ap.parse_args(argv)
    eager = _imports(_eager_modules(), args.repeats)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for name, argv_ in _commands(tmp).items():
            mods_file = tmp / "modules.json"
            job = _cpu([sys.executable, "-m", "prspace", *argv_], 1)
            subprocess.run([sys.executable, "-c", _CAPTURE.format(out=str(mods_file), argv=argv_)], env=_env(),
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            loaded = json.loads(mods_file.read_text())
            tops = sorted({m.split(".")[0] for m in loaded} - {"prspace"})
            libs = [m for m in tops if m in loaded and _library(m)]
            ours = [m for m in loaded if m.startswith("prspace")]
            rows.append({"command": name, "job": job, "imports": _imports(ours, args.repeats),
                         "eager": eager, "libs": _imports(libs, args.repeats),
                         "libraries": ",".join(libs)})
    print(f"## Fixed cost per job, CPU seconds (task {TASK}; medians of {args.repeats} fresh processes)\n")
    print(f"{'command':16s} {'job':>6s} {'imports':>8s} {'eager':>6s} {'libs':>6s} {'imp/eager':>9s} {'libs/imp':>8s}")
    for r in rows:
        print(f"{r['command']:16s} {r['job']:6.2f} {r['imports']:8.2f} {r['eager']:6.2f} {r['libs']:6.2f} "
              f"{r['imports'] / r['eager']:9.2f} {r['libs'] / r['imports']:8.2f}")
    print("\nlibraries each job imports: " + "; ".join(f"{r['command']}: {r['libraries']}" for r in rows))
    before, after = describe_cost(args.repeats)
    print(f"\n## flow_name of the 30 default learners (every predict job): preprocessing printed {before:.3f} "
          f"CPU-s (before), read from its parts {after:.3f} CPU-s (now); {before - after:.3f} CPU-s saved per job")
    if args.root is not None:
        by = {r["command"]: r for r in rows}
        print("\n## Study totals (jobs from work/<study>/benchmarks), CPU seconds\n")
        print(f"{'study':10s} {'stage':16s} {'jobs':>5s} {'imports':>8s} {'eager':>7s} {'libs':>7s} {'saved now':>9s}")
        for study in args.study:
            for stage, n in _jobs(args.root, study).items():
                r = by[STAGES[stage]]
                saved = n * (before - after) if stage == "predict" else 0.0
                print(f"{study:10s} {stage:16s} {n:5d} {n * r['imports']:8.0f} {n * r['eager']:7.0f} "
                      f"{n * r['libs']:7.0f} {saved:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
