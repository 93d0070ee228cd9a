"""The output layer: one figure writer, one table writer, one precision policy (prspace.core.output)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from PIL import Image

from prspace.core import output as O
from prspace.core.errors import InputError


def _table(rng: np.random.Generator, n: int = 200) -> pd.DataFrame:
    return pd.DataFrame({
        "task_id": [f"t{i:03d}" for i in range(n)],
        "n": rng.integers(10, 10_000_000, n).astype(np.float64),  # a count stored as float
        "n_pos": np.where(np.arange(n) % 7 == 0, np.nan, rng.integers(1, 50, n)),
        "aupr": rng.random(n),
        "tiny": rng.random(n) * 1e-7,
        "flag": np.arange(n) % 2 == 0,
    })


def test_csv_has_six_significant_digits_and_integer_counts(tmp_path):
    df = _table(np.random.default_rng(1))
    O.write_csv(df, tmp_path / "t.csv")
    back = pd.read_csv(tmp_path / "t.csv")
    # every float within half a unit of its sixth significant digit
    for col in ("aupr", "tiny"):
        np.testing.assert_allclose(back[col], df[col], rtol=0.5 * 10.0 ** (1 - O.CSV_SIGNIFICANT), atol=0)
        text = pd.read_csv(tmp_path / "t.csv", dtype=str)[col]
        mantissa = text.str.split("e").str[0].str.replace(".", "", regex=False).str.lstrip("0")
        assert mantissa.str.len().max() == O.CSV_SIGNIFICANT
    lines = (tmp_path / "t.csv").read_text().splitlines()
    header = lines[0].split(",")
    n_col, pos_col = header.index("n"), header.index("n_pos")
    for line in lines[1:]:
        cells = line.split(",")
        assert "." not in cells[n_col] and "e" not in cells[n_col], cells[n_col]  # 7-digit counts stay exact
        assert cells[pos_col] == "" or cells[pos_col].isdigit()
    assert back["n"].tolist() == df["n"].astype(int).tolist()


def test_last_bit_noise_cannot_show(tmp_path):
    df = _table(np.random.default_rng(2))
    noisy = df.copy()
    for col in ("aupr", "tiny"):
        noisy[col] = df[col] * (1 + np.random.default_rng(3).choice([-1, 1], len(df)) * 4e-16)
    O.write_table(df, tmp_path / "a.csv", tmp_path / "a.md")
    O.write_table(noisy, tmp_path / "b.csv", tmp_path / "b.md")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a.md").read_bytes() == (tmp_path / "b.md").read_bytes()


def test_markdown_and_html_use_four_significant_digits():
    df = pd.DataFrame({"m": ["a", "b|c"], "v": [0.123456, 12345.6], "small": [0.00012345, 2.5e-7],
                       "n_tasks": [3.0, np.nan], "ok": [True, False], "mixed": [886.0, 0.24]})
    md = O.to_markdown(df, title="T", note="N")
    assert "| a | 0.1235 | 0.0001234 | 3 | yes | 886 |" in md
    assert "| b\\|c | 12346 | 2.500e-07 |  | no | 0.2400 |" in md
    assert md.startswith("### T\n") and md.rstrip().endswith("N")
    html = O.to_html(df, title="T")
    assert "<td>0.1235</td>" in html and "<td>12346</td>" in html and "<td>3</td>" in html


def test_parse_formats():
    assert O.parse_formats("PNG, pdf,png") == ["png", "pdf"]
    assert O.parse_formats("") == ["png"]
    with pytest.raises(InputError, match="unknown figure format 'jpg'"):
        O.parse_formats("png,jpg")


def _figure() -> Figure:
    fig = Figure(figsize=(2.0, 1.5))
    fig.add_subplot().plot([0, 1], [0, 1])
    return fig


def test_figure_writer_is_deterministic_without_metadata_at_one_dpi(tmp_path):
    a = O.write_figure(_figure(), tmp_path / "a", ["png", "pdf", "svg"])
    b = O.write_figure(_figure(), tmp_path / "b", "png,pdf,svg")
    assert [p.name for p in a] == ["a.png", "a.pdf", "a.svg"]
    for pa, pb in zip(a, b, strict=True):
        assert pa.read_bytes() == pb.read_bytes(), pa.suffix
    png = a[0].read_bytes()
    assert b"Software" not in png and b"matplotlib" not in png.lower()
    pdf = a[1].read_bytes()
    assert b"CreationDate" not in pdf and b"Producer" not in pdf
    with Image.open(io.BytesIO(png)) as im:
        assert im.size == (2 * O.DPI, int(1.5 * O.DPI))
    assert not list(tmp_path.glob(".*.part"))  # no temporary files left behind
