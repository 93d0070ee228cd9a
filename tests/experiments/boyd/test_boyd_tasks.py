"""The tasks of Boyd's downsampling and fold-skew experiments (prspace.experiments.boyd.boyd_tasks)."""

from __future__ import annotations

import pandas as pd

from prspace.experiments.boyd import boyd_tasks as BT


def test_boyd_task_selection():
    table = pd.DataFrame({"task_id": ["a", "b", "c", "d"], "n": [100, 100, 100, 100], "n_pos": [5, 9, 20, 40]})
    assert BT.downsampling_tasks(table, ["a", "b", "c", "d"], max_pi=0.2, min_positives=6, max_tasks=None) == ["b", "c"]
    assert BT.downsampling_tasks(table, ["a", "b", "c"], max_pi=0.5, min_positives=1, max_tasks=2) == ["a", "b"]
    assert BT.fold_skew_tasks(table, ["a", "b", "c", "d"], min_positives=9, max_tasks=2) == ["b", "c"]


def test_a_given_pi_column_is_used_and_the_lowest_pi_come_first():
    table = pd.DataFrame({"task_id": [3, 1, 2], "n": [10, 10, 10], "n_pos": [9, 9, 9], "pi": [0.3, 0.1, 0.2]})
    # ids as text; pi from the column (not n_pos / n = 0.9 for all), lowest first, then sorted by id
    assert BT.fold_skew_tasks(table, ["1", "2", "3"], min_positives=1, max_tasks=2) == ["1", "2"]
    assert BT.downsampling_tasks(table, ["1", "2", "3"], max_pi=0.25, min_positives=1, max_tasks=None) == ["1", "2"]
