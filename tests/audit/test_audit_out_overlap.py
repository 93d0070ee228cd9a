"""Issue 59, ``prspace audit --out`` at scale: the bands computed in a second thread while the figures that need no
bands are drawn (:func:`prspace.audit.audit_files.prepare_outputs`) write the same files, byte for byte, as one stage
after the other; the curves figure, drawn one model at a time, draws the curves of :func:`curve_points` on all the
models at once."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from prspace.audit import audit
from prspace.audit import audit_files as files
from prspace.audit.report import plot


def _wide(n: int, pi: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < pi).astype(int)
    cols = {"y_true": y, "fold": np.arange(n) % 5}
    for k, g in enumerate((1.0, 1.3, 1.6)):
        cols[f"m{k}"] = 1 / (1 + np.exp(-(y * g + rng.normal(size=n) - 3)))
    return pd.DataFrame(cols)


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return _wide(4000, 0.1, 3)


def _serial(frame: pd.DataFrame) -> dict[str, bytes]:
    """The report's files with every stage one after the other, as before the second thread."""
    res = audit(frame, score_cols=["m0", "m1", "m2"], n_boot=60)
    res.shown_bands()
    res._outputs_prepared = True  # prepare_outputs: nothing left to do
    return files.report_files(res, source="pred.csv")


@pytest.mark.parametrize("overlap_rows", [files.OVERLAP_ROWS, 0])  # figures drawn ahead, or only matplotlib imported
def test_out_in_two_threads_writes_the_same_files_as_one_stage_after_the_other(frame, monkeypatch, overlap_rows):
    serial = _serial(frame)
    monkeypatch.setattr(files, "OVERLAP_ROWS", overlap_rows)
    res = audit(frame, score_cols=["m0", "m1", "m2"], n_boot=60)
    drawn = []
    real = type(res).draw_ahead
    monkeypatch.setattr(type(res), "draw_ahead", lambda self: drawn.append(1) or real(self))
    files.prepare_outputs(res)
    assert len(drawn) == (1 if overlap_rows else 0)
    assert set(res._drawn) == ({"curves", "intervals"} if overlap_rows else set())
    written = files.report_files(res, source="pred.csv")
    assert res._drawn == {}  # taken once: a later figures() draws again
    assert set(written) == set(serial) and {"bands.png", "bands.csv", "curves.png", "intervals.png"} <= set(written)
    for name in serial:
        assert written[name] == serial[name], name
    assert res.figures()["curves"] == serial["curves.png"]  # drawn again, the same


def test_curves_figure_one_model_at_a_time_draws_curve_points_of_all_models(frame):
    """The curves figure computes one model's whole curves at a time (the peak memory at 10^6 rows): the lines it
    draws are those of :func:`prspace.figures.curves.curve_points` on all the models at once, binned, and the
    minimum PR curve that of the first."""
    from matplotlib.figure import Figure

    from prspace.figures.curves import Curve, curve_points, draw_curves

    res = audit(frame, score_cols=["m0", "m1", "m2"], n_boot=0)
    fig = plot.curves_figure(res)
    table = res.pooled.sort_values(["aupr", "model"], ascending=[False, True])
    curves = [Curve(str(m), g["y"].to_numpy(), g["score"].to_numpy(), {}, g["weight"].to_numpy())
              for m in table["model"] for g in [res.data[res.data["model"] == m]]]
    _, points, min_pr = curve_points(curves)  # all the models at once, as the figure drew them before
    before = Figure().subplots(1, 3)
    draw_curves(*before, [plot.binned(p) for p in points], min_pr)
    for now, then in zip(fig.axes[:3], before, strict=True):
        a, b = [ln.get_xydata() for ln in now.get_lines()], [ln.get_xydata() for ln in then.get_lines()]
        assert len(a) == len(b) >= 4
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_bands_computed_ahead_are_the_records_bands_and_write_the_same_files(frame, tmp_path):
    """``--out`` (``audit_file(bands_ahead=True)``) computes the shown models' bands in a second thread while the
    audit computes its intervals (:func:`prspace.audit.inference.audit_bands.start_ahead`): the same bands, bit for
    bit, as :func:`~prspace.audit.inference.audit_bands.model_bands` computes from the record afterwards, and the
    same report files; without ``--out`` nothing is started, nor for a grouped audit or without a bootstrap."""
    from prspace.audit.inference import audit_bands

    path = tmp_path / "pred.csv"
    frame.to_csv(path, index=False)
    opts = {"skew_tolerance": 0.02, "downsample_ratio": 1.5, "n_boot": 60, "confidence": 0.9, "seed": 5,
            "score_cols": "m0,m1,m2"}
    ahead, _ = files.audit_file(str(path), bands_ahead=True, **opts)
    plain, _ = files.audit_file(str(path), **opts)
    assert ahead.bands_ahead is not None and plain.bands_ahead is None  # a field of the result, in the open
    done = ahead.bands_ahead.result()
    assert set(done) == {("all", m) for m in ("m0", "m1", "m2")}
    for (task, model), bands in done.items():
        again = audit_bands.model_bands(plain, task, model)
        for curve, b in bands.items():
            for name in ("grid", "estimate", "lo", "hi", "sim_lo", "sim_hi", "sd"):
                np.testing.assert_array_equal(getattr(b, name), getattr(again[curve], name), err_msg=f"{model} {curve}")
            assert b.critical_value == again[curve].critical_value and b.level == 0.9 and b.n_resamples == 60
    assert files.report_files(ahead, source="pred.csv") == files.report_files(plain, source="pred.csv")
    other = ahead.bands("all", "m0", "pr", seed=6)  # another seed: computed, not taken from the bands done ahead
    assert not np.array_equal(other.lo, done[("all", "m0")]["pr"].lo)
    res, _ = files.audit_file(str(path), bands_ahead=True, **{**opts, "n_boot": 0})
    assert res.bands_ahead is None
    grouped = tmp_path / "grouped.csv"
    frame.assign(patient=np.arange(len(frame)) // 4).to_csv(grouped, index=False)
    res, _ = files.audit_file(str(grouped), bands_ahead=True, group_col="patient", **{**opts, "n_boot": 20})
    assert res.bands_ahead is None
