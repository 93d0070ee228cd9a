"""``prspace power``'s metrics in two processes (:mod:`prspace.audit.simulation.power_jobs`): the same answers, bit for
bit, as one metric after the other (each power computation seeds its own draws), and a job's error raised once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

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


def _in_a_fresh_process(body: str) -> None:
    """Run ``body`` in a new interpreter: :func:`~prspace.audit.simulation.power_jobs.run_jobs` forks only where
    the process runs one thread, and a pytest-xdist worker runs execnet's receiver thread beside its tests (so in
    the suite's workers the jobs run one after the other, as they should). ``forked`` counts the process pools made."""
    script = textwrap.dedent('''
        import numpy as np, pandas as pd
        from prspace.audit.audit_result import read_frame
        from prspace.audit.simulation import audit_power
        from prspace.audit.simulation import power_jobs as PJ
        import os
        forked = []
        pools = [1] if len(os.sched_getaffinity(0)) > 1 else []  # forked where there are two cores
        real = PJ.ProcessPoolExecutor
        PJ.ProcessPoolExecutor = lambda *a, **k: forked.append(1) or real(*a, **k)
    ''') + textwrap.dedent(body)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})
    assert res.returncode == 0, res.stderr[-3000:]
    assert res.stdout.strip() == "ok", res.stdout


def test_power_table_in_two_processes_equals_one_metric_after_the_other():
    _in_a_fresh_process('''
        rng = np.random.default_rng(3)
        n = 240
        y = rng.random(n) < 0.3
        wide = pd.DataFrame({"y_true": y.astype(int), "lr": 1.2 * y + rng.standard_normal(n),
                             "rf": 0.9 * y + rng.standard_normal(n), "nb": 0.6 * y + rng.standard_normal(n)})
        data = read_frame(wide, {}, score_cols="lr,rf,nb")[3]
        kw = dict(metrics=("auroc", "aupr"), sims=40, seed=2, n_pos=[30, 60])
        both = audit_power.power_table(data, **kw)
        assert forked == pools, forked
        PJ.WORKERS = 1
        one = audit_power.power_table(data, **kw)
        assert forked == pools and len(both) == 4
        pd.testing.assert_frame_equal(both, one)
        print("ok")
    ''')


def test_grouped_power_in_two_processes_equals_one_after_the_other():
    """One metric with groups: the groups needed and the answer at each planned number of groups in two processes,
    the same as one after the other."""
    _in_a_fresh_process('''
        rng = np.random.default_rng(5)
        g = np.repeat(np.arange(60), 4)
        u = rng.normal(size=60)[g]
        y = rng.random(g.size) < 1 / (1 + np.exp(-(u - 0.8)))
        wide = pd.DataFrame({"patient": g, "y_true": y.astype(int), "lr": 1.2 * y + u + rng.standard_normal(g.size),
                             "rf": 0.7 * y + u + rng.standard_normal(g.size)})
        data = read_frame(wide, {}, score_cols="lr,rf", group_col="patient")[3]
        kw = dict(metrics=("aupr",), sims=20, seed=1, n_groups=[40, 80])
        both = audit_power.power_table(data, **kw)
        assert forked == pools and len(both) == 2, forked
        PJ.WORKERS = 1
        pd.testing.assert_frame_equal(both, audit_power.power_table(data, **kw))
        print("ok")
    ''')
