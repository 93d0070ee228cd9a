"""Local predictions: the learner panel and the cross-validation runner.

* ``learners.py``: the panel of 30 scikit-learn models (:data:`~prspace.local.learners.LEARNERS`,
  panels, families, :func:`~prspace.local.learners.make_learner`);
* ``pipeline.py``: what every learner's pipeline shares: preprocessing, rounding of features and
  scores (determinism), the score of a fitted model;
* ``crossval.py``: :func:`~prspace.local.crossval.predict_dataset`, every learner cross-validated
  on the same seeded folds -> one predictions table (:mod:`prspace.core.schema`).

The datasets come from :mod:`prspace.data`.
"""
