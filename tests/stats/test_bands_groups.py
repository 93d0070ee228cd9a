"""Grouped curve bands (:func:`prspace.stats.bands.curve_bands` with ``groups``; ``--group-col`` in the audit).

In :mod:`prspace.audit.simulation.group_sim`'s world with strongly correlated groups (intra-group correlation 0.8,
100 groups of 3 to 10 rows), the row-level bands undercover (the rows of a group move together) and the
grouped ones are wider and cover near their level (:func:`prspace.audit.simulation.group_calib.band_coverage`; more
simulations: ``benchmarks/calib_power_groups.py``, ``docs/audit.md``, "Grouped rows").
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from prspace import audit
from prspace.audit.simulation.group_calib import band_coverage
from prspace.audit.simulation.group_sim import World, draw
from prspace.core.errors import InputError
from prspace.stats.bands import curve_bands


def test_grouped_bands_wider_and_near_nominal_at_100_groups():
    r = band_coverage(World(icc=0.8, pi=0.3), 100, 60, 150, seed=1)
    for c in ("roc", "pr", "prg"):
        g, row = r["group", c], r["row", c]
        print(f"{c}: pointwise coverage grouped {g['coverage']:.3f}, rows {row['coverage']:.3f}; width grouped "
              f"{g['width']:.3f}, rows {row['width']:.3f}")
        assert g["width"] > 1.25 * row["width"]
        assert g["coverage"] >= 0.88  # nominal 0.95; the ROC band's ends undercover as the row-level one's
        assert row["coverage"] <= g["coverage"] - 0.05


def test_groups_drawn_within_their_strata():
    """Pure-class groups, each stratum (fold) one class: drawn within strata no resample loses a class;
    over all groups (no strata) some do and are dropped."""
    y = np.repeat([1, 1, 1, 0, 0, 0], 4).astype(bool)
    s = np.random.default_rng(0).standard_normal(y.size) + y
    g = np.repeat(np.arange(6), 4)
    within = curve_bands(y, s, groups=g, strata=y.astype(int), n_boot=400, curves=("roc",), rng=1)
    over = curve_bands(y, s, groups=g, n_boot=400, curves=("roc",), rng=1)
    assert within["roc"].n_resamples == 400
    assert 350 < over["roc"].n_resamples < 400  # 2 / 2^6 of the resamples hold one class


def test_grouped_resample_weights_rows_by_their_groups_count():
    """One row per group: the grouped bootstrap is the row bootstrap over all rows (not within class), so
    its band equals one computed from the same draws by hand."""
    rng = np.random.default_rng(2)
    y = rng.random(80) < 0.4
    s = rng.standard_normal(80) + y
    b = curve_bands(y, s, groups=np.arange(80), curves=("pr",), n_boot=50, rng=3)["pr"]
    from prspace.stats.bands import curve_at
    from prspace.stats.resampling import StratumSampler
    sampler = StratumSampler(np.zeros(80, dtype=np.int64), np.random.default_rng(3))
    ties = np.unique(-s, return_inverse=True)[1].ravel()
    reps = []
    for _ in range(50):
        counts = np.empty(80)
        counts[sampler.order] = sampler.counts()
        reps.append(curve_at("pr", np.bincount(ties, counts * y), np.bincount(ties, counts * ~y), b.grid))
    lo = np.quantile(np.array(reps), 0.025, axis=0)
    np.testing.assert_allclose(b.lo, lo, rtol=0, atol=1e-12)


def test_audit_bands_follow_group_col():
    block = draw(World(icc=0.8, d=(1.2, 1.0)), 60, np.random.default_rng(4))
    frame = pd.concat([pd.DataFrame({"model": m, "label": block.y.astype(int), "score": block.scores[k],
                                     "patient": block.cluster, "row": np.arange(block.y.size)})
                       for k, m in enumerate(block.models)])
    grouped = audit.audit(frame, group_col="patient", n_boot=300)
    rows = audit.audit(frame.drop(columns="patient"), n_boot=300)
    bg, br = grouped.bands("all", "a", "pr"), rows.bands("all", "a", "pr")
    np.testing.assert_array_equal(bg.estimate, br.estimate)
    assert np.mean(bg.hi - bg.lo) > 1.2 * np.mean(br.hi - br.lo)
    mine = grouped.data[grouped.data["model"] == "a"]
    direct = curve_bands(mine["y"].to_numpy(bool), mine["score"].to_numpy(), groups=mine["group"].to_numpy(),
                         n_boot=300, rng=grouped.seed, strata=np.zeros(len(mine)))["pr"]
    np.testing.assert_array_equal(bg.lo, direct.lo)  # the audit passes its groups (one fold: one stratum)


def test_grouped_bands_are_drawn_by_the_grouped_table():
    """With groups the drawing rule reads the grouped table at the most groups calibrated not above the task's
    (NaN below the fewest); without, the row-level table as before."""
    from prspace.audit.inference.audit_bands import GROUP_CELLS, band_coverage, band_shown
    from prspace.audit.inference.coverage import TARGET

    assert {c[0] for c in GROUP_CELLS} == {"roc", "pr", "prg"}
    sizes = sorted({c[1] for c in GROUP_CELLS})
    for curve, n_groups, cov, _se, _reps in GROUP_CELLS:
        for g in (n_groups, n_groups + 1):  # a task between two cells takes the lower one
            if g == n_groups + 1 and g in sizes:
                continue
            assert band_coverage(curve, 500, 1000, n_groups=g)[0] == cov
            assert band_shown(curve, 500, 1000, n_groups=g) == (cov >= TARGET)
    assert np.isnan(band_coverage("prg", 500, 1000, n_groups=sizes[0] - 1)[0])
    assert not band_shown("prg", 500, 1000, n_groups=sizes[0] - 1)


def test_grouped_bands_figure_follows_the_grouped_rule():
    from matplotlib.collections import PolyCollection

    from prspace.audit.inference.audit_bands import band_shown
    from prspace.audit.report import plot

    block = draw(World(icc=0.8, d=(1.2, 1.0)), 60, np.random.default_rng(4))
    frame = pd.concat([pd.DataFrame({"model": m, "label": block.y.astype(int), "score": block.scores[k],
                                     "patient": block.cluster, "row": np.arange(block.y.size)})
                       for k, m in enumerate(block.models)])
    res = audit.audit(frame, group_col="patient", n_boot=100)
    assert res.n_groups("all") == 60
    fig = plot.bands_figure(res, res.shown_bands())
    assert "resamples of whole groups of 'patient'" in fig._suptitle.get_text()
    n_pos = float(res.pooled["n_pos"].iloc[0])
    n = n_pos + float(res.pooled["n_neg"].iloc[0])
    shown = [band_shown(c, n_pos, n, n_groups=60) for c in ("roc", "pr", "prg")]
    assert shown != [band_shown(c, n_pos, n) for c in ("roc", "pr", "prg")]  # the grouped rule, not the row one
    for ax, curve, drawn in zip([ax for ax in fig.axes if ax.axison], ("roc", "pr", "prg"), shown, strict=True):
        fills = [c for c in ax.collections if isinstance(c, PolyCollection)]
        assert bool(fills) == drawn, curve
        assert ("no band: at 30 groups, it covers" in ax.get_title()) == (not drawn)
        assert ("nearest this task's 60 groups" in ax.get_title()) == (not drawn)
    table = res.band_table()
    assert dict(zip(table["curve"], table["calibrated"], strict=False)) == dict(zip(("roc", "pr", "prg"), shown,
                                                                                    strict=True))


@pytest.mark.parametrize("groups,words", [(np.arange(3), "one value per row"),
                                          (np.array([1.0, np.nan, 2.0, 2.0]), "missing values")])
def test_bad_groups(groups, words):
    with pytest.raises(InputError, match=words):
        curve_bands([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6], groups=groups)
