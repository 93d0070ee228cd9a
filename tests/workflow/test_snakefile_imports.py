"""Reading the workflow imports no heavy library it does not use (issue 42, point 5: per-job start-up).

Snakemake reads the Snakefile on every invocation: each `snakemake -n`, `--list-rules` and `--report`, and
each SLURM job's own Snakemake.  Reading it once imported scipy.stats (through the analysis' task choice)
and scikit-learn (through the learner names checked at start): about 3 CPU-s a parse of 4.3.  A dry run
of the reduced study must now finish without either, nor matplotlib.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import atexit, sys
def _heavy():
    loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'matplotlib') or m == 'scipy.stats')
    print('HEAVY', loaded, file=sys.__stderr__)
atexit.register(_heavy)
from snakemake.cli import main
sys.argv = ['snakemake', *sys.argv[1:]]
main()
"""


def test_a_dry_run_imports_neither_scikit_learn_nor_scipy_stats_nor_matplotlib(tmp_path):
    res = subprocess.run(
        [sys.executable, "-c", PROBE, "-n", "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path),
         "--configfile", str(ROOT / "tests" / "fixtures" / "config-reduced.yaml"), "--cores", "1"],
        capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "select_tasks" in res.stdout + res.stderr  # the dry run planned the study
    heavy = [line for line in res.stderr.splitlines() if line.startswith("HEAVY")]
    assert heavy == ["HEAVY []"], heavy
