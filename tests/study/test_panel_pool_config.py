"""config/panel-pool.yaml (make panel-pool): a valid study that draws 30 models per task from the pool of
distinct learners, and the Makefile target that makes only its panel draws table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.panels import PANELS, POOL_PANEL
from prspace.study.study_config import check_config

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"
CONFIG = ROOT / "config" / "panel-pool.yaml"


def _config() -> dict:
    return yaml.safe_load(CONFIG.read_text())


def test_panel_pool_config_validates_and_draws_30_of_the_pool():
    cfg = _config()
    check_config(cfg, SCHEMAS)
    assert cfg["study"] == "panel-pool" and cfg["source"] == "local" and cfg["seed"] == 0
    assert cfg["local"]["suite"] == "default" and cfg["local"]["learners"] == "pool"
    draws = cfg["analysis"]["panel_draws"]
    assert draws["panel_size"] == 30 < len(PANELS["pool"]) == len(POOL_PANEL)
    assert draws["n_draws"] >= 100


@pytest.mark.parametrize("edit", [{"panel_size": 1}, {"n_draws": 0}, {"panel_sizes": 30}])
def test_a_bad_panel_draws_setting_is_refused(edit):
    cfg = _config()
    cfg["analysis"]["panel_draws"] = edit
    with pytest.raises(InputError):
        check_config(cfg, SCHEMAS)


def test_make_panel_pool_makes_only_the_panel_draws_table_of_that_study():
    """The target names the table (results/<study>/tables/panel_draws.csv, the study from the config), not the
    whole study."""
    make = (ROOT / "Makefile").read_text()
    rule = re.search(r"^panel-pool:.*\n\t(.+)$", make, re.MULTILINE)
    assert rule, "the Makefile has no panel-pool target"
    words = rule.group(1).split()
    target = str(R.PANEL_DRAWS.csv(f"results/{_config()['study']}/tables"))
    assert target in words and "config/panel-pool.yaml" in words
    assert [w for w in words if w.startswith("results/")] == [target]
    # the committed tables alone would count as up to date: collect is forced, so missing predictions are made
    assert words[words.index("--forcerun") + 1] == "collect"


def test_schema_says_the_pool_size():
    """The schema's description of panel_size (docs/workflow.md shows it) names the pool's size."""
    schema = yaml.safe_load((SCHEMAS / "config.schema.yaml").read_text())
    text = schema["properties"]["analysis"]["properties"]["panel_draws"]["properties"]["panel_size"]["description"]
    assert f"30 of the pool's {len(POOL_PANEL)}" in text


def test_docs_state_the_pool_as_the_code_makes_it():
    """docs/analysis.md and docs/local.md name the pool's size, its method groups (the code's learner families; "family"
    alone means a task family in the docs, issue 78) and its further methods as
    prspace.core.panels has them (facts of the code, not results: a changed pool makes them stale)."""
    from prspace.core.panels import DEFAULT_PANEL, FAMILIES, POOL_EXTRA

    n, families = len(POOL_PANEL), len({FAMILIES[m] for m in POOL_PANEL})
    analysis = " ".join((ROOT / "docs" / "analysis.md").read_text().split())
    local = " ".join((ROOT / "docs" / "local.md").read_text().split())
    assert f"pool of {n} distinct methods" in analysis and f"in {families} method groups" in analysis
    assert f"The pool: {n} distinct methods" in local and f"{families} method groups" in local
    assert f"{len(DEFAULT_PANEL)} and {len(POOL_EXTRA)} further methods" in local
    for name in POOL_EXTRA:
        assert f"| `{name}` | {FAMILIES[name]} |" in local, name
