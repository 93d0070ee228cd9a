"""The code passes the linter configured in pyproject.toml (ruff), so CI catches lint errors."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_passes():
    pytest.importorskip("ruff")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests", "benchmarks", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


#: The one lint the workflow accepts by design: a rule names no conda environment or container because
#: every job runs the interpreter that runs Snakemake (PRSPACE in workflow/rules/common.smk), so a
#: per-rule `conda:` would document an environment the job does not use (environment.yml is for users).
NO_SOFTWARE_DIRECTIVE = "Specify a conda environment or container for each rule."


def test_snakemake_lint_passes(tmp_path):
    """`snakemake --lint` finds nothing but the absent per-rule environment (NO_SOFTWARE_DIRECTIVE):
    every value a shell command uses passed through params:, a log for every rule, no function in a
    rules file (tests/study/test_workflow_inputs.py)."""
    snakemake = Path(sys.executable).with_name("snakemake")
    if not snakemake.exists():
        pytest.skip("snakemake is not installed next to this interpreter")
    result = subprocess.run(
        [str(snakemake), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path), "--lint"],
        capture_output=True, text=True, timeout=300,
    )
    out = result.stdout + result.stderr
    assert "Traceback" not in out and "Error" not in out, out[-4000:]
    items = re.findall(r"^Lints for (.+?):$", out, flags=re.M)
    titles = re.findall(r"^    \* (.+?):$", out, flags=re.M)
    assert set(titles) <= {NO_SOFTWARE_DIRECTIVE}, out[-4000:]
    assert all(i.startswith("rule ") for i in items) and len(titles) == len(items), out[-4000:]
