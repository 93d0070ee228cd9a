"""The pre-registered analysis plan (docs/analysis-plan.md) says what the code and configuration do.

What can drift between the plan and the project: the claims (every primary claim of the registry
``prspace.core.claims``, no other), each claim's quote, where, reference value and margin (the
registry's :func:`~prspace.core.claims.decision_value` and :func:`~prspace.core.claims.decision_margin`),
the sample-size table's markers (every claim the OpenML study tests, both offline studies, the four
columns) and the draw (``config/openml-paper.yaml``).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import yaml

from prspace.core import claims as REG
from prspace.repo.quoted_numbers import SPAN

ROOT = Path(__file__).resolve().parents[2]
PLAN = (ROOT / "docs" / "analysis-plan.md").read_text(encoding="utf-8")
CONFIG = yaml.safe_load((ROOT / "config" / "openml-paper.yaml").read_text(encoding="utf-8"))
#: Section 4.3 of Boyd et al. needs the raw features (downsampled training folds): not in the OpenML study.
NOT_IN_OPENML = "boyd.sec4_3."
STUDIES = ("default", "paperlike")
POWER_COLUMNS = ("n_families", "families_80", "families_80_lo", "families_80_hi", "power_here")


def _section(heading: str) -> str:
    m = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", PLAN, flags=re.M | re.S)
    assert m, f"docs/analysis-plan.md has no section '## {heading}'"
    return m.group(1)


def claims_table(text: str) -> dict[str, dict[str, str]]:
    """The rows of the plan's claims table: id -> where, quote, reference value, margin, scale."""
    rows: dict[str, dict[str, str]] = {}
    for line in text.splitlines():
        m = re.fullmatch(r"\| `([\w.]+)` \| (.*?) \| \"(.*)\" \| (\S+) \| (\S+) \| (.*?) \|", line)
        if m is None:
            continue
        cid = m.group(1)
        assert cid not in rows, f"{cid} listed twice"
        rows[cid] = dict(zip(("where", "quote", "value", "margin", "scale"), m.groups()[1:], strict=True))
    return rows


PLAN_CLAIMS = claims_table(_section("The claims, their reference values and margins"))


def _number(text: str) -> float:
    return math.nan if text == "none" else float(text)


def test_the_claims_table_parses_every_row_it_shows():
    rows = [ln for ln in _section("The claims, their reference values and margins").splitlines()
            if ln.startswith("| `")]
    assert len(rows) == len(PLAN_CLAIMS) > 0


def test_the_plan_lists_every_primary_claim_of_the_registry_and_no_other():
    listed, registry = set(PLAN_CLAIMS), set(REG.primary_ids())
    assert not listed - registry, f"the plan lists claims the registry lacks: {sorted(listed - registry)}"
    assert not registry - listed, f"the plan misses primary claims of the registry: {sorted(registry - listed)}"


def test_the_check_finds_a_claim_the_registry_lacks_and_one_it_misses():
    """The table parser on a table with one claim too many and one too few."""
    cid = REG.primary_ids()[0]
    text = "| `fk.not_a_claim` | x | \"q\" | 0.5 | 0.05 | share |\n| `" + cid + "` | x | \"q\" | 0.5 | 0.05 | share |\n"
    listed = set(claims_table(text))
    assert listed - set(REG.primary_ids()) == {"fk.not_a_claim"}
    assert len(set(REG.primary_ids()) - listed) == len(REG.primary_ids()) - 1


@pytest.mark.parametrize("cid", REG.primary_ids())
def test_each_claim_is_quoted_and_placed_as_the_registry_holds_it(cid):
    row, c = PLAN_CLAIMS[cid], REG.BY_ID[cid]
    assert row["quote"] == c.quote
    assert row["where"] == c.where


@pytest.mark.parametrize("cid", REG.primary_ids())
def test_each_reference_value_is_the_registrys_decision_value(cid):
    """One reference value per row: the "as different as" rows compare with 0 (issue 58, Deliver 3)."""
    want, got = _number(PLAN_CLAIMS[cid]["value"]), REG.decision_value(cid)
    assert got == pytest.approx(want, abs=1e-12), f"{cid}: the plan's reference value {want}, the registry's {got}"


@pytest.mark.parametrize("cid", REG.primary_ids())
def test_each_margin_is_the_registrys_decision_margin(cid):
    """The smallest effect of interest alone (issue 58, Deliver 5): fails while the registry still adds
    the paper's sampling error and rounding to a Flach & Kull margin."""
    want, got = _number(PLAN_CLAIMS[cid]["margin"]), REG.decision_margin(cid)
    if math.isnan(want):
        assert math.isnan(got), f"{cid}: the plan says no margin, the registry gives {got}"
    else:
        assert got == pytest.approx(want, abs=1e-12), f"{cid}: the plan's margin {want}, the registry's {got}"


def test_the_holm_families_of_the_openml_study_are_counted_from_the_registry():
    fk = [c for c in REG.primary_ids() if REG.BY_ID[c].paper == REG.FK]
    boyd = [c for c in REG.primary_ids() if REG.BY_ID[c].paper == REG.BOYD and not c.startswith(NOT_IN_OPENML)]
    words = {1: "one", 2: "two", 3: "three"}
    assert f"Flach & Kull's {len(fk)}, Boyd et al.'s {words[len(boyd)]} of section 4.1" in " ".join(PLAN.split())


def test_the_sample_size_table_quotes_every_claim_the_openml_study_tests_from_both_studies():
    spans = [m for m in SPAN.finditer(_section("Sample size: families needed for 80% power"))]
    quoted = {(m["table"], m["row"].removeprefix("claim_id="), m["col"]) for m in spans}
    assert all(m["row"].startswith("claim_id=") and m["text"] for m in spans)
    want = {(f"results/{s}/tables/verdicts.csv", cid, col) for s in STUDIES for col in POWER_COLUMNS
            for cid in REG.primary_ids() if not cid.startswith(NOT_IN_OPENML)}
    assert quoted == want


def test_the_sample_the_plan_states_is_the_configurations():
    o = CONFIG["openml"]
    assert (o["discover"], o["max_tasks"], o["min_flows"], o["n_models"], o["repeats"], CONFIG["seed"]) == (
        True, None, 30, 30, 0, 0)
    assert CONFIG["boyd"]["downsampling"]["enabled"] is False
    section = _section("The sample: the draw the configuration makes")
    for said in ("`openml.discover: true`", "`openml.max_tasks: null`", "`openml.min_flows: 30`",
                 "`openml.n_models: 30`", "`openml.repeats: 0`", "`seed: 0`", "`boyd.downsampling.enabled: false`",
                 o["server"]):
        assert said in section, said
    boyd = yaml.safe_load((ROOT / "workflow" / "schemas" / "boyd.schema.yaml").read_text(encoding="utf-8"))
    skew = {k: v["default"] for k, v in boyd["properties"]["fold_skew"]["properties"].items() if "default" in v}
    assert (skew["min_positives"], skew["dispersions"], skew["seeds"]) == (50, [0.25, 0.5, 0.75, 0.9], 3)
    flat = " ".join(section.split())
    assert "at least 50 positives" in flat and "dispersions 0.25, 0.5, 0.75 and 0.9, three reassignments" in flat
    config = yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text(encoding="utf-8"))
    n_boot = config["properties"]["analysis"]["properties"]["verdicts"]["properties"]["n_boot"]["default"]
    assert n_boot == 1_000_000 and "`analysis.verdicts.n_boot` (1,000,000 resamples" in flat
