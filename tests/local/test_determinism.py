"""Every learner of every panel scores the same on another machine (issue 14).

What differs between two machines running the pinned environment: the BLAS kernels
OpenBLAS picks for the CPU (``OPENBLAS_CORETYPE``), numpy's SIMD loops
(``NPY_DISABLE_CPU_FEATURES``), and the thread counts of BLAS and OpenMP (environment
and threadpoolctl).  Each is changed here in a subprocess (``_determinism_probe.py``),
which cross-validates every learner of every panel (``default``, ``small``, ``pool``) on real
datasets of the default suite; a last variant multiplies every distinct feature value
by ``1 + 1e-12 u``, ten thousand times a last-bit difference.

Required, against the unchanged run:

* machine variants: the scores of every learner in the same order with the same ties,
  so every metric of this project (each depends only on the order and the ties of the
  scores) and hence every table is identical; scores within 1e-6 relative;
* perturbed data: the same, except that a score may move by up to 1e-6 relative.

The variant that changes only BLAS kernels and thread counts (the newest core type, 2 threads) probes
the learners that call BLAS or OpenMP, not the ones built wholly of estimators that call neither
(:data:`THREAD_FREE`: scikit-learn's trees and the ensembles of trees here; a learner counts as such
only when every estimator in its pipeline is of these types, so a learner that gains a BLAS-calling
part is probed again): their scores cannot depend on a BLAS kernel or a thread count, and they were
43% of that probe's CPU.  The other variants probe every learner (numpy's SIMD loops and perturbed
data reach every learner).

Scores are rounded to 10 significant digits at the predict stage
(``prspace.local.learners.round_scores``), which is what makes exact ties survive.

The probes inherit ``OMP_WAIT_POLICY=PASSIVE`` (tests/conftest.py): two run at once on two cores,
and an OpenMP thread spinning for work took the core from the one it waited for (histgb-50 on
keel-flare-F: 14 s instead of 2.5 s).  The policy decides when an idle thread sleeps, not what any
thread computes; the thread counts and kernels compared are the ones above.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import rankdata
from sklearn.base import BaseEstimator
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.feature_selection import VarianceThreshold
from sklearn.impute import SimpleImputer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier

from prspace.local.learners import PANELS, make_learner

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

PROBE = Path(__file__).parents[1] / "_determinism_probe.py"
ROOT = Path(__file__).resolve().parents[2]
#: OpenBLAS core types (as OPENBLAS_CORETYPE names them) and the CPU flag each needs
CORETYPES = {"Prescott": "sse3", "Nehalem": "sse4_2", "SandyBridge": "avx", "Haswell": "avx2",
             "SkylakeX": "avx512f"}
RTOL = 1e-6
#: Estimators that compute with neither BLAS nor OpenMP threads: scikit-learn's trees (Cython; the extension
#: modules of sklearn/tree link no libgomp and call no BLAS), the ensembles of them used here (run one tree
#: after another, ``n_jobs=1``, combined by numpy's element-wise loops; GradientBoosting's loss at its default
#: ``n_threads=1``) and a tree pipeline's preprocessing (imputation, rounding, one-hot encoding, the variance
#: filter; no scaling).  HistGradientBoosting (OpenMP) and every other model are not here.
THREAD_FREE = (Pipeline, ColumnTransformer, SimpleImputer, FunctionTransformer, OneHotEncoder, VarianceThreshold,
               DecisionTreeClassifier, ExtraTreeClassifier, RandomForestClassifier, ExtraTreesClassifier,
               BaggingClassifier, AdaBoostClassifier, GradientBoostingClassifier)


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _numpy_simd() -> str:
    """Every SIMD extension numpy dispatches to on this CPU (to be switched off)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return " ".join(f for f in __cpu_dispatch__ if __cpu_features__.get(f))


def _variants() -> dict[str, tuple[dict[str, str], list[str]]]:
    flags = _cpu_flags()
    usable = [c for c, flag in CORETYPES.items() if flag in flags]
    if len(usable) < 2:
        pytest.skip("cannot tell which OpenBLAS core types this CPU runs (no /proc/cpuinfo flags)")
    oldest, newest = usable[0], usable[-1]
    one = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    two = {"OMP_NUM_THREADS": "2", "OPENBLAS_NUM_THREADS": "2"}
    blas = ",".join(n for n in _learners() if not _thread_free(n))
    return {
        "baseline": ({}, []),
        f"{oldest}, numpy without SIMD, 1 thread": (
            {"OPENBLAS_CORETYPE": oldest, "NPY_DISABLE_CPU_FEATURES": _numpy_simd(), **one},
            ["--threads", "1"],
        ),
        # BLAS kernels and thread counts only: the learners that call BLAS or OpenMP (module docstring)
        f"{newest}, 2 threads": ({"OPENBLAS_CORETYPE": newest, **two}, ["--threads", "2", "--learners", blas]),
        "data x (1 + 1e-12 u)": ({}, ["--perturb", "1e-12"]),
    }


def _thread_free(name: str) -> bool:
    """Whether every estimator of learner ``name``'s pipeline is one of :data:`THREAD_FREE`."""
    pipe = make_learner(name, 0)
    parts = [pipe, *(v for v in pipe.get_params(deep=True).values() if isinstance(v, BaseEstimator))]
    return all(isinstance(p, THREAD_FREE) for p in parts)


def _run(out: Path, env: dict[str, str], args: list[str]) -> tuple[dict, list]:
    full = {k: v for k, v in os.environ.items()
            if k not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "OMP_NUM_THREADS",
                         "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    full.update(env)
    full["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), full.get("PYTHONPATH")]))
    res = subprocess.run([sys.executable, str(PROBE), str(out), *args], env=full,
                         capture_output=True, text=True, timeout=1100)
    assert res.returncode == 0, res.stderr[-3000:]
    with np.load(out) as data:
        scores = {k: data[k] for k in data.files}
    return scores, json.loads(res.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("determinism")
    variants = _variants()
    with ThreadPoolExecutor(2) as pool:
        futures = {name: pool.submit(_run, tmp / f"{i}.npz", env, args)
                   for i, (name, (env, args)) in enumerate(variants.items())}
        return {name: (f.result(), variants[name][0], variants[name][1]) for name, f in futures.items()}


def test_variants_really_ran_other_kernels_and_thread_counts(runs):
    (_, base_info), _, _ = runs["baseline"]

    def arch(info):
        blas = {i["architecture"] for i in info if i["internal_api"] == "openblas"}
        assert blas, "OpenBLAS not loaded by the probe"
        return blas

    others = [arch(info) for name, ((_, info), env, _) in runs.items() if "OPENBLAS_CORETYPE" in env]
    assert any(a != arch(base_info) for a in others), (arch(base_info), others)
    for name, ((_, info), env, _) in runs.items():
        if "OMP_NUM_THREADS" in env:
            assert all(i["num_threads"] == int(env["OMP_NUM_THREADS"]) for i in info), (name, info)


def _learners() -> list[str]:
    return list(dict.fromkeys(n for panel in PANELS.values() for n in panel))


def test_every_learner_of_every_panel_was_probed(runs):
    (scores, _), _, _ = runs["baseline"]
    tasks = sorted({k.split("|")[0] for k in scores})
    assert len(tasks) >= 3
    for task in tasks:
        for name in _learners():
            s = scores[f"{task}|{name}"]
            assert np.all(np.isfinite(s)), (task, name)
            assert len(np.unique(s)) > 1, (task, name)


@pytest.mark.parametrize("variant", ["machine", "perturbed"])
def test_scores_keep_their_order_and_ties(runs, variant):
    (base, _), _, _ = runs["baseline"]
    names = [n for n in runs if n != "baseline" and (("1e-12" in n) == (variant == "perturbed"))]
    assert names
    bad = []
    for name in names:
        (other, _), _, args = runs[name]
        probed = args[args.index("--learners") + 1].split(",") if "--learners" in args else _learners()
        assert set(other) == {k for k in base if k.split("|")[1] in {"y", *probed}}
        for key in other:
            if key.endswith("|y"):
                np.testing.assert_array_equal(base[key], other[key])
                continue
            a, b = base[key], other[key]
            scale = max(np.abs(a).max(), np.finfo(float).tiny)
            rel = float(np.abs(a - b).max() / scale)
            same_order = np.array_equal(rankdata(a), rankdata(b))
            if rel > RTOL or not same_order:
                bad.append(f"{name}: {key}: max relative change {rel:.2g}, same order and ties: {same_order}")
    assert not bad, "\n".join(bad)
