"""Boyd rows that follow from Theorem 1 by arithmetic: flagged in the registry, shown on the pages.

The registry flags a primary claim whose sign follows from a theorem (``extra["follows_from"]``); the
row label of the pages and the verdict's explanation then say "follows from Theorem 1 by arithmetic:
cannot fail on data". The premise is checked here on random rankings: at a fixed ROC curve (the
negatives reweighted, so the test set's pi changes and nothing else) precision pi t / (pi t + (1 - pi) f)
rises with pi at every ROC point (Theorem 1's arithmetic), so AUPR and AUCNPR rise with pi, and so does
the gap of AUPR over its value at the original pi (its least-squares slope is positive).
scikit-learn's average precision (another estimator of the same area, written by others) rises too.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score

from prspace import metrics
from prspace.core import claims as REG
from prspace.core.evidence import evidence_frame, evidence_row
from prspace.verdicts import study_evidence as EV
from prspace.verdicts.verdict_labels import follows_note, label

FLAGGED = {"boyd.sec4_3.aupr_rises", "boyd.sec4_3.gap_grows_with_pi", "boyd.sec4_3.aucnpr_still_moves"}
NOTE = "follows from Theorem 1 by arithmetic: cannot fail on data"
#: Test-set pis: original ones of the downsampling study (<= 0.1) and the downsampled ratios 1:10 to 1:1.
PIS = (0.005, 0.02, 0.05, 0.08, 1 / 11, 1 / 6, 1 / 5, 1 / 4, 1 / 3, 1 / 2)


def _flagged() -> dict[str, REG.Claim]:
    return {c.claim_id: c for c in REG.CLAIMS if c.extra.get("follows_from")}


def test_every_flagged_row_names_its_theorem():
    flagged = _flagged()
    assert set(flagged) == FLAGGED
    for cid, c in flagged.items():
        name = c.extra["follows_from"]
        assert re.fullmatch(r"Theorem \d+", name), (cid, name)
        # the theorem is one the registry checks against this code, in the same paper
        checked = [t for t in REG.CLAIMS if t.role == "implementation" and t.paper == c.paper == REG.BOYD
                   and t.where.endswith(f", {name}")]
        assert [t.claim_id for t in checked] == ["boyd.thm1"], (cid, name)
        assert c.role == "primary" and c.quantity == "direction"
        assert follows_note(cid).startswith(NOTE) and NOTE in label(cid)
    # a claim the data can contradict carries no note
    for c in REG.CLAIMS:
        if c.claim_id not in FLAGGED:
            assert follows_note(c.claim_id) == "" and NOTE not in label(c.claim_id), c.claim_id
    assert "training ratio" in follows_note("boyd.sec4_3.gap_grows_with_pi")  # where it holds, when not everywhere


def test_the_verdict_explanation_says_it_first():
    rows = [evidence_row(paper=REG.BOYD, claim_id=cid, claim="c", kind="direction", paper_value=1.0, estimate=0.3,
                         ci_lo=0.2, ci_hi=0.4, n_tasks=20.0, n_families=12.0, level=0.95, mc_error=0.0001,
                         detail="the detail")
            for cid in ("boyd.sec4_3.aupr_rises", "boyd.sec4_3.aucnpr_moves_less")]
    v = EV.verdict_table(evidence_frame(rows)).set_index("claim_id")
    assert v.loc["boyd.sec4_3.aupr_rises", "explanation"].startswith("Follows from Theorem 1 by arithmetic: cannot fail "
                                                                    "on data. ")
    assert "the detail" in v.loc["boyd.sec4_3.aupr_rises", "explanation"]
    assert "arithmetic" not in v.loc["boyd.sec4_3.aucnpr_moves_less", "explanation"]


def _at(y: np.ndarray, s: np.ndarray, pi: float) -> tuple[float, float, float]:
    """AUPR, AUCNPR and AP of one ranking on a test set of that pi: the classes reweighted."""
    w = np.where(y, pi / y.sum(), (1 - pi) / (~y).sum())
    return (metrics.aupr(y, s, sample_weight=w), metrics.aucnpr(y, s, sample_weight=w),
            float(average_precision_score(y, s, sample_weight=w)))


@pytest.mark.parametrize("seed", range(4))
def test_the_flagged_signs_follow_on_random_rankings(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        n_pos, n_neg = int(rng.integers(1, 30)), int(rng.integers(1, 60))
        y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
        s = rng.normal(0, 1, y.size) + rng.uniform(-3, 6) * y
        if rng.random() < 0.4:
            s = np.round(s)  # ties
        a, n, ap = (np.array(x) for x in zip(*(_at(y, s, p) for p in PIS), strict=True))
        # aupr_rises and aucnpr_still_moves: every higher pi scores at least as high (to rounding)
        assert np.diff(a).min() > -1e-12 and np.diff(n).min() > -1e-12 and np.diff(ap).min() > -1e-12
        # gap_grows_with_pi: the gap over the original pi rises with the downsampled pi, so its slope is positive
        down = np.array(PIS[4:])
        gap = a[4:] - a[3]
        assert np.polyfit(down, gap, 1)[0] >= -1e-12


def test_a_random_ranking_rises_as_the_arithmetic_says():
    """The ROC diagonal: AUPR is pi and AUCNPR (pi - m) / (1 - m), m = Theorem 2's floor; both rise."""
    y = np.r_[np.ones(50, bool), np.zeros(150, bool)]
    s = np.zeros(y.size)  # one tie: the diagonal
    rows = pd.DataFrame([(p, *_at(y, s, p)[:2]) for p in PIS], columns=["pi", "aupr", "aucnpr"])
    m = 1 + (1 - rows["pi"]) * np.log(1 - rows["pi"]) / rows["pi"]
    assert rows["aupr"].to_numpy() == pytest.approx(rows["pi"].to_numpy(), abs=1e-12)
    assert rows["aucnpr"].to_numpy() == pytest.approx(((rows["pi"] - m) / (1 - m)).to_numpy(), abs=1e-9)
    assert rows["aucnpr"].is_monotonic_increasing
