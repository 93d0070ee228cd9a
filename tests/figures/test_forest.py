"""The forest plot of the primary claims (issue 78): its source table is the verdict table's primary
rows, number for number, and the figure draws those numbers, readable in print."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

from prspace.cli import main
from prspace.cli.figure import with_words
from prspace.core import registry as R
from prspace.figures import forest as FO
from prspace.verdicts.verdict_labels import SHORT_LABELS

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
STUDIES = ("paperlike", "default")
#: The columns the forest plot takes from verdicts.csv as they are.
SAME = ("paper", "claim_id", "kind", "estimate", "ci95_lo", "ci95_hi", "paper_value", "margin")


def _verdicts(study: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / study / "tables" / "verdicts.csv")


def _assert_equal_to_verdicts(source: pd.DataFrame, study: str) -> None:
    """``source``'s rows of ``study`` are the primary rows of its verdicts.csv: the same claims, each with
    the same estimate, 95% interval, paper value, margin and outcome; the band is the value -+ margin."""
    primary = _verdicts(study).query("role == 'primary'")
    mine = source[source["study"] == study]
    assert sorted(mine["claim_id"]) == sorted(primary["claim_id"]) and len(mine) > 10
    joined = mine.merge(primary, on="claim_id", suffixes=("", "_v"), validate="one_to_one")
    for col in SAME[2:]:
        if col == "kind":
            assert (joined[col] == joined[f"{col}_v"]).all()
            continue
        np.testing.assert_allclose(joined[col].astype(float), joined[f"{col}_v"].astype(float), rtol=1e-12,
                                   err_msg=f"{study}: column {col}")
    assert (joined["outcome"].fillna("") == joined["outcome_v"].fillna("")).all()
    direction = joined["kind"] == "direction"
    np.testing.assert_allclose(joined["reference"], np.where(direction, 0.0, joined["paper_value"]))
    np.testing.assert_allclose(joined["band_hi"] - joined["band_lo"], 2 * joined["margin"], atol=1e-9)


@pytest.mark.parametrize("study", STUDIES)
def test_the_forest_table_is_the_primary_rows_of_verdicts(study):
    _assert_equal_to_verdicts(FO.forest_table(with_words(_verdicts(study), study)), study)


@pytest.mark.parametrize("path", sorted([*RESULTS.glob("*/tables/claims_forest.csv"), *RESULTS.glob("claims_forest.csv")]))
def test_each_committed_forest_source_table_equals_its_verdicts(path):
    """The committed source tables (per study and both studies') against the committed verdict tables."""
    source = pd.read_csv(path)
    studies = sorted(set(source["study"]))
    assert studies == ([path.parents[1].name] if path.parent.name == "tables" else sorted(STUDIES))
    for study in studies:
        _assert_equal_to_verdicts(source, study)


def test_every_outcome_label_has_its_colour_and_unknown_words_are_grey():
    assert set(SHORT_LABELS) <= set(FO.OUTCOME_COLOURS)
    assert FO.panel_of("share") == "share" and FO.panel_of("quartile") == "correlation"
    assert FO.panel_of("equivalence") == "difference" and FO.panel_of("anything else") == "direction"


def _texts(fig) -> list[Text]:
    """The texts ``fig`` shows (not the tick labels of an axes drawn without its axes, ``axis("off")``)."""
    hidden = {id(t) for ax in fig.axes if not ax.axison or not ax.get_visible()
              for t in (*ax.xaxis.findobj(Text), *ax.yaxis.findobj(Text))}
    hidden |= {id(t) for ax in fig.axes if not ax.get_visible() for t in ax.findobj(Text)}
    return [t for t in fig.findobj(Text) if t.get_text().strip() and t.get_visible() and id(t) not in hidden]


def test_the_figure_draws_each_row_readable_and_the_checks_apart():
    """Two studies: one mark per study and row at its estimate, every text >= 8 pt at the printed width
    (6.4 in), inside the figure; a row built in by construction is hollow and named in grey italics."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    both = pd.concat([with_words(_verdicts(s), s) for s in STUDIES], ignore_index=True)
    both["by_construction"] = both["claim_id"] == "fk.aupr_auprg.spearman_q75"
    table = FO.forest_table(both)
    assert table["claim_id"].iloc[-1].startswith("boyd.") and (table["panel"].iloc[:6] == "share").all()
    fig = FO.forest_figure(table)
    FigureCanvasAgg(fig).draw()
    assert fig.get_size_inches()[0] == pytest.approx(FO.WIDTH)
    texts = _texts(fig)
    assert min(t.get_fontsize() for t in texts) >= 8
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    for t in texts:
        box = t.get_window_extent(renderer)
        assert box.x0 >= -1 and box.x1 <= width + 1 and box.y0 >= -1 and box.y1 <= height + 1, t.get_text()
    marks = [ln for ax in fig.axes for ln in ax.get_lines() if ln.get_marker() in ("o", "s")]
    assert len(marks) == len(table)
    xs = sorted(float(m.get_xdata()[0]) for m in marks)
    np.testing.assert_allclose(xs, sorted(table["estimate"]))
    hollow = [m for m in marks if m.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0))]
    assert len(hollow) == 2  # the check's row, once per study
    grey = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels() if t.get_fontstyle() == "italic"]
    assert len(grey) == 1 and "upper quartile" in grey[0]
    labels = {t.get_text() for t in texts}
    assert {"\u25cf check: replicates", "\u25a0 check: undecided"} <= labels  # each study's mark before its words


def test_prspace_figure_writes_the_source_table_beside_the_figure(tmp_path):
    """``prspace figure claims_forest --source``: the rule's command line, on a copy of a committed study."""
    tables = tmp_path / "results" / "paperlike" / "tables"
    tables.mkdir(parents=True)
    shutil.copy(RESULTS / "paperlike" / "tables" / "verdicts.csv", tables)
    out, source = tmp_path / "claims_forest.png", tables / f"{R.CLAIMS_FOREST.name}.csv"
    assert main(["figure", "claims_forest", "--tables", str(tables / "verdicts.csv"), "--out", str(out),
                 "--formats", "png", "--source", str(source)]) == 0
    assert out.stat().st_size > 10_000
    _assert_equal_to_verdicts(pd.read_csv(source), "paperlike")
    assert main(["figure", "fig4_rank_heatmap", "--tables", str(tables / "verdicts.csv"), "--out", str(out),
                 "--source", str(source)]) != 0  # one line naming the problem, no traceback


# --------------------------------------------------------------------------- every figure readable in print
#: A page's text width (in): a wider figure is printed scaled down to it.
PAGE = 7.2


def _smallest_printed_pt(fig) -> float:
    """The smallest text of ``fig`` in points once printed at most :data:`PAGE` inches wide."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    scale = min(1.0, PAGE / fig.get_size_inches()[0])
    return min(t.get_fontsize() for t in _texts(fig)) * scale


def _committed_figure(name: str, study: str = "paperlike"):
    """Figure ``name`` of the study drawn from its committed tables."""
    from prspace.experiments.boyd import boyd_figure_data as BF
    from prspace.figures import boyd_figures as B
    from prspace.figures.study import draw
    from prspace.metrics import METRIC_LABELS

    def table(n: str) -> pd.DataFrame:
        return pd.read_csv(RESULTS / study / "tables" / f"{n}.csv", dtype={"learner": str, "metric": str})

    def text(t) -> dict[str, str]:
        return dict(zip(t["field"], t["text"], strict=True))

    if name in ("cd_diagram", "controlled_skew"):
        return draw(name, {d.name: table(d.name) for d in R.figure(name).data}, {}, METRIC_LABELS)
    fig = R.figure(name)
    if name == "boyd_downsampling":
        t = dict(BF.downsampling_tables(table("boyd_downsampling_summary")))
        return B.figure_downsampling(*(t[d] for d in fig.data), text(t[fig.text]))
    if name == "boyd_fold_skew":
        t = dict(BF.fold_skew_tables(table("boyd_fold_skew_summary")))
        return B.figure_fold_skew(*(t[d] for d in fig.data), text(t[fig.text]))
    groups = table("boyd_aggregation_skew_groups")
    long = pd.DataFrame([{"skew_group": r["skew_group"], "learner": r["learner"], "metric": m, "rank": r[f"rank_{m}"]}
                         for _, r in groups.iterrows() for m in ("aupr", "aucnpr", "auprg", "auroc")])
    t = dict(BF.aggregation_tables(table("boyd_aggregation_tasks"), long))
    return B.figure_aggregation(*(t[d] for d in fig.data), text(t[fig.text]))


@pytest.mark.parametrize("name", ["cd_diagram", "controlled_skew", "boyd_downsampling", "boyd_fold_skew",
                                  "boyd_aggregation"])
def test_each_figure_drawn_from_committed_tables_prints_its_text_at_8_pt_or_more(name):
    """Issue 78.8: text of at least 8 pt at print size (a figure wider than a page printed at the page's
    width), no title, label, note or legend outside the figure; the fold-skew figure states the finding, the
    downsampling figure draws intervals, not +- sd, the controlled-skew figure labels its y axes."""
    fig = _committed_figure(name)
    assert _smallest_printed_pt(fig) >= 8 - 1e-9
    renderer = fig.canvas.get_renderer()
    ticks = {id(t) for ax in fig.axes for t in (*ax.xaxis.findobj(Text), *ax.yaxis.findobj(Text))}
    for t in _texts(fig):  # titles, labels, notes, legends (constrained layout places the tick labels)
        box = t.get_window_extent(renderer)
        assert id(t) in ticks or (box.x0 >= -2 and box.x1 <= fig.bbox.width + 2), t.get_text()
    if name == "boyd_fold_skew":
        assert "below the merged AUPR at every dispersion" in fig.get_suptitle().replace("\n", " ")
    if name == "boyd_downsampling":
        legend = " ".join(t.get_text() for t in fig.legends[0].get_texts())
        assert "95% interval" in legend and "sd" not in legend
    if name == "controlled_skew":
        assert {a.get_ylabel() for a in fig.get_axes() if a.get_ylabel()} == {
            "share of tasks\nthe pair differs on", "mean rank correlation\n(Spearman) over tasks"}


def test_figure4_left_is_titled_by_the_shares_beside_the_papers():
    """Issue 78.8: the rank heat map says the shares of tasks (disagreement_summary) and the paper's values
    (the claims registry), and is titled plainly without the table."""
    from prspace.core import claims as REG
    from prspace.figures.study import heatmap_title

    summary = pd.read_csv(RESULTS / "paperlike" / "tables" / "disagreement_summary.csv")
    row = summary.query("metric_a == 'aupr' and metric_b == 'auprg'").iloc[0]
    title = heatmap_title(summary, "AUPR", "AUPRG").replace("\u00a0", " ")
    for k in ("top1", "top3"):
        assert f"{row[f'{k}_share']:.0%}" in title and f"(paper {REG.claim(f'fk.aupr_auprg.{k}').paper_value:.0%})" in title
    assert f"of {int(row['n_tasks'])} tasks" in title
    assert heatmap_title(None, "AUPR", "AUPRG") == "Ranks of each task's models by AUPR and by AUPRG"
