"""Panel draws: the vectorised re-ranking equals the study's ranking code on every draw, and the
spread behaves as a draw of panels must."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace.core.errors import InputError
from prspace.experiments.fk import panel_draws as PD
from prspace.experiments.ranking import all_disagreements, rank_models


def _metrics(n_tasks: int = 6, n_models: int = 12, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        q = rng.normal(size=n_models)
        for m in range(n_models):
            rows.append({"task_id": f"t{t}", "model_id": f"m{m:02d}",
                         "aupr": round(q[m] + 0.3 * rng.normal(), 1),  # coarse: ties at the top happen
                         "auprg": q[m] + 0.3 * rng.normal(), "auroc": q[m] + 0.5 * rng.normal()})
    return pd.DataFrame(rows)


def test_each_draw_equals_the_ranking_code():
    m = _metrics()
    rng = np.random.default_rng(5)
    for _, g in m.groupby("task_id"):
        g = g.sort_values("model_id")
        v = np.round(g[list(PD.METRICS)].to_numpy(np.float64), PD.DECIMALS)
        draws = np.argsort(rng.random((4, len(g))), axis=1)[:, :7]
        got = PD.task_statistics(v, draws)
        for d in range(4):
            sub = g.iloc[draws[d]]
            ref = all_disagreements(rank_models(sub, list(PD.METRICS)), list(PD.METRICS)).set_index(["metric_a", "metric_b"])
            for a, b in PD.PAIRS:
                r = ref.loc[(a, b)]
                assert got[f"top1|{a}_{b}"][d] == float(bool(r["top1_differs"]))
                assert got[f"top3|{a}_{b}"][d] == float(bool(r["top3_differs"]))
                assert got[f"spearman|{a}_{b}"][d] == pytest.approx(float(r["spearman"]), abs=1e-12)


def test_whole_panel_is_the_study_estimate_and_draws_spread_around_it():
    m = _metrics(n_tasks=20)
    t = PD.panel_draws(m, n_draws=50, panel_size=12, seed=1).set_index("claim_id")
    # a panel of every model is the whole panel: no spread, and the estimate is the study's
    per = all_disagreements(rank_models(m, list(PD.METRICS)), list(PD.METRICS))
    for a, b in PD.PAIRS:
        p = per[(per.metric_a == a) & (per.metric_b == b)]
        assert t.loc[f"fk.{a}_{b}.top1", "estimate_all"] == pytest.approx(p["top1_differs"].mean())
        assert t.loc[f"fk.{a}_{b}.spearman", "p50"] == pytest.approx(p["spearman"].mean())
        assert t.loc[f"fk.{a}_{b}.top3", "sd"] == pytest.approx(0.0, abs=1e-12)
    s = PD.panel_draws(m, n_draws=50, panel_size=6, seed=1).set_index("claim_id")
    assert (s["p05"] <= s["p50"]).all() and (s["p50"] <= s["p95"]).all()
    assert (s["sd"] > 0).all()  # half panels move every estimate
    # seeded: the same seed gives the same table, another seed another draw
    pd.testing.assert_frame_equal(s.reset_index(), PD.panel_draws(m, n_draws=50, panel_size=6, seed=1))
    assert not PD.panel_draws(m, n_draws=50, panel_size=6, seed=2).equals(s.reset_index())


def test_bad_input_says_what_to_fix():
    with pytest.raises(InputError, match="panel_size"):
        PD.panel_draws(_metrics(), n_draws=5, panel_size=1, seed=0)
    with pytest.raises(InputError, match="auroc"):
        PD.panel_draws(_metrics().drop(columns="auroc"), n_draws=5, panel_size=3, seed=0)


ROOT = Path(__file__).resolve().parents[3]


def test_step_title_says_how_many_of_how_many():
    from prspace.experiments.steps.panel_draws_step import title

    assert title(20, [30] * 61).endswith("random 20-of-30 model panels per task")
    assert "random 30-of-40-to-45 model panels" in title(30, [45, 40, 44])


@pytest.mark.parametrize("study", ["default", "paperlike", "panel-pool"])
def test_step_writes_the_committed_tables_of_each_study(study, tmp_path):
    """The step on a study's committed metrics and task tables writes its committed panel_draws.csv and .md,
    byte for byte: the title (how many of how many models) and the note (the source) come from the data."""
    import yaml

    from prspace.core.steps import write_step
    from prspace.experiments.steps.panel_draws_step import panel_draws_step

    tables = ROOT / "results" / study / "tables"
    cfg = {"default": "config.yaml", "paperlike": "config/paperlike.yaml", "panel-pool": "config/panel-pool.yaml"}
    settings = {"n_draws": 200, "panel_size": 20,
                **yaml.safe_load((ROOT / cfg[study]).read_text()).get("analysis", {}).get("panel_draws", {})}
    out = panel_draws_step({"metrics": tables / "metrics.csv", "tasks": tables / "tasks.csv"}, seed=0, **settings)
    write_step(out, tables_dir=tmp_path)
    for ext in ("csv", "md"):
        assert (tmp_path / f"panel_draws.{ext}").read_bytes() == (tables / f"panel_draws.{ext}").read_bytes(), ext
    assert "Source: local learners" in (tmp_path / "panel_draws.md").read_text()


def test_step_refuses_a_task_table_without_its_columns(tmp_path):
    from prspace.experiments.steps.panel_draws_step import panel_draws_step

    _metrics().to_csv(tmp_path / "m.csv", index=False)
    pd.DataFrame({"task_id": [f"t{i}" for i in range(6)], "status": "ok"}).to_csv(tmp_path / "t.csv", index=False)
    with pytest.raises(InputError, match="lacks column"):
        panel_draws_step({"metrics": tmp_path / "m.csv", "tasks": tmp_path / "t.csv"}, n_draws=5, panel_size=3, seed=0)
