"""The checks of the seed test of the primary verdicts (``tests/verdicts/test_primary_seeds.py`` for the default study,
``test_primary_seeds_paperlike.py`` for the paper-like one: two modules, so that the two studies' reruns,
the longest units of the suite, run on both workers at once)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.verdicts import primary as P
from prspace.verdicts import report as VR
from prspace.verdicts import rule as R

#: The seeds each study's primary verdicts are recomputed under, against the committed seed 0 (each rerun is
#: the engine's ten reruns at the committed settings, about 60-75 CPU s a study).  Two, not four: simulated
#: over 20 interval ends, a stated MC error 3x too small (issue 40's) breaks the 8-MC-error bound below with
#: probability 0.96 with two seeds (1.00 with four, 0.71 with one), 2x too small 0.23 (0.54 with four);
#: the two seeds saved take ~4 CPU minutes off the suite.
SEEDS = (1, 2)

ROOT = Path(__file__).resolve().parents[1]


def _committed(study: str) -> pd.DataFrame:
    v = pd.read_csv(ROOT / "results" / study / "tables" / "verdicts.csv")
    return v[v.claim_id.isin(REG.primary_ids())].set_index("claim_id").loc[list(REG.primary_ids())]


def _has_interval(v: pd.DataFrame) -> np.ndarray:
    """Rows with an interval: all but the test-kind row (``fk.all_different`` decides by a p-value)."""
    out = v["ci_lo"].notna().to_numpy()
    assert set(v.index[~out]) == {c for c in REG.primary_ids() if REG.BY_ID[c].quantity == "test"}
    return out


def check_monte_carlo_error_within_the_target(study: str) -> None:
    """The stated MC error of every interval end (measured over the ten reruns) is at most 0.002."""
    v = _committed(study)
    ends = v.loc[_has_interval(v), ["mc_error_lo", "mc_error_hi"]].to_numpy(np.float64)
    assert np.isfinite(ends).all() and (ends <= P.MC_TARGET).all(), v.loc[_has_interval(v), "mc_error"].max()


def _mc_to_threshold(v: pd.DataFrame) -> pd.Series:
    """Each row's nearest end-to-threshold distance in units of that end's MC error; the thresholds of
    the four outcomes are the value and value +- margin (the value is 0 for a difference or a direction)."""
    out = {}
    for cid, r in v.iterrows():
        val = 0.0 if r["kind"] in ("equivalence", "direction") else float(r["paper_value"])
        th = np.array([val - r["margin"], val, val + r["margin"]])
        out[cid] = min(np.abs(th - r["ci_lo"]).min() / max(r["mc_error_lo"], 1e-9),
                       np.abs(th - r["ci_hi"]).min() / max(r["mc_error_hi"], 1e-9))
    return pd.Series(out)


def _decided(verdict: str) -> bool:
    return not verdict.startswith(("borderline", "inconclusive"))


def check_verdicts_do_not_move_with_the_seed(study: str, seeds: tuple[int, ...] = SEEDS) -> None:
    """A verdict can move with the seed only at a close call: the rows whose verdict differs from the
    committed one under the other seeds all have an end within 4 MC errors of a threshold (the rule marks
    those within 2 borderline), and none moves from one decided outcome to another; every end moves by
    at most 8 of its MC errors. A stated MC error that is too small fails this (it did: issue 40)."""
    committed = _committed(study)
    t = ROOT / "results" / study / "tables"
    ok = _has_interval(committed)
    close = _mc_to_threshold(committed[ok]) <= 4
    runs = []
    for seed in seeds:
        ev = VR.collect_evidence(t, n_boot=P.DEFAULT_N_BOOT, seed=seed, power=False)
        r = R.apply_rule(ev[ev.claim_id.isin(REG.primary_ids())]).set_index("claim_id").loc[committed.index]
        runs.append(r)
        for cid in r.index[r["verdict"] != committed["verdict"]]:
            was, now = committed.at[cid, "verdict"], r.at[cid, "verdict"]
            assert bool(close.get(cid, False)), f"seed {seed}: {cid} moved from {was!r} to {now!r} far from a threshold"
            assert not (_decided(was) and _decided(now)), f"seed {seed}: {cid} moved from {was!r} to {now!r}"
    mc = np.fmax(committed["mc_error"].to_numpy(np.float64), 1e-4)[ok]
    for end in ("ci_lo", "ci_hi"):
        ends = np.array([committed[end].to_numpy(np.float64)] + [r[end].to_numpy(np.float64) for r in runs])[:, ok]
        spread = np.ptp(ends, axis=0)
        assert (spread <= 8 * mc).all(), dict(zip(committed.index[ok], spread / mc, strict=True))
