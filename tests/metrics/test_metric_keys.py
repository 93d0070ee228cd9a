"""One list of metric keys, :data:`prspace.metrics.names.METRIC_KEYS`, read everywhere a metric is named
(issue 61): both kernels of :mod:`prspace.metrics.headline` return every key of it in its order (the batch
kernel's ``BATCH_METRICS`` is that list), the metrics table has its columns, every key has its label and
its public function (named as the key), and the configuration schema's metric enums are that list
(``analysis.metrics``) or its part the bootstraps resample (``analysis.rank_sets.metrics``:
``REPORTED_METRICS``). A new metric added to the list but not to a kernel, the schema or the docs fails
here (``CONTRIBUTING.md``, "A metric")."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import yaml

from prspace import metrics as M
from prspace.core import registry as R
from prspace.experiments.fk import scoring
from prspace.metrics import headline
from prspace.metrics.names import METRIC_KEYS, METRIC_LABELS, REPORTED_METRICS
from prspace.stats.replicates import BOOT_METRICS
from prspace.study.study_plan import caption_of

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = sorted((ROOT / "workflow" / "schemas").glob("*.schema.yaml"))
COUNTS = ["pi", "n_pos", "n_neg"]
#: keys whose public function is not the function of the key's name
OTHER_NAME = {"aupr_linear": partial(M.aupr, interpolation="linear")}


def _case(seed: int, n: int = 90):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    s = np.round(rng.normal(y * 1.0, 1.0), 1)  # ties
    _, group = np.unique(-s, return_inverse=True)
    k = int(group.max()) + 1
    w = rng.multinomial(n, np.full(n, 1.0 / n), size=5).astype(np.float64)
    w[:, :2] = np.maximum(w[:, :2], 1.0)  # both classes keep weight
    tp = np.array([np.bincount(group, wb * y, k) for wb in w])
    fp = np.array([np.bincount(group, wb * ~y, k) for wb in w])
    return y, s, w, tp, fp


def _metric_enums(node: object, path: str = "") -> dict[str, list]:
    """Every enum of a schema whose values include a metric key, by its path in the schema."""
    out: dict[str, list] = {}
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list) and set(node["enum"]) & set(METRIC_KEYS):
            out[path] = node["enum"]
        for key, value in node.items():
            out.update(_metric_enums(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.update(_metric_enums(value, f"{path}/{i}"))
    return out


def test_the_batch_kernel_and_the_tables_read_the_one_list():
    assert headline.BATCH_METRICS is METRIC_KEYS
    assert scoring.METRICS is METRIC_KEYS
    assert [c for c in scoring.METRICS_COLUMNS if c in METRIC_KEYS] == list(METRIC_KEYS)
    for key in METRIC_KEYS:
        assert {f"{key}_fold_mean", f"{key}_fold_std"} <= set(scoring.METRICS_COLUMNS), key
    assert len(set(METRIC_KEYS)) == len(METRIC_KEYS)


def test_every_kernel_returns_every_key_in_the_lists_order():
    y, s, w, tp, fp = _case(0)
    order = np.argsort(-s, kind="stable")
    whole = [*METRIC_KEYS, *COUNTS]
    assert list(M.all_metrics(y, s)) == whole
    assert list(M.metrics_from_group_counts(tp[0], fp[0])) == whole
    assert list(M.metrics_from_group_counts_batch(tp, fp)) == whole
    assert list(M.metrics_from_untied_counts_batch(np.ones((2, y.size)), y, order)) == whole
    for key in METRIC_KEYS:  # each key alone, and every key but it
        rest = [k for k in METRIC_KEYS if k != key]
        assert list(M.metrics_from_group_counts(tp[0], fp[0], [key])) == [key, *COUNTS]
        assert list(M.metrics_from_group_counts_batch(tp, fp, rest)) == [*rest, *COUNTS]


def test_the_batch_kernel_equals_the_row_wise_kernel_for_every_key():
    y, s, w, tp, fp = _case(1)
    batch = M.metrics_from_group_counts_batch(tp, fp)
    for b in range(w.shape[0]):
        row = M.all_metrics(y, s, sample_weight=w[b])
        for key in METRIC_KEYS:
            assert batch[key][b] == pytest.approx(row[key], abs=1e-12, rel=0), (key, b)
            alone = M.metrics_from_group_counts_batch(tp[b : b + 1], fp[b : b + 1], [key])[key]
            assert alone[0] == pytest.approx(row[key], abs=1e-12, rel=0), (key, b)


def test_every_key_has_its_label_and_its_public_function():
    assert set(METRIC_LABELS) == set(METRIC_KEYS)
    for seed in range(3):
        y, s, w, _, _ = _case(seed)
        got = M.all_metrics(y, s, sample_weight=w[0])
        for key in METRIC_KEYS:
            fn = OTHER_NAME.get(key) or getattr(M, key, None)
            assert fn is not None, f"metric {key}: no public function prspace.metrics.{key}"
            assert key in M.__all__ or key in OTHER_NAME, key
            assert fn(y, s, sample_weight=w[0]) == got[key], key


#: the lists of :mod:`prspace.metrics.names` the schema's metric enums are, by their path in the schema:
#: ``analysis.metrics`` ranks by columns of the metrics table (every key), ``analysis.rank_sets.metrics``
#: resamples with the bootstraps of :mod:`prspace.stats.replicates` (``BOOT_METRICS``: the reported ones)
ENUMS = {("config.schema.yaml", "/properties/analysis/properties/metrics/items"): METRIC_KEYS,
         ("config.schema.yaml", "/properties/analysis/properties/rank_sets/properties/metrics/items"): REPORTED_METRICS}


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda p: p.name)
def test_the_schemas_metric_enums_are_the_lists_of_names(schema):
    enums = _metric_enums(yaml.safe_load(schema.read_text(encoding="utf-8")))
    want = {where: keys for (name, where), keys in ENUMS.items() if name == schema.name}
    assert set(enums) == set(want), f"{schema.name}: metric enums at {sorted(enums)}, expected at {sorted(want)} (ENUMS)"
    for where, enum in enums.items():
        assert enum == list(want[where]), f"{schema.name}{where}: {enum}, not {list(want[where])} of prspace.metrics.names"


def test_the_bootstraps_resample_the_reported_metrics():
    assert BOOT_METRICS is REPORTED_METRICS and set(REPORTED_METRICS) <= set(METRIC_KEYS)


def test_the_metrics_table_is_described_with_every_key():
    """The metrics table's caption (the report) and ``docs/architecture.md`` (its columns and the keys of
    ``all_metrics``) name every metric of the list."""
    for key in METRIC_KEYS:
        assert re.search(rf"\b{key}\b", caption_of(R.METRICS)), f"the caption of table metrics does not name {key}"
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert f"`{', '.join([*METRIC_KEYS, *COUNTS])}`" in doc  # "Metrics API": the keys of all_metrics
    assert f"| `{', '.join(METRIC_KEYS)}` |" in doc  # "The metrics table": its columns


def test_the_checks_find_planted_faults():
    planted = {"properties": {"a": {"items": {"enum": ["aupr", "auroc"]}}, "b": {"enum": ["png", "pdf"]}}}
    assert _metric_enums(planted) == {"/properties/a/items": ["aupr", "auroc"]}
    with pytest.raises(ValueError, match="unknown metric"):
        M.metrics_from_group_counts([1.0, 0.0], [0.0, 1.0], ["no_such_metric"])
