"""The verdict step's settings carry their configuration keys' names, and the numbers derived from its
``n_boot`` are named in the schema with how each is derived, each computed in one place (issue 79.1):
:func:`prspace.core.registry.setting_name`, :mod:`prspace.verdicts.primary_text`."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from prspace.core import registry as R
from prspace.verdicts import primary_text as PT
from prspace.verdicts.verdicts_step import run_parameters, verdicts_step

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
#: n_boot values around every bend of the derived counts (the floors, the caps) and the committed default
N_BOOTS = (100, 499, 500, 999, 49_999, 50_000, 99_999, 100_000, 123_456, 999_999, 1_000_000, 1_000_050, 5_000_000)


def _description() -> str:
    props = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))["properties"]["analysis"]["properties"]
    return props["verdicts"]["properties"]["n_boot"]["description"]


def _formulas(description: str) -> dict[str, str]:
    """``name -> formula`` of every ```name = formula``` the description states."""
    return dict(re.findall(r"`(\w+) = ([^`]+)`", description))


def _divergences(formulas: dict[str, str], derived: dict, n_boots=N_BOOTS) -> list[str]:
    """Where a formula of the schema's description and the function of the same name disagree (or one lacks
    the other), evaluated in order so that a formula may name an earlier one (``min(double_outer, 2000)``)."""
    bad = [f"{n}: in the schema only" for n in formulas if n not in derived]
    bad += [f"{n}: in prspace.verdicts.primary_text.DERIVED only" for n in derived if n not in formulas]
    for n_boot in n_boots:
        names: dict[str, object] = {"n_boot": n_boot, "max": max, "min": min,
                                    "clip": lambda x, lo, hi: int(np.clip(x, lo, hi))}
        for name, formula in formulas.items():
            names[name] = said = eval(formula, {"__builtins__": {}}, names)  # noqa: S307 (our own schema's text)
            if name in derived and derived[name](n_boot) != said:
                bad.append(f"{name} at n_boot={n_boot}: the schema says {said}, the code {derived[name](n_boot)}")
    return bad


def test_the_numbers_derived_from_n_boot_are_the_schemas():
    formulas = _formulas(_description())
    assert set(formulas) == {"rerun_resamples", "double_outer", "sensitivity_outer"}
    assert _divergences(formulas, PT.DERIVED) == []
    assert PT.double_outer(1_000_000) == 20_000 and PT.sensitivity_outer(1_000_000) == 2_000  # the committed counts
    assert PT.rerun_resamples(1_000_000) == 100_000


def test_a_planted_divergence_is_named():
    formulas = _formulas(_description())
    planted = {**formulas, "double_outer": formulas["double_outer"].replace("n_boot // 50", "n_boot // 40")}
    bad = _divergences(planted, PT.DERIVED)
    assert bad and all(b.startswith("double_outer at") or b.startswith("sensitivity_outer at") for b in bad)
    assert _divergences({k: v for k, v in formulas.items() if k != "rerun_resamples"}, PT.DERIVED) == [
        "rerun_resamples: in prspace.verdicts.primary_text.DERIVED only"]
    code = {**PT.DERIVED, "sensitivity_outer": lambda n: min(PT.double_outer(n), 3000)}
    assert any(b.startswith("sensitivity_outer at") for b in _divergences(formulas, code))


def test_every_setting_of_step_verdicts_is_named_as_its_configuration_key():
    """``analysis.verdicts.n_boot`` is ``verdicts_n_boot``, ``analysis.n_boot`` is ``n_boot`` (no
    ``analysis_n_boot`` beside an ``n_boot`` of another key), and the step's function takes exactly those."""
    settings = dict(R.STEP_VERDICTS.settings)
    assert all(name == R.setting_name(key) for name, key in settings.items()), settings
    assert settings["verdicts_n_boot"] == "analysis.verdicts.n_boot" and settings["n_boot"] == "analysis.n_boot"
    params = {n for n, p in inspect.signature(verdicts_step).parameters.items() if p.kind is p.KEYWORD_ONLY}
    assert params - {"jobs"} == set(settings)


@pytest.mark.parametrize(("key", "name"), [
    ("analysis.verdicts.n_boot", "verdicts_n_boot"), ("analysis.n_boot", "n_boot"),
    ("analysis.rank_sets.confidence", "rank_sets_confidence"), ("local.suite", "suite"), ("seed", "seed"),
    ("boyd.evidence.n_resamples", "boyd_evidence_n_resamples"),
])
def test_setting_name(key, name):
    assert R.setting_name(key) == name


def test_the_findings_page_lists_each_parameter_by_its_key():
    """The page's names are the settings' names with the key's dots kept: one name per setting."""
    shown = run_parameters(study="s", source="local", seed=0, suite="keel", learners="default", folds=5, n_boot=1000,
                           noise_boot=200, verdicts_n_boot=10**6, rank_sets_n_boot=500, rank_sets_confidence=0.95)
    keys = dict(R.STEP_VERDICTS.settings)
    for label in shown:
        key = keys[label.replace(".", "_")]
        assert label == (key.partition(".")[2] if key.split(".")[0] in R.SECTIONS else key), (label, key)
    assert shown["verdicts.n_boot"] == 10**6 and shown["n_boot"] == 1000
