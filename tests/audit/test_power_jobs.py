"""``prspace power``'s metrics in two processes (:mod:`prspace.audit.simulation.power_jobs`): the same answers, bit for
bit, as one metric after the other (each power computation seeds its own draws), and a job's error raised once."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from prspace.audit.audit_result import read_frame
from prspace.audit.simulation import audit_power
from prspace.audit.simulation import power_jobs as PJ
from prspace.core.errors import InputError


def test_run_jobs_returns_each_jobs_result_in_order_and_raises_a_jobs_error():
    got = PJ.run_jobs([lambda k=k: (k, os.getpid()) for k in range(5)])
    assert [k for k, _ in got] == list(range(5))
    assert PJ._JOBS == []  # the jobs are not kept

    def bad():
        raise InputError("planned sizes need at least 2 positives; give more")

    with pytest.raises(InputError, match="give more"):
        PJ.run_jobs([lambda: 1, bad])
    assert PJ.run_jobs([]) == [] and PJ.run_jobs([lambda: 7]) == [7]


def test_power_table_in_two_processes_equals_one_metric_after_the_other(monkeypatch):
    rng = np.random.default_rng(3)
    n = 240
    y = rng.random(n) < 0.3
    wide = pd.DataFrame({"y_true": y.astype(int), "lr": 1.2 * y + rng.standard_normal(n),
                         "rf": 0.9 * y + rng.standard_normal(n), "nb": 0.6 * y + rng.standard_normal(n)})
    data = read_frame(wide, {}, score_cols="lr,rf,nb")[3]
    kw = dict(metrics=("auroc", "aupr"), sims=40, seed=2, n_pos=[30, 60])
    forked = []
    real = PJ.ProcessPoolExecutor
    monkeypatch.setattr(PJ, "ProcessPoolExecutor", lambda *a, **k: forked.append(1) or real(*a, **k))
    both = audit_power.power_table(data, **kw)
    assert forked  # two processes were used (one thread here: -n 0)
    monkeypatch.setattr(PJ, "WORKERS", 1)
    one = audit_power.power_table(data, **kw)
    assert len(forked) == 1 and len(both) == 4
    pd.testing.assert_frame_equal(both, one)
