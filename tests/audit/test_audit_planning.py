"""``prspace power`` with the audit's inputs (wide files, weights, errors naming the file) and its
planning mode from assumed values (:mod:`prspace.audit.simulation.planning`), checked against test sets drawn
fresh from the binormal truth and against R's pROC ``power.roc.test`` (AUROC)."""

from __future__ import annotations

import subprocess

import numpy as np
import pandas as pd
import pytest

from _rscript import r_available
from prspace.audit.audit_result import read_frame
from prspace.audit.simulation.audit_power import Pair, difference, power_table, reject
from prspace.audit.simulation.planning import plan_power
from prspace.cli import main


def _truth(plan, sims: int, seed: int) -> tuple[float, float]:
    """The audit's test's detection rate on ``sims`` test sets drawn fresh from the binormal truth the
    plan assumes (its solved means, its correlation), and its Monte Carlo se."""
    rng = np.random.default_rng(seed)
    m, n, r = plan.cases, plan.controls, plan.corr
    y = np.r_[np.ones(m, bool), np.zeros(n, bool)]
    z1 = rng.standard_normal((sims, m + n))
    z2 = r * z1 + np.sqrt(1 - r * r) * rng.standard_normal((sims, m + n))
    hit = reject(plan.metric, y, plan.mu_a * y + z1, plan.mu_b * y + z2, plan.level,
                 float(np.sign(plan.value_a - plan.value_b)))
    p = float(hit.mean())
    return p, float(np.sqrt(p * (1 - p) / sims))


def _proc(a: float, b: float, cases: int, controls: int, corr: float) -> float:
    """pROC's power.roc.test in its binormal-parameter form (Obuchowski and McClish): A = sqrt(2)
    qnorm(AUC), B = 1, rn = ra = corr."""
    code = (f"suppressMessages(library(pROC)); cat(power.roc.test(list(A1=sqrt(2)*qnorm({a}), B1=1, "
            f"A2=sqrt(2)*qnorm({b}), B2=1, rn={corr}, ra={corr}, delta={a}-{b}), ncases={cases}, "
            f"ncontrols={controls})$power)")
    return float(subprocess.run(["Rscript", "-e", code], capture_output=True, text=True, check=True).stdout)


def test_planned_auroc_mean_is_the_binormal_closed_form():
    plan = plan_power("auroc", 0.85, 0.80, cases=100, controls=400, corr=0.5, sims=20, corrected=False)
    # AUROC of N(mu, 1) against N(0, 1) is Phi(mu / sqrt 2); the population's solve is within its sampling error
    assert plan.mu_a == pytest.approx(np.sqrt(2) * 1.0364334, abs=0.03)
    assert plan.mu_b == pytest.approx(np.sqrt(2) * 0.8416212, abs=0.03)


@pytest.mark.parametrize("metric, a, b, cases, controls, corr", [
    ("auroc", 0.85, 0.80, 100, 400, 0.5),
    ("average_precision", 0.60, 0.48, 60, 240, 0.5),
    ("auprg", 0.80, 0.62, 60, 240, 0.3),
])
def test_planned_power_matches_fresh_binormal_test_sets(metric, a, b, cases, controls, corr):
    sims = 1000 if metric == "auroc" else 200
    plan = plan_power(metric, a, b, cases=cases, controls=controls, corr=corr, sims=sims, seed=3)
    truth, se = _truth(plan, sims, seed=17)
    assert 0.15 < truth < 0.95  # a power that can be told from 0 and 1
    # tolerance: 3 Monte Carlo se of the difference (AUROC 1000 + 1000 sets: about 0.066; PR metrics 200 + 200: about 0.15)
    assert abs(plan.power - truth) <= 3 * np.hypot(plan.mc_se, se), (plan.power, truth)


def test_planned_power_grows_with_size_and_correlation():
    small = plan_power("auroc", 0.85, 0.80, cases=50, controls=200, corr=0.5, sims=600).power
    big = plan_power("auroc", 0.85, 0.80, cases=300, controls=1200, corr=0.5, sims=600).power
    loose = plan_power("auroc", 0.85, 0.80, cases=300, controls=1200, corr=0.0, sims=600).power
    assert small + 0.2 < big and loose + 0.1 < big


@pytest.mark.skipif(r_available() is not None, reason=str(r_available()))
@pytest.mark.parametrize("corr", [0.0, 0.5])
def test_planned_auroc_agrees_with_proc_near_chance(corr):
    """Near AUROC 0.5 pROC's binormal variances are the DeLong test's (both 1/6 per case at 0.5) and
    the two AUCs' variances are equal (V0 = VA): pROC and the plan must agree."""
    plan = plan_power("auroc", 0.60, 0.55, cases=300, controls=300, corr=corr, sims=1000, corrected=False)
    proc = [_proc(0.60, 0.55, 300, 300, corr), _proc(0.55, 0.60, 300, 300, corr)]
    for p in proc:
        assert abs(plan.power - p) <= 3 * plan.mc_se + 0.01, (plan.power, proc)


@pytest.mark.skipif(r_available() is not None, reason=str(r_available()))
def test_far_from_chance_the_truth_sides_with_the_plan_not_proc():
    """At AUROC 0.85 against 0.80 Obuchowski's binormal variance (pROC) exceeds the DeLong test's
    real variance: pROC's power lies below the truth in both argument orders, the plan's does not."""
    plan = plan_power("auroc", 0.85, 0.80, cases=100, controls=400, corr=0.0, sims=1000, corrected=False)
    truth, se = _truth(plan, 3000, seed=5)
    proc = [_proc(0.85, 0.80, 100, 400, 0.0), _proc(0.80, 0.85, 100, 400, 0.0)]
    assert abs(plan.power - truth) <= 3 * np.hypot(plan.mc_se, se)
    assert all(p < truth - 3 * se for p in proc), (proc, truth)


def _two_models(n: int = 240, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return pd.DataFrame({"y_true": y.astype(int), "lr": 1.2 * y + rng.standard_normal(n),
                         "rf": 0.7 * y + rng.standard_normal(n)})


def test_weighted_file_is_the_population_its_weights_describe():
    wide = _two_models()
    wide["weight"] = np.where(wide["y_true"] == 1, 1.0, 2.0)
    dup = pd.concat([wide, wide[wide["y_true"] == 0]], ignore_index=True).drop(columns="weight")
    dup["row_id"] = np.arange(len(dup))
    wide["row_id"] = np.arange(len(wide))
    kw = dict(metrics=("auroc",), sims=200, seed=1)
    tw = power_table(read_frame(wide, {}, score_cols="lr,rf")[3], **kw)
    td = power_table(read_frame(dup, {}, score_cols="lr,rf")[3], **kw)
    # weighted metrics are the duplicated rows' metrics, the default planned sizes the same
    np.testing.assert_allclose(tw["observed_diff"], td["observed_diff"], rtol=0, atol=1e-12)
    assert list(tw["n_neg"]) == list(td["n_neg"]) and list(tw["n_pos"]) == list(td["n_pos"])
    se = np.hypot(tw["power_mc_se"], td["power_mc_se"])
    assert (abs(tw["power_observed"] - td["power_observed"]) <= 3 * se + 0.02).all()
    y = wide["y_true"].to_numpy() == 1
    weighted = Pair(y, wide["lr"].to_numpy(), wide["rf"].to_numpy(), wide["weight"].to_numpy())
    yd = dup["y_true"].to_numpy() == 1
    copied = Pair(yd, dup["lr"].to_numpy(), dup["rf"].to_numpy())
    for metric in ("average_precision", "aupr", "auprg"):
        assert difference(weighted, metric, 0.3) == pytest.approx(difference(copied, metric, 0.3), abs=1e-12)


def test_power_cli_reads_wide_weighted_files(tmp_path, capsys):
    wide = _two_models()
    wide["weight"] = 1.0 + (wide["y_true"] == 0)
    path = tmp_path / "wide.csv"
    wide.to_csv(path, index=False)
    out = tmp_path / "power.csv"
    assert main(["power", str(path), "--score-cols", "lr,rf", "--metric", "auroc", "--sims", "40",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "weighted rows" in text and "auroc: lr - rf" in text
    assert pd.read_csv(out)["model_a"].tolist() == ["lr"]


@pytest.mark.parametrize("args, says", [
    (["--score-cols", "lr,zz"], "--score-cols: no column 'zz'"),
    ([], "--score-cols lr,rf"),
    (["--score-cols", "lr"], "nothing to compare"),
    (["--metric", "auroc", "--value-a", "0.8"], "goes with --plan"),
])
def test_power_cli_errors_name_the_file(tmp_path, capsys, args, says):
    path = tmp_path / "preds.csv"
    _two_models().to_csv(path, index=False)
    assert main(["power", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert says in err and ("preds.csv" in err or "--plan" in err), err
    assert "Traceback" not in err


def test_power_cli_plan(tmp_path, capsys):
    out = tmp_path / "plan.csv"
    assert main(["power", "--plan", "--metric", "auroc", "--value-a", "0.80", "--value-b", "0.85", "--cases", "100",
                 "--controls", "400", "--corr", "0.5", "--sims", "200", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    row = pd.read_csv(out).iloc[0]
    assert f"power {row['power']:.2f}" in text and "finds model b better" in text
    assert 0.35 < row["power"] < 0.75  # fresh binormal truth at these values: 0.54 (4000 sets)


@pytest.mark.parametrize("args, says", [
    (["--metric", "auroc", "--value-a", "0.8", "--value-b", "0.85", "--cases", "100"], "--plan needs --controls"),
    (["--metric", "aupr", "--value-a", "0.1", "--value-b", "0.85", "--cases", "100", "--controls", "400"],
     "--value-a 0.1 is outside"),
    (["--metric", "auroc", "--value-a", "0.8", "--value-b", "0.85", "--cases", "100", "--controls", "400",
      "--corr", "1"], "--corr must lie"),
])
def test_power_cli_plan_errors(capsys, args, says):
    assert main(["power", "--plan", *args]) == 2
    assert says in capsys.readouterr().err


def test_docs_planning_transcripts_are_the_commands_output(capsys):
    """docs/audit.md's ``prspace power --plan`` transcripts are what the commands print (seeded)."""
    import re
    import shlex
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text()
    blocks = re.findall(r"```bash\n(prspace power --plan [^\n]*)\n```\n\n```text\n(.*?)```\n", docs, re.S)
    assert len(blocks) == 2
    for command, shown in blocks:
        assert main(shlex.split(command)[1:]) == 0
        assert capsys.readouterr().out == shown
