"""The learner panel's names: every learner's stable name, its method family and the named panels.

What a configuration names, what :mod:`prspace.local.learners` builds and what the analyses group by
(a learner's family): a vocabulary every layer shares, so it lives with the contracts, without
scikit-learn, so that checking a study's settings (the workflow's start, ``snakemake -n``, every SLURM
job's own Snakemake) does not import it (about 1.4 s of every Snakefile parse), and the experiments
read it without reading a source.
:data:`LEARNER_NAMES` lists the keys of :data:`prspace.local.learners.LEARNERS` in order
(``tests/local/test_learners.py`` checks it); the models themselves are built there.
"""

from __future__ import annotations

from prspace.core.errors import InputError

__all__ = ["DEFAULT_PANEL", "FAMILIES", "LEARNER_NAMES", "PANELS", "POOL_EXTRA", "POOL_PANEL", "learner_family",
           "learner_names", "parse_learners"]

#: every learner's stable name, in the order of :data:`prspace.local.learners.LEARNERS`
LEARNER_NAMES: tuple[str, ...] = (
    "logreg-C0.01", "logreg-C0.1", "logreg-C1", "logreg-C100", "logreg-l1-C0.1", "linsvm-C0.01", "linsvm-C1",
    "ridge-a1", "ridge-a100", "sgd-hinge", "sgd-modhuber", "perceptron", "passive-aggressive", "gnb", "bnb",
    "cnb", "lda-shrinkage", "qda-shrink0.5", "knn-5", "knn-15", "knn-45-distance", "nearest-centroid",
    "tree-depth2", "tree-depth5", "tree-leaf5", "extra-tree", "rf-50", "extratrees-50", "bagging-tree-20",
    "adaboost-50", "gboost-50", "histgb-50", "vote-soft", "stack-lr", "bagging-knn-10", "svm-rbf-C1",
    "svm-poly2", "rff-logreg", "nystroem-linsvm", "spline-logreg", "pca-logreg", "mlp-16", "gnb-isotonic",
    "linsvm-isotonic", "ridgecv", "mnb-minmax", "kbins-logreg", "kbins-catnb", "select-logreg", "rproj-knn",
    "bagging-logreg-10", "tree-isotonic", "rte-logreg", "logregcv", "quantile-logreg", "rff-ridge",
    "bagging-gnb-10", "adaboost-logreg-20", "rf-10", "extratrees-10", "bagging-tree-10", "adaboost-10",
    "gboost-10", "histgb-10", "mlp-16-e10", "stack-gnb-tree-lr", "bagging-knn-5",
)

#: learner -> method family (one model per family gives the panel's sensitivity table)
FAMILIES: dict[str, str] = {
    **dict.fromkeys(
        ("logreg-C0.01", "logreg-C0.1", "logreg-C1", "logreg-C100", "logreg-l1-C0.1"),
        "logistic-regression",
    ),
    **dict.fromkeys(("linsvm-C0.01", "linsvm-C1"), "linear-svm"),
    **dict.fromkeys(("ridge-a1", "ridge-a100"), "ridge"),
    **dict.fromkeys(("sgd-hinge", "sgd-modhuber"), "sgd"),
    "perceptron": "perceptron",
    "passive-aggressive": "passive-aggressive",
    **dict.fromkeys(("gnb", "bnb", "cnb"), "naive-bayes"),
    "lda-shrinkage": "discriminant-analysis",
    "qda-shrink0.5": "discriminant-analysis",
    **dict.fromkeys(("knn-5", "knn-15", "knn-45-distance"), "nearest-neighbours"),
    "nearest-centroid": "nearest-centroid",
    **dict.fromkeys(("tree-depth2", "tree-depth5", "tree-leaf5", "extra-tree"), "decision-tree"),
    **dict.fromkeys(("rf-50", "extratrees-50", "bagging-tree-20", "rf-10", "extratrees-10", "bagging-tree-10"),
                    "tree-bagging"),
    **dict.fromkeys(("adaboost-50", "gboost-50", "histgb-50", "adaboost-10", "gboost-10", "histgb-10"), "boosting"),
    "vote-soft": "voting",
    **dict.fromkeys(("stack-lr", "stack-gnb-tree-lr"), "stacking"),
    **dict.fromkeys(("bagging-knn-10", "bagging-knn-5"), "nearest-neighbours"),
    **dict.fromkeys(("svm-rbf-C1", "svm-poly2"), "kernel-svm"),
    **dict.fromkeys(("rff-logreg", "nystroem-linsvm"), "kernel-approximation"),
    "pca-logreg": "projection",
    "spline-logreg": "additive-model",
    **dict.fromkeys(("mlp-16", "mlp-16-e10"), "neural-network"),
    **dict.fromkeys(("gnb-isotonic", "linsvm-isotonic"), "calibrated"),
    # the pool's further methods (POOL_EXTRA)
    "ridgecv": "ridge",
    **dict.fromkeys(("mnb-minmax", "kbins-catnb", "bagging-gnb-10"), "naive-bayes"),
    "kbins-logreg": "discretised",
    "select-logreg": "feature-selection",
    "rproj-knn": "projection",
    **dict.fromkeys(("bagging-logreg-10", "logregcv"), "logistic-regression"),
    "tree-isotonic": "calibrated",
    "rte-logreg": "tree-embedding",
    "quantile-logreg": "additive-model",
    "rff-ridge": "kernel-approximation",
    "adaboost-logreg-20": "boosting",
}

#: the default panel: 30 distinct methods (no two differ only in a hyperparameter); since issue 60 its
#: ensembles, stacking and network are the cheaper learners of the same methods (fewer trees, rounds,
#: epochs or models; the stacking without its k-NN), at less than half the CPU of the panel before
#: (benchmarks/bench_panel_cpu.py)
DEFAULT_PANEL: tuple[str, ...] = (
    "logreg-C1", "linsvm-C1", "ridge-a1", "sgd-modhuber", "perceptron", "passive-aggressive",
    "gnb", "bnb", "cnb", "lda-shrinkage", "qda-shrink0.5",
    "knn-15", "nearest-centroid",
    "tree-leaf5", "extra-tree",
    "rf-10", "extratrees-10", "bagging-tree-10", "adaboost-10", "gboost-10", "histgb-10",
    "vote-soft", "stack-gnb-tree-lr", "svm-rbf-C1", "spline-logreg", "rff-logreg", "pca-logreg",
    "mlp-16-e10", "gnb-isotonic", "bagging-knn-5",
)

#: the methods the pool adds to the default panel: each another estimator class or another pipeline
#: structure than every other member (as OpenML's flows are distinct), none the same pipeline with another
#: hyperparameter; every one cheap and deterministic (``prspace.local.learners``, "Determinism")
POOL_EXTRA: tuple[str, ...] = (
    "nystroem-linsvm", "ridgecv", "mnb-minmax", "kbins-logreg", "kbins-catnb",
    "select-logreg", "rproj-knn", "bagging-logreg-10", "tree-isotonic", "rte-logreg", "logregcv",
    "quantile-logreg", "rff-ridge", "bagging-gnb-10", "adaboost-logreg-20",
)

#: the pool of distinct methods (Flach & Kull drew 30 models per task from the runs of more flows):
#: the default panel and :data:`POOL_EXTRA`, for the panel-draws study (config/panel-pool.yaml)
POOL_PANEL: tuple[str, ...] = DEFAULT_PANEL + POOL_EXTRA

#: named panels; "default" 30 distinct methods, "small" a few fast learners of different
#: families (for tests and the downsampling experiment), "pool" the default panel and further
#: distinct methods (random panels of 30 are drawn from it: config/panel-pool.yaml).
PANELS: dict[str, tuple[str, ...]] = {
    "default": DEFAULT_PANEL,
    "small": ("logreg-C1", "gnb", "knn-15", "tree-depth5"),
    "pool": POOL_PANEL,
}


def learner_family(name: str) -> str:
    """The method family of learner ``name`` (e.g. ``"logistic-regression"`` for every
    logistic regression, whatever its C): models of one family differ only in a
    hyperparameter or a variant of one method."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise InputError(f"unknown learner {name!r}; known: {', '.join(LEARNER_NAMES)}") from None


def learner_names(panel: str = "default") -> list[str]:
    """The learner names of a named panel (``"default"``: all 30, ``"small"``: 4 fast ones, ``"pool"``:
    the default 30 and :data:`POOL_EXTRA`)."""
    try:
        return list(PANELS[panel])
    except KeyError:
        raise InputError(
            f"unknown learner panel {panel!r}; choose one of {', '.join(PANELS)} "
            "or give learner names separated by commas"
        ) from None


def parse_learners(spec: str) -> list[str]:
    """``"default"``, ``"small"``, ``"pool"`` or ``"name1,name2,..."`` -> learner names (validated)."""
    spec = spec.strip()
    if spec in PANELS:
        return learner_names(spec)
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise InputError("no learners given; use --learners default, small, pool or name1,name2,...")
    unknown = [n for n in names if n not in LEARNER_NAMES]
    if unknown:
        raise InputError(
            f"unknown learner(s) {', '.join(unknown)}; known: {', '.join(LEARNER_NAMES)} "
            f"(or a panel: {', '.join(PANELS)})"
        )
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InputError(f"learner(s) {', '.join(dup)} given more than once; list each once")
    return names
