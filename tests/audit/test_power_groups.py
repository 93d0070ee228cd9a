"""``prspace power --group-col`` (:mod:`prspace.audit.simulation.audit_power`, "Grouped rows"), calibrated by simulation.

The world is :mod:`prspace.audit.simulation.group_sim`'s (groups of 3 to 10 rows, intra-group correlation of the
scores 0.5, a random prevalence per group, the two models' group effects correlated 0.5).  The method
sees one large sample of that world (3,000 groups) as its population, as it would see a file:

* under no difference (the population's difference planted at 0) the share of planned test sets of 30
  and 100 groups whose test rejects, either sign, is at most alpha + 2 Monte Carlo se;
* with a planted difference (model a's positives shifted, the same shift as a world whose model a is
  better) its power at 30 and 100 groups agrees, within Monte Carlo error, with the detection rate of
  the audit's grouped test (grouped jackknife t at the audit's corrected level,
  :func:`prspace.audit.inference.audit_pairwise.block_decisions`) on fresh samples of that world.

The numbers at more simulations: ``python benchmarks/calib_power_groups.py`` (``docs/audit.md``,
"Grouped rows").
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from prspace.audit.inference.audit_pairwise import block_decisions
from prspace.audit.simulation.audit_power import GROUP_POWER_COLUMNS, Pair, detection_rate
from prspace.audit.simulation.group_calib import audit_level, false_rate, pair_of, power_rates
from prspace.audit.simulation.group_sim import World, draw
from prspace.cli import main
from prspace.stats.replicates import BOOT_METRICS

NULL = World(icc=0.5, pi=0.3, d=(1.0, 1.0), rho=0.5)
ALPHA = 0.05


@pytest.fixture(scope="module")
def population() -> Pair:
    return pair_of(draw(NULL, 3000, np.random.default_rng(0)))


def test_the_audits_level_is_block_decisions_of_a_grouped_block():
    block = draw(NULL, 40, np.random.default_rng(9))
    dec = block_decisions(block, True)
    for metric in BOOT_METRICS:
        assert dec[metric].method == "jackknife t, Holm" or dec[metric].method is None
        assert audit_level(block, metric) == dec[metric].raw_threshold(ALPHA)


@pytest.mark.parametrize("metric,n_groups,sims", [("auroc", 30, 400), ("average_precision", 30, 400),
                                                  ("auroc", 100, 150), ("average_precision", 100, 150)])
def test_false_rate_under_no_difference(population, metric, n_groups, sims):
    rate, se = false_rate(population, metric, n_groups, sims, seed=1)
    print(f"{metric} {n_groups} groups: false rate {rate:.3f} (MC se {se:.3f}, {sims} sims)")
    assert rate <= ALPHA + 2 * np.sqrt(ALPHA * (1 - ALPHA) / sims)


@pytest.mark.parametrize("metric,n_groups,shift,sims", [("auroc", 30, 0.8, 200), ("average_precision", 100, 0.4, 100)])
def test_planted_power_agrees_with_the_audits_grouped_test(population, metric, n_groups, shift, sims):
    r = power_rates(population, NULL, metric, n_groups, shift, sims, seed=3)
    print(f"{metric} {n_groups} groups, delta {r['delta']:.3f}: power {r['power']:.3f} (se {r['power_se']:.3f}), "
          f"audit's grouped test {r['audit']:.3f} (se {r['audit_se']:.3f})")
    assert 0.15 < r["audit"] < 0.95  # neither trivial nor saturated
    assert abs(r["power"] - r["audit"]) <= 3 * np.hypot(r["power_se"], r["audit_se"]), r


def _grouped_file(tmp_path, n_groups=40, icc=0.8, seed=5, lead=1.0):
    block = draw(World(icc=icc, d=(1.0 + lead, 1.0)), n_groups, np.random.default_rng(seed))
    rows = [pd.DataFrame({"model": m, "label": block.y.astype(int), "score": block.scores[k],
                          "patient": [f"p{g}" for g in block.cluster], "row": np.arange(block.y.size)})
            for k, m in enumerate(block.models)]
    path = tmp_path / "grouped.csv"
    pd.concat(rows).to_csv(path, index=False)
    return path, block


def test_power_cli_with_groups(tmp_path, capsys):
    path, block = _grouped_file(tmp_path)
    out = tmp_path / "power.csv"
    assert main(["power", str(path), "--group-col", "patient", "--metric", "auroc", "--groups", "8", "24",
                 "--sims", "20", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    t = pd.read_csv(out)
    assert list(t.columns) == GROUP_POWER_COLUMNS and list(t["n_groups"]) == [8, 24]
    assert t["rows_per_group"].iloc[0] == pytest.approx(block.y.size / 40)
    assert t["n_pos"].iloc[1] == pytest.approx(24 * block.y.sum() / 40)  # expected positives of 60 groups
    assert t["test"].str.startswith("grouped jackknife t").all()  # AUROC too: no DeLong with groups
    assert t["power_observed"].iloc[1] >= t["power_observed"].iloc[0]
    assert "groups needed for the observed difference" in text and "the unit is the group of column 'patient'" in text


def test_grouped_power_is_below_the_row_level_answer_under_strong_correlation():
    """The rows of a group are not independent: drawn one by one (the answer without --group-col) they
    overstate the power at the same test set."""
    block = draw(World(icc=0.9, d=(1.25, 1.0)), 40, np.random.default_rng(6))
    grouped, rows = pair_of(block), Pair(block.y, block.scores[0], block.scores[1])
    g, _ = detection_rate(grouped, "auroc", c=0.0, n_groups=40, alpha=ALPHA, sims=100, rng=np.random.default_rng(7))
    r, _ = detection_rate(rows, "auroc", c=0.0, n_pos=int(block.y.sum()), n_neg=int((~block.y).sum()), alpha=ALPHA,
                          sims=400, rng=np.random.default_rng(7))
    print(f"power at the sample's size: grouped {g:.2f}, rows one by one {r:.2f}")
    assert g + 0.2 < r


@pytest.mark.parametrize("extra,words", [(["--positives", "30"], "plan sizes with --groups"),
                                         (["--groups", "1"], "at least 2 groups")])
def test_power_cli_group_errors(tmp_path, capsys, extra, words):
    path, _ = _grouped_file(tmp_path)
    assert main(["power", str(path), "--group-col", "patient", "--metric", "auroc", *extra]) == 2
    assert words in capsys.readouterr().err


def test_power_cli_groups_without_group_col(tmp_path, capsys):
    path, _ = _grouped_file(tmp_path)
    assert main(["power", str(path), "--groups", "30"]) == 2
    assert "add --group-col" in capsys.readouterr().err


def test_audit_result_power_with_groups(tmp_path):
    from prspace import audit

    path, block = _grouped_file(tmp_path, n_groups=30, lead=2.5)
    res = audit.audit(pd.read_csv(path), group_col="patient", n_boot=0)
    t = res.power(metrics=("auroc",), sims=20, n_groups=[20])
    assert list(t.columns) == GROUP_POWER_COLUMNS and list(t["n_groups"]) == [20]
    assert t["groups_needed"].iloc[0] >= 2


def test_group_codes_need_not_be_contiguous(population):
    """Codes with gaps (or any integers) name the same groups: the same answer as 0..G-1."""
    gapped = Pair(population.y, population.a, population.b, g=population.g * 7 + 3)
    args = dict(c=0.0, n_groups=20, alpha=ALPHA, sims=30, sign=0.0)
    assert detection_rate(gapped, "auroc", rng=np.random.default_rng(8), **args) == detection_rate(
        population, "auroc", rng=np.random.default_rng(8), **args)


def test_a_grouped_rate_compared_with_a_target_stops_when_decided_with_the_full_answer():
    """With groups too, detection_rate(need=...) (the searches' question 'does the power reach the target?')
    gives the full rate's answer at every size, testing fewer sets where the answer is clear."""
    from prspace.audit.simulation import power_tests as PT

    pair = pair_of(draw(World(icc=0.5, pi=0.3, d=(1.4, 1.0), rho=0.5), 300, np.random.default_rng(4)))
    sims, target = 40, 0.8
    need = PT.need_for(target, sims)
    for k in (6, 60, 200):
        kw = {"c": 0.0, "n_groups": k, "alpha": 0.01, "sims": sims}
        full, _ = detection_rate(pair, "aupr", rng=np.random.default_rng(2), **kw)
        early, _ = detection_rate(pair, "aupr", rng=np.random.default_rng(2), need=need, **kw)
        assert (early >= target) == (full >= target), (k, full, early)
        assert early <= full
