"""experiments.ranking.learner_tables: the learner tables of `prspace rank`, including their empty fallbacks."""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.experiments import ranking as RANKING


def _metrics() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    rows = []
    for t in range(5):
        for f, (fid, name) in enumerate([("1", "tree"), ("2", "forest"), ("3", "knn")]):
            rows.append({"task_id": str(100 + t), "model_id": f"m{f}", "flow_id": fid, "flow_name": name,
                         **{m: float(rng.uniform(0.2, 0.9)) for m in ("aupr", "aucnpr", "auprg", "auroc")}})
    rows.append({"task_id": "100", "model_id": "m9", "flow_id": "9", "flow_name": "rare",  # on one task only
                 "aupr": 0.99, "aucnpr": 0.99, "auprg": 0.99, "auroc": 0.99})
    return pd.DataFrame(rows)


def test_learner_tables_are_the_primitives_composed():
    m = _metrics()
    t = RANKING.learner_tables(m)
    assert t.problem is None
    expected = RANKING.learner_ranking_across_tasks(m, ["aupr", "aucnpr", "auprg"], learner="flow_id")
    pd.testing.assert_frame_equal(t.learners.drop(columns="flow_name"), expected)
    assert list(t.learners.columns[:2]) == ["flow_id", "flow_name"]
    assert dict(zip(t.learners["flow_id"], t.learners["flow_name"], strict=True)) == {"1": "tree", "2": "forest", "3": "knn"}
    assert "9" not in set(t.learners["flow_id"])  # not on every task
    pd.testing.assert_frame_equal(t.agreement, RANKING.learner_order_agreement(expected, ["aupr", "aucnpr", "auprg"],
                                                                         learner="flow_id"))
    pd.testing.assert_frame_equal(t.winners, RANKING.learner_winners(m, ["aupr", "aucnpr", "auprg", "auroc"]))
    # the best by mean AUPR is the learner with the largest mean AUPR over the five tasks
    means = m[m["flow_id"] != "9"].groupby("flow_id")["aupr"].mean()
    assert t.learners.iloc[0]["flow_id"] == means.idxmax()


def test_metrics_the_table_lacks_are_left_out():
    t = RANKING.learner_tables(_metrics().drop(columns=["aucnpr"]))
    assert "mean_aucnpr" not in t.learners.columns and "mean_aupr" in t.learners.columns
    assert set(t.winners["metric"]) == {"aupr", "auprg", "auroc"}


def test_no_learner_on_enough_tasks_gives_empty_tables_and_the_reason():
    t = RANKING.learner_tables(_metrics(), min_share=2.0)
    assert "no flow_id occurs in at least 200% of the 5 tasks" in t.problem
    assert t.learners.empty and list(t.learners.columns) == ["flow_id", "flow_name", "n_tasks"]
    assert t.agreement.empty and list(t.agreement.columns) == RANKING.AGREEMENT_COLUMNS
    assert not t.winners.empty  # the winners only need learners on every task


def test_no_learner_on_every_task_gives_no_winner_either():
    # an OpenML draw: 30 flows per task from hundreds, none on every task (the loopback's 886-task draw)
    df = _metrics()
    df = df[~((df.flow_id == "1") & (df.task_id == "101")) & ~((df.flow_id == "2") & (df.task_id == "102"))
            & ~((df.flow_id == "3") & (df.task_id == "103"))]
    t = RANKING.learner_tables(df)
    assert "no flow_id occurs in at least 100% of the 5 tasks" in t.problem and t.learners.empty
    assert t.winners.empty and list(t.winners.columns) == RANKING.WINNER_COLUMNS
