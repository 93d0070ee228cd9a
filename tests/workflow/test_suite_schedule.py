"""tests/conftest.py's schedule names real things: every module of GROUPS and every unit of
UNIT_SECONDS exists, and a session-fixture group holds the modules that read the fixture."""

from __future__ import annotations

import re
from pathlib import Path

import conftest

TESTS = Path(__file__).resolve().parents[1]


def test_groups_and_unit_costs_name_existing_modules():
    modules = {p.stem for p in TESTS.rglob("test_*.py")}
    assert set(conftest.GROUPS) <= modules, set(conftest.GROUPS) - modules
    units = {conftest.GROUPS.get(m, m) for m in modules}
    assert set(conftest.UNIT_SECONDS) <= units, set(conftest.UNIT_SECONDS) - units


def test_every_module_reading_a_session_fixture_of_conftest_is_in_its_group():
    for fixture in ("reduced_study",):
        readers = {p.stem for p in TESTS.rglob("test_*.py")
                   if p.name != Path(__file__).name and re.search(rf"\b{fixture}\b", p.read_text())}
        assert readers, fixture
        assert {conftest.GROUPS.get(m) for m in readers} == {fixture}, readers
