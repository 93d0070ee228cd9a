"""tests/conftest.py's schedule names real things: every module of GROUPS and every unit of
UNIT_SECONDS exists; a session fixture several modules read is built once per session whichever worker
asks first (``build_once``), and ``make check``'s tests are left out of ``make test``."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import conftest

TESTS = Path(__file__).resolve().parents[1]


def test_groups_and_unit_costs_name_existing_modules():
    modules = {p.stem for p in TESTS.rglob("test_*.py")}
    assert set(conftest.GROUPS) <= modules, set(conftest.GROUPS) - modules
    units = {conftest.GROUPS.get(m, m) for m in modules}
    assert set(conftest.UNIT_SECONDS) <= units, set(conftest.UNIT_SECONDS) - units


def test_every_module_reading_a_session_fixture_of_conftest_is_in_its_group():
    """A session fixture several modules read is built once with ``build_once`` (no group needed), or its
    readers are one group."""
    source = (TESTS / "conftest.py").read_text()
    for fixture in ("reduced_study",):
        readers = {p.stem for p in TESTS.rglob("test_*.py")
                   if p.name != Path(__file__).name and re.search(rf"\b{fixture}\b", p.read_text())}
        assert len(readers) >= 2, readers
        body = source.split(f"def {fixture}(", 1)[1].split("\ndef ", 1)[0]
        assert "build_once(" in body or {conftest.GROUPS.get(m) for m in readers} == {fixture}, readers


class _Factory:
    """What ``build_once`` asks of pytest's ``tmp_path_factory``: a worker's own temporary folder."""

    def __init__(self, base: Path):
        self.base = base

    def getbasetemp(self) -> Path:
        return self.base


def test_build_once_builds_one_folder_for_every_worker(tmp_path, monkeypatch):
    """Two workers ask at once: one builds while the other waits on the lock, and both get the one folder."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    builds = []

    def build(folder: Path) -> None:
        builds.append(folder)
        time.sleep(0.5)  # the other worker asks meanwhile
        (folder / "made").write_text("x")

    workers = [_Factory(tmp_path / f"popen-gw{i}") for i in range(2)]
    for w in workers:
        w.base.mkdir()
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda w: conftest.build_once(w, "study", build), workers))
    assert builds == [tmp_path / "study"] and got == [tmp_path / "study"] * 2
    assert (tmp_path / "study" / "made").read_text() == "x"
    assert conftest.build_once(workers[0], "study", build) == tmp_path / "study" and len(builds) == 1


def test_build_once_does_not_build_again_after_a_failure(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    (tmp_path / "popen-gw1").mkdir()
    calls = []

    def build(folder: Path) -> None:
        calls.append(folder)
        raise AssertionError("snakemake failed: no such rule")

    for _ in range(2):
        with pytest.raises(AssertionError, match="no such rule"):
            conftest.build_once(_Factory(tmp_path / "popen-gw1"), "study", build)
    assert len(calls) == 1


def test_without_xdist_the_folder_is_the_sessions_own(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    folder = conftest.build_once(_Factory(tmp_path), "study", lambda f: None)
    assert folder == tmp_path / "study" and folder.is_dir()


def _collected(*args: str) -> list[str]:
    res = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-n", "0", str(TESTS / "verdicts" / "test_primary_seeds.py"), *args],
                         capture_output=True, text=True, cwd=TESTS.parent)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return [ln.split("::")[-1] for ln in res.stdout.splitlines() if "::" in ln]


def test_make_test_leaves_out_the_check_tests_and_make_check_runs_only_them():
    committed = "test_committed_primary_verdicts_do_not_move_with_the_seed"
    plain = _collected()
    assert committed not in plain and "test_primary_verdicts_at_reduced_settings_do_not_move_with_the_seed" in plain
    assert _collected("--check") == [committed]
    makefile = (TESTS.parent / "Makefile").read_text()
    assert re.search(r"^check: .*\n\t\$\(BIN\)/pytest .*--check", makefile, re.M), "make check runs pytest --check"
