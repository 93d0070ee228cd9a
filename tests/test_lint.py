"""The code passes the linter configured in pyproject.toml (ruff), so CI catches lint errors."""

from __future__ import annotations

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


def test_snakemake_lint_passes(tmp_path):
    """`snakemake --lint` finds nothing: a conda environment per rule, every value a shell command
    uses passed through params:, no function in a rules file (tests/test_workflow_inputs.py)."""
    snakemake = Path(sys.executable).with_name("snakemake")
    if not snakemake.exists():
        pytest.skip("snakemake is not installed next to this interpreter")
    result = subprocess.run(
        [str(snakemake), "--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path), "--lint"],
        capture_output=True, text=True, timeout=300,
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0 and "Lints for" not in out, out[-4000:]
