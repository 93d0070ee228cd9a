"""The resampling engines give the same bytes whatever BLAS kernel, thread count, numpy SIMD path or C math library
loop the machine picks (issue 60: a committed table reproduced on this machine and not on another x86-64 machine whose
OpenBLAS picked another kernel).

``tests/_blas_probe.py`` runs the studentized cluster bootstrap (intervals, counted coverage, MC errors, decision
p-values, power curve), the sign-flip test (and its power with drawn sign patterns), the verdict step's decisions and
margin sensitivity on a made-up per-task table, and the engine of ``calibration.csv`` (the calibration at one small
size, the batch metric kernel on simulated bootstrap counts and on real-valued group masses) on fixed data in a fresh
process under three environments: as the machine is; the oldest OpenBLAS core type the CPU runs, numpy's SIMD loops
switched off, glibc's plain SSE2 math loops instead of its FMA / AVX2 ones (``GLIBC_TUNABLES``: a CPU without FMA)
and one thread; the newest core type and two threads.  Every output's SHA-256 must agree.  The power of this test:
before the products of counts were made exact (:mod:`prspace.metrics.same_bits`) the estimates, ``t*`` and interval
ends of the same probe differed between OpenBLAS's Haswell and Nehalem kernels on this machine; before the metric
kernel's ``log1p`` was its own (:func:`prspace.metrics._kernel._log1p`) the AUPR of the real-valued group masses
differed between glibc's FMA and SSE2 loops.  The verdict outputs and the small calibration agreed in every
variant before those changes too: this machine (AVX2, no AVX-512; numpy takes SVML's float64 ``log1p`` only on
AVX-512 CPUs) cannot tell whether they would differ on another.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

PROBE = Path(__file__).parents[1] / "_blas_probe.py"
ROOT = Path(__file__).resolve().parents[2]
#: OpenBLAS core types (as OPENBLAS_CORETYPE names them) and the CPU flag each needs, oldest first
CORETYPES = {"Prescott": "sse3", "Nehalem": "sse4_2", "SandyBridge": "avx", "Haswell": "avx2",
             "SkylakeX": "avx512f"}
KNOBS = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
         "GLIBC_TUNABLES")
#: glibc's math library without its FMA / AVX2 loops (``exp``, ``log``, ``log1p``, ... as on a CPU without FMA: the
#: last bit of about one value in a thousand differs); a glibc that does not know a name ignores it
PLAIN_LIBM = "glibc.cpu.hwcaps=-AVX2,-FMA,-AVX"


def _flags() -> set[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def _numpy_simd() -> str:
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return " ".join(f for f in __cpu_dispatch__ if __cpu_features__.get(f))


def _probe(env: dict[str, str]) -> dict:
    full = {k: v for k, v in os.environ.items() if k not in KNOBS}
    full.update(env)
    full["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), full.get("PYTHONPATH")]))
    res = subprocess.run([sys.executable, str(PROBE)], env=full, capture_output=True, text=True, timeout=800)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def probes():
    usable = [c for c, flag in CORETYPES.items() if flag in _flags()]
    if len(usable) < 2:
        pytest.skip("cannot tell which OpenBLAS core types this CPU runs (no /proc/cpuinfo flags)")
    base = _probe({})
    own = {arch for _, arch, _ in base["blas"]}
    other = [c for c in usable[1:] if c not in own] or usable[1:]  # a kernel the machine would not pick itself
    return {
        "as the machine is": base,
        f"{usable[0]}, numpy without SIMD, glibc's SSE2 math, 1 thread": _probe({
            "OPENBLAS_CORETYPE": usable[0], "NPY_DISABLE_CPU_FEATURES": _numpy_simd(), "GLIBC_TUNABLES": PLAIN_LIBM,
            "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}),
        f"{other[-1]}, 2 threads": _probe({"OPENBLAS_CORETYPE": other[-1], "OMP_NUM_THREADS": "2",
                                            "OPENBLAS_NUM_THREADS": "2"}),
    }


def test_the_variants_ran_other_kernels_and_thread_counts(probes):
    seen = {json.dumps(p["blas"]) for p in probes.values()}
    assert len(seen) == len(probes), seen


def test_every_engine_output_has_the_same_bytes_in_every_variant(probes):
    (first_name, first), *rest = probes.items()
    for name, p in rest:
        differ = [k for k in first["hashes"] if p["hashes"][k] != first["hashes"][k]]
        assert not differ, f"{name} vs {first_name}: {differ}"
