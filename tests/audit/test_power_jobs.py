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


def test_grouped_power_in_two_processes_equals_one_after_the_other(monkeypatch):
    """One metric with groups: the groups needed and the answer at each planned number of groups in two processes,
    the same as one after the other."""
    rng = np.random.default_rng(5)
    g = np.repeat(np.arange(60), 4)
    u = rng.normal(size=60)[g]
    y = rng.random(g.size) < 1 / (1 + np.exp(-(u - 0.8)))
    wide = pd.DataFrame({"patient": g, "y_true": y.astype(int), "lr": 1.2 * y + u + rng.standard_normal(g.size),
                         "rf": 0.7 * y + u + rng.standard_normal(g.size)})
    data = read_frame(wide, {}, score_cols="lr,rf", group_col="patient")[3]
    kw = dict(metrics=("aupr",), sims=20, seed=1, n_groups=[40, 80])
    forked = []
    real = PJ.ProcessPoolExecutor
    monkeypatch.setattr(PJ, "ProcessPoolExecutor", lambda *a, **k: forked.append(1) or real(*a, **k))
    both = audit_power.power_table(data, **kw)
    assert forked == [1] and len(both) == 2
    monkeypatch.setattr(PJ, "WORKERS", 1)
    pd.testing.assert_frame_equal(both, audit_power.power_table(data, **kw))
